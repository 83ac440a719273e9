"""A rectangular beam or one-way slab section from the tool's arguments: its depths, its bars, whether they fit in
one layer, and its drawing. SI base units (m, m²).

d = h − cover − stirrup − bar/2, the cover being the clear cover to the stirrups (to the bars without them); d' the
same from the compression face. Cover left out is the usual one, said so in the result: ACI 318-19 Table 20.5.1.3.1
(1.5 in for beams, 0.75 in for slabs not exposed to weather), EN 1992-1-1 4.4.1 (30 mm for beams and 25 mm for
slabs, exposure class XC1 with Δcdev = 10 mm).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.calculations import SectionBar, SectionDrawing
from tools.concrete.bars import Bars, Stirrups
from tools.concrete.readout import in_units, shown
from tools.units.showing import System

INCH = 0.0254


@dataclass(frozen=True)
class BeamSection:
    """A rectangular section with one layer of tension bars and, where given, compression bars."""

    width: float
    height: float
    d: float
    tension: Bars
    tension_area: float
    compression: Bars | None
    compression_area: float
    compression_depth: float
    stirrups: Stirrups | None
    cover: float
    slab: bool
    system: System

    @property
    def stirrup_diameter(self) -> float:
        return self.stirrups.bar.diameter if self.stirrups else 0.0


def default_cover(aci: bool, slab: bool) -> float:
    """The clear cover taken when none is given (see the module's docstring)."""
    if aci:
        return (0.75 if slab else 1.5) * INCH
    return 0.025 if slab else 0.030


def tension_depth(height: float, cover: float, stirrups: Stirrups | None, bars: Bars) -> float:
    """d = h − cover − stirrup − bar/2 (the bar's half-diameter unknown for a total area: give effective_depth)."""
    if bars.bar is None:
        raise ValueError("tension_bars given as a total area need effective_depth (the depth to their centroid)")
    depth = height - cover - (stirrups.bar.diameter if stirrups else 0.0) - bars.bar.diameter / 2
    if depth <= 0.3 * height:
        raise ValueError("the cover, stirrups and bars leave no effective depth: check height, cover and the bars")
    return depth


def compression_depth(cover: float, stirrups: Stirrups | None, bars: Bars) -> float:
    """d' = cover + stirrup + bar/2."""
    if bars.bar is None:
        raise ValueError("compression_bars given as a total area need compression_depth (the depth to their centroid)")
    return cover + (stirrups.bar.diameter if stirrups else 0.0) + bars.bar.diameter / 2


def least_clear_spacing(diameter: float, aci: bool) -> float:
    """ACI 318-19 25.2.1: max(1 in, db) (4/3 dagg not known); EN 1992-1-1 8.2(2): max(φ, 20 mm) (dg + 5 mm not
    known)."""
    return max(INCH, diameter) if aci else max(diameter, 0.020)


def fit_problem(section: BeamSection, aci: bool) -> str | None:
    """The sentence saying the tension bars do not fit in one layer of the width, or None when they do."""
    bars = section.tension
    if bars.bar is None or bars.count <= 1 or section.slab:
        return None
    room = section.width - 2 * (section.cover + section.stirrup_diameter)
    needed_clear = least_clear_spacing(bars.bar.diameter, aci)
    clear = (room - bars.count * bars.bar.diameter) / (bars.count - 1)
    if clear >= needed_clear:
        return None
    clause = "ACI 318-19 25.2.1" if aci else "EN 1992-1-1 8.2(2)"
    system = section.system
    return (
        f"{bars.text} do not fit in one layer of the {shown(section.width, 'length', system)} width: the clear "
        f"spacing would be {shown(max(clear, 0.0), 'length', system)}, less than "
        f"{shown(needed_clear, 'length', system)} ({clause})"
    )


def drawing(section: BeamSection) -> SectionDrawing:
    """The section with its bars, in inches or millimetres, y down from the top face."""
    system = section.system

    def unit(value: float) -> float:
        return round(in_units(value, "length", system), 6)

    bars = _row(section, section.tension, section.d) if section.tension.bar else []
    if section.compression is not None and section.compression.bar is not None:
        bars += _row(section, section.compression, section.compression_depth)
    return SectionDrawing(
        width=unit(section.width),
        height=unit(section.height),
        unit="in" if system == "US" else "mm",
        bars=[SectionBar(x=unit(x), y=unit(y), diameter=unit(d)) for x, y, d in bars],
        stirrup_diameter=unit(section.stirrup_diameter),
        cover=unit(section.cover),
    )


def _row(section: BeamSection, bars: Bars, depth: float) -> list[tuple[float, float, float]]:
    assert bars.bar is not None
    diameter = bars.bar.diameter
    if bars.spacing is not None:
        count = max(1, min(60, int(section.width / bars.spacing)))
        start = (section.width - (count - 1) * bars.spacing) / 2
        return [(start + i * bars.spacing, depth, diameter) for i in range(count)]
    edge = section.cover + section.stirrup_diameter + diameter / 2
    if bars.count == 1:
        return [(section.width / 2, depth, diameter)]
    step = (section.width - 2 * edge) / (bars.count - 1)
    return [(edge + i * step, depth, diameter) for i in range(bars.count)]
