"""A calculation as every face and document presents it: the one place its numbers become text.

`present(result)` turns a `CalcResult` into a `PresentedCalculation`: units written as engineers read them
(`kN·m`, `m³`), each check with its relation to its limit, one precision of ratio, the governing check first and
marked, the verdict with what it covers and the limit states not checked, full-precision values without floating-point
artefacts. The terminal's lines, the web card, the Markdown report and the package's sheet only lay it out, so they say
the same thing in the same figures. The drawings go with it: a beam's diagram, a column's interaction diagram with where
the applied load stands (`app.presentation.interaction`), a concrete section with its bars.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from app.presentation.formatting import pretty_units
from app.presentation.interaction import PresentedInteraction, presented_interaction
from domain.calculations import Bound, CalcResult, Check, Diagram, SectionDrawing, Status

RATIO_DECIMALS = 3
PRECISE_FIGURES = 12  # a float's repr gives 17; past 12, what differs is the arithmetic's noise ("1.7400000000000004")

_LEADING_NUMBER = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(.*)$", re.S)


@dataclass(frozen=True)
class PresentedResult:
    name: str
    value: str  # "195.7 kip·ft"
    precise: str  # "195.75 kip·ft"


@dataclass(frozen=True)
class PresentedCheck:
    name: str
    value: str
    limit: str
    relation: str  # how the value stands to its limit: "≤" or "≥" when it passes, ">" or "<" when it fails
    ratio: str  # "0.703", or "" when the check has none
    ratio_value: float | None
    status: Status
    clause: str
    bound: Bound
    governs: bool  # the check with the highest ratio (failed ones first), when there are several

    @property
    def passed(self) -> bool:
        return self.status == "OK"


@dataclass(frozen=True)
class PresentedCalculation:
    warnings: tuple[str, ...]
    formula: str
    substituted: str
    results: tuple[PresentedResult, ...]
    checks: tuple[PresentedCheck, ...]  # the governing check first
    verdict: Status | None
    verdict_line: str  # "OK for bolt shear and tension only", "NG: 1 of 3 checks fails (worst ratio 1.212)", or ""
    not_checked: tuple[str, ...]
    reference: str
    notes: tuple[str, ...]
    diagram: Diagram | None  # a beam's shear and moment along it
    interaction: PresentedInteraction | None  # a column's design curve, the applied load and where it stands
    section: SectionDrawing | None  # a concrete section with its bars


# Results a tool also writes as text for the model, which the verdict line and the list of what was not checked say
SAID_ELSEWHERE = {"not_checked", "covers"}


def present(result: CalcResult) -> PresentedCalculation:
    """The calculation as the faces and the documents show it."""
    checks = _presented_checks(result.checks)
    said = SAID_ELSEWHERE if checks else set()
    return PresentedCalculation(
        warnings=tuple(result.warnings),
        formula=result.formula or "",
        substituted=pretty_units(result.substituted or ""),
        results=tuple(
            PresentedResult(name, shown_value(value), precise_value(result.precise.get(name, value)))
            for name, value in result.results.items()
            if name not in said
        ),
        checks=checks,
        verdict=result.verdict,
        verdict_line=_verdict_line(result, checks),
        not_checked=tuple(result.not_checked),
        reference=result.reference or "",
        notes=tuple(result.notes),
        diagram=result.diagram,
        interaction=presented_interaction(result),
        section=result.section,
    )


def shown_value(value: str | list[str]) -> str:
    """One result for reading: a quantity, or a list of them (a continuous beam's reactions) joined in order."""
    return ", ".join(map(pretty_units, value)) if isinstance(value, list) else pretty_units(value)


def precise_value(value: str | list[str]) -> str:
    """A stored full-precision value for reading: "1.7400000000000004 kip / ft" → "1.74 kip/ft"."""
    if isinstance(value, list):
        return ", ".join(precise_value(item) for item in value)
    found = _LEADING_NUMBER.match(value)
    if found is None:
        return pretty_units(value)
    return pretty_units(_without_noise(float(found.group(1))) + found.group(2))


def ratio_text(ratio: float | None) -> str:
    """A check's ratio as every face writes it: three decimals ("0.703"), "" without one."""
    if ratio is None:
        return ""
    return f"{ratio:.{RATIO_DECIMALS}f}" if math.isfinite(ratio) else "∞"


def _without_noise(number: float) -> str:
    if not math.isfinite(number) or number == 0:
        return repr(number) if number else "0"
    text = f"{number:.{PRECISE_FIGURES}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}e{int(exponent)}"
    return text


def _presented_checks(checks: list[Check]) -> tuple[PresentedCheck, ...]:
    ordered = sorted(checks, key=lambda check: (check.passed, -(check.ratio or 0.0)))
    return tuple(_presented(check, governs=len(ordered) > 1 and index == 0) for index, check in enumerate(ordered))


def _presented(check: Check, governs: bool) -> PresentedCheck:
    bound = check.bound
    relation = ("≥" if bound == "minimum" else "≤") if check.passed else ("<" if bound == "minimum" else ">")
    return PresentedCheck(
        name=check.name,
        value=pretty_units(check.value),
        limit=pretty_units(check.limit),
        relation=relation,
        ratio=ratio_text(check.ratio),
        ratio_value=check.ratio,
        status=check.status,
        clause=check.clause or "",
        bound=bound,
        governs=governs,
    )


def _verdict_line(result: CalcResult, checks: tuple[PresentedCheck, ...]) -> str:
    if not checks:
        return ""
    covers = result.covers or ("the checks made" if result.not_checked else "")
    scope = f" for {covers}" if covers else ""
    if result.verdict == "OK":
        return f"OK{scope}"
    failed = [check for check in checks if not check.passed]
    worst = f" (worst ratio {failed[0].ratio})" if failed[0].ratio else ""
    fail = "fails" if len(failed) == 1 else "fail"
    return f"NG{scope}: {len(failed)} of {len(checks)} check{'s' * (len(checks) != 1)} {fail}{worst}"
