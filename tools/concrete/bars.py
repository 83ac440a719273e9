"""Reinforcement as engineers write it: "4 #8", "4 No. 8", "3H20", "2T25", "3 x 20 mm", "#5 @ 12 in", "H12 @ 200"
(mm implied for metric bars), a total area "2.37 in2", one bar "#8" or "H20", and links or stirrups
"#4 @ 10 in" (2 legs unless said), "2-leg H8 @ 200", "H8-200 (2 legs)".

Each is read to bars of `tools.concrete.bar_tables` or refused with one sentence that says what was wrong and what
is valid; nothing is read as something else ("3H21" is not a 20 mm bar, "#5 @ 12" has no unit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tools.concrete.bar_tables import astm_bar, en_bar
from tools.units.reading import require
from tools.units.showing import System, significant, system_of

MAX_BARS = 200
_ASTM = re.compile(r"^(?:#|no\.?\s*)(\d{1,2})$", re.IGNORECASE)
_METRIC = re.compile(r"^(?:[HTYØφ⌀]\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*mm)$", re.IGNORECASE)
_COUNTED = re.compile(r"^(\d+)\s*(?:[-x×*]\s*)?((?:[#A-Za-zØφ⌀]|\d+(?:\.\d+)?\s*mm\b).*)$", re.IGNORECASE)
_SPACED = re.compile(r"^(?P<bar>[^@]+?)\s*@\s*(?P<spacing>.+)$")
_HYPHENATED = re.compile(r"^(?P<bar>(?:[HTYØφ⌀]|#|no\.?\s*)\s*\d+(?:\.\d+)?)\s*-\s*(?P<spacing>\d.*)$", re.IGNORECASE)
_LEGS = re.compile(r"\(?\s*(\d+)\s*-?\s*legs?\s*\)?[,;]?", re.IGNORECASE)
_AREA = re.compile(
    r"^\d+(?:\.\d+)?\s*(?:(?:sq\.?|square)\s*(?:in|mm|cm|m|ft)|(?:in|mm|cm|m|ft)\s*(?:2|²|\*\*\s*2|\^\s*2))$", re.I
)
_AREA_UNITS = re.compile(r"\b(in|mm|cm|m|ft)2\b")
_EXAMPLES = "such as '4 #8', '3H20', '3 x 20 mm', '#5 @ 12 in', 'H12 @ 200' or a total area '2.37 in2'"


@dataclass(frozen=True)
class Bar:
    """One bar size: its name as written in results, nominal diameter (m) and area (m²)."""

    name: str
    diameter: float
    area: float
    metric: bool


@dataclass(frozen=True)
class Bars:
    """A group of bars: `count` bars, bars at a `spacing` (a slab's, per width), or a total `area` alone."""

    text: str
    bar: Bar | None
    count: int = 0
    spacing: float | None = None
    given_area: float | None = None
    system: System = "SI"

    def area(self, width: float) -> float:
        """The steel area in m² (for bars at a spacing, over `width`)."""
        if self.given_area is not None:
            return self.given_area
        assert self.bar is not None
        if self.spacing is not None:
            return self.bar.area * width / self.spacing
        return self.bar.area * self.count


@dataclass(frozen=True)
class Stirrups:
    """Links or stirrups: the bar, its legs and spacing (m)."""

    text: str
    bar: Bar
    legs: int
    spacing: float

    @property
    def area(self) -> float:
        """Av: the legs' area in one set (m²)."""
        return self.bar.area * self.legs


def read_bar(text: str, name: str) -> Bar:
    """One bar size: "#8", "No. 8", "H20", "T20", "Ø20", "20 mm"."""
    written = text.strip()
    astm, metric = _ASTM.match(written), _METRIC.match(written)
    try:
        if astm:
            diameter, area = astm_bar(int(astm.group(1)))
            return Bar(f"#{int(astm.group(1))}", diameter, area, metric=False)
        if metric:
            size = float(metric.group(1) or metric.group(2))
            diameter, area = en_bar(size)
            return Bar(f"{significant(size)} mm", diameter, area, metric=True)
    except ValueError as error:
        raise ValueError(f"{name} '{written}': {error}") from None
    if re.match(r"^R\s*\d", written, re.IGNORECASE):
        raise ValueError(f"{name} '{written}' is a plain round bar, which these tools do not cover; give a ribbed bar")
    raise ValueError(f"{name} '{written}' is not a bar size: write '#8', 'No. 8', 'H20', 'T20' or '20 mm'")


def read_bars(text: str, name: str) -> Bars:
    """Bars by count, at a spacing or as a total area (see the module's docstring)."""
    written = _checked(text, name)
    spaced = _SPACED.match(written)
    if spaced:
        bar = read_bar(spaced["bar"], name)
        spacing = _spacing(spaced["spacing"], bar, name)
        return Bars(written, bar, spacing=spacing, system=_bar_system(bar))
    if _AREA.match(written):
        return _total_area(written, name)
    counted = _COUNTED.match(written)
    if counted and not re.fullmatch(r"\d+(?:\.\d+)?\s*mm", written, re.IGNORECASE):
        count = int(counted.group(1))
        if not 1 <= count <= MAX_BARS:
            raise ValueError(f"{name} '{written}' gives {count} bars; give 1 to {MAX_BARS}")
        bar = read_bar(counted.group(2), name)
        return Bars(written, bar, count=count, system=_bar_system(bar))
    raise ValueError(f"{name} '{written}' is not reinforcement this tool reads; write it {_EXAMPLES}")


def read_stirrups(text: str, name: str) -> Stirrups:
    """ "#4 @ 10 in" (2 legs), "2-leg H8 @ 200", "H8-200 (2 legs)", "4-leg #3 @ 6 in"."""
    written = _checked(text, name)
    legs = 2
    found = _LEGS.search(written)
    if found:
        legs = int(found.group(1))
        written = (written[: found.start()] + " " + written[found.end() :]).strip(" ,;")
    if not 1 <= legs <= 12:
        raise ValueError(f"{name} '{text.strip()}' has {legs} legs; give 1 to 12")
    matched = _SPACED.match(written) or _HYPHENATED.match(written)
    if not matched:
        raise ValueError(
            f"{name} '{text.strip()}' is not a link or stirrup this tool reads: write '#4 @ 10 in', "
            "'2-leg H8 @ 200' or 'H8-200 (2 legs)'"
        )
    bar = read_bar(matched["bar"], name)
    return Stirrups(text.strip(), bar, legs, _spacing(matched["spacing"], bar, name))


def _checked(text: str, name: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{name} is empty; write it {_EXAMPLES}")
    if len(text) > 80:
        raise ValueError(f"{name} is too long ({len(text)} characters; at most 80)")
    return " ".join(text.split())


def _spacing(text: str, bar: Bar, name: str) -> float:
    """The spacing in m: a length, or a bare number of mm for a metric bar."""
    written = text.strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", written):
        if not bar.metric:
            raise ValueError(f"{name}: the spacing '{written}' has no unit; write it '{written} in' or '{written} mm'")
        written += " mm"
    spacing = float(require(written, f"{name} spacing", "length").to("m").magnitude)
    if not bar.diameter < spacing <= 3.0:
        raise ValueError(f"{name}: a spacing of {text.strip()} is not a bar spacing (more than the bar, at most 3 m)")
    return spacing


def _total_area(text: str, name: str) -> Bars:
    area = require(_AREA_UNITS.sub(r"\1**2", text), name, "area")
    return Bars(text, None, given_area=float(area.to("m**2").magnitude), system=system_of(area))


def _bar_system(bar: Bar) -> System:
    return "SI" if bar.metric else "US"
