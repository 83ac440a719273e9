"""Figures in SI base units written in the units engineers of each system read, without pint's arithmetic.

The column and beam-column checks write a few dozen forces, moments, stresses and areas
for every call; converting each through pint would take most of a call's time. The text is
the same as `tools.units.showing.show` (4 significant figures, "kip·ft", "in²") and `precise` gives
("927.45… kip", "250.0 kip * ft").
"""

from __future__ import annotations

from typing import Any, Literal

from domain.calculations import Amount, CalcResult, Check, Shown
from tools.units.showing import System, significant

Kind = Literal["force", "moment", "stress", "area", "length"]
# (shown, as pint writes it, the size of one unit in SI base units), by kind and system
UNITS: dict[tuple[Kind, System], tuple[str, str, float]] = {
    ("force", "US"): ("kip", "kip", 4448.2216152605),
    ("force", "SI"): ("kN", "kN", 1000.0),
    ("moment", "US"): ("kip·ft", "kip * ft", 1355.8179483314004),
    ("moment", "SI"): ("kN·m", "kN * m", 1000.0),
    ("stress", "US"): ("ksi", "ksi", 6.894757293168361e6),
    ("stress", "SI"): ("MPa", "MPa", 1e6),
    ("area", "US"): ("in²", "in ** 2", 0.00064516),
    ("area", "SI"): ("mm²", "mm ** 2", 1e-6),
    ("length", "US"): ("ft", "ft", 0.3048),
    ("length", "SI"): ("m", "m", 1.0),
}


def shown(value: float, kind: Kind, system: System) -> str:
    """ "927.5 kip", "3040 kN", "8.429 in²"."""
    label, _, size = UNITS[kind, system]
    return f"{significant(value / size)} {label}"


def amount(value: float, kind: Kind, system: System) -> Amount:
    """The number and unit the record keeps beside the text: 927.45… and "kip"."""
    _, pint_text, size = UNITS[kind, system]
    return Amount(value=value / size, unit=pint_text)


def exact(value: float, kind: Kind, system: System) -> str:
    """The full-precision text of the stored record: "927.4523… kip"."""
    _, pint_text, size = UNITS[kind, system]
    return f"{value / size!r} {pint_text}"


def limit_check(name: str, demand: float, capacity: float, kind: Kind, system: System, clause: str) -> Check:
    """ "demand ≤ capacity" as `tools.calc.check` writes it, from figures in SI base units."""
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
        kind="maximum",
    )


def share_check(name: str, value: float, clause: str) -> Check:
    """A dimensionless interaction value against 1.0."""
    return Check(
        name=name,
        value=significant(value),
        limit="1",
        status="OK" if value <= 1 else "NG",
        ratio=round(value, 6),
        clause=clause,
        value_amount=Amount(value=value),
        limit_amount=Amount(value=1.0),
        kind="maximum",
    )


def figures_result(
    figures: dict[str, tuple[float, Kind]], text: dict[str, str], system: System, **fields: Any
) -> CalcResult:
    """A `CalcResult` of figures in SI base units (shown and exact) and plain-text results, as `calc_result` makes."""
    results: Shown = {key: shown(value, kind, system) for key, (value, kind) in figures.items()}
    full: Shown = {key: exact(value, kind, system) for key, (value, kind) in figures.items()}
    amounts = {key: amount(value, kind, system) for key, (value, kind) in figures.items()}
    results.update(text)
    full.update(text)
    return CalcResult(results=results, precise=full, amounts=dict(amounts), **fields)
