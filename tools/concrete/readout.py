"""Figures in SI base units written in the units engineers of each system read, without pint's arithmetic (as
`tools.steel.readout` does for the steel checks): forces in kip or kN, moments in kip·ft or kN·m, steel stresses in
ksi or MPa, concrete stresses in psi or MPa, areas in in² or mm², section dimensions in in or mm.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from domain.calculations import Amount, CalcResult, Check, Shown
from tools.units.showing import System, significant

Kind = Literal["force", "moment", "stress", "concrete_stress", "area", "length"]
# (shown, as pint writes it, the size of one unit in SI base units), by kind and system
UNITS: dict[tuple[Kind, System], tuple[str, str, float]] = {
    ("force", "US"): ("kip", "kip", 4448.2216152605),
    ("force", "SI"): ("kN", "kN", 1000.0),
    ("moment", "US"): ("kip·ft", "kip * ft", 1355.8179483314004),
    ("moment", "SI"): ("kN·m", "kN * m", 1000.0),
    ("stress", "US"): ("ksi", "ksi", 6.894757293168361e6),
    ("stress", "SI"): ("MPa", "MPa", 1e6),
    ("concrete_stress", "US"): ("psi", "psi", 6894.757293168361),
    ("concrete_stress", "SI"): ("MPa", "MPa", 1e6),
    ("area", "US"): ("in²", "in ** 2", 0.00064516),
    ("area", "SI"): ("mm²", "mm ** 2", 1e-6),
    ("length", "US"): ("in", "in", 0.0254),
    ("length", "SI"): ("mm", "mm", 0.001),
}


def shown(value: float, kind: Kind, system: System) -> str:
    """ "250.4 kip·ft", "1473 mm²"."""
    label, _, size = UNITS[kind, system]
    return f"{significant(value / size)} {label}"


def in_units(value: float, kind: Kind, system: System) -> float:
    """The figure as a number in the system's unit of its kind (for diagrams)."""
    return value / UNITS[kind, system][2]


def unit_of(kind: Kind, system: System) -> str:
    """The unit as pint writes it: "kip * ft", "mm"."""
    return UNITS[kind, system][1]


def amount(value: float, kind: Kind, system: System) -> Amount:
    _, pint_text, size = UNITS[kind, system]
    return Amount(value=value / size, unit=pint_text)


def exact(value: float, kind: Kind, system: System) -> str:
    _, pint_text, size = UNITS[kind, system]
    return f"{value / size!r} {pint_text}"


def limit_check(
    name: str, demand: float, capacity: float, kind: Kind, system: System, clause: str, minimum: bool = False
) -> Check:
    """ "demand ≤ capacity" (or "≥" with `minimum`) as `tools.calc.check` writes it, from figures in SI base units."""
    if minimum:
        share = capacity / demand if demand else float("inf")
    else:
        share = demand / capacity if capacity else float("inf")
    return Check(
        name=name,
        value=shown(demand, kind, system),
        limit=shown(capacity, kind, system),
        status="OK" if share <= 1 else "NG",
        ratio=round(share, 6),
        clause=clause,
        value_amount=amount(demand, kind, system),
        limit_amount=amount(capacity, kind, system),
        kind="minimum" if minimum else "maximum",
    )


def number_check(name: str, value: float, limit: float, clause: str, minimum: bool = False) -> Check:
    """A check of two plain numbers (a strain, a ratio)."""
    share = (limit / value if value else float("inf")) if minimum else (value / limit if limit else float("inf"))
    return Check(
        name=name,
        value=significant(value),
        limit=significant(limit),
        status="OK" if share <= 1 else "NG",
        ratio=round(share, 6),
        clause=clause,
        value_amount=Amount(value=value),
        limit_amount=Amount(value=limit),
        kind="minimum" if minimum else "maximum",
    )


@dataclass
class Findings:
    """What a code check found: figures in SI base units by result key, plain-text results and the record's fields."""

    figures: dict[str, tuple[float, Kind]] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)
    formula: str = ""
    substituted: list[str] = field(default_factory=list)
    reference: str = ""
    covers: str | None = None


def result(findings: Findings, system: System, **fields: Any) -> CalcResult:
    """The `CalcResult` of `findings`, with `ratio` (the largest) and `verdict` from its checks when it has any."""
    text = dict(findings.text)
    if findings.checks:
        ratio = max(check.ratio or 0.0 for check in findings.checks)
        text = {"ratio": f"{ratio:.3f}", **text, "verdict": "OK" if all(c.passed for c in findings.checks) else "NG"}
    results: Shown = {key: shown(value, kind, system) for key, (value, kind) in findings.figures.items()}
    full: Shown = {key: exact(value, kind, system) for key, (value, kind) in findings.figures.items()}
    amounts = {key: amount(value, kind, system) for key, (value, kind) in findings.figures.items()}
    results.update(text)
    full.update(text)
    return CalcResult(
        results=results,
        precise=full,
        amounts=dict(amounts),
        formula=findings.formula,
        substituted="; ".join(findings.substituted),
        reference=findings.reference,
        checks=findings.checks,
        notes=findings.notes,
        warnings=findings.warnings,
        not_checked=findings.not_checked,
        covers=findings.covers,
        **fields,
    )
