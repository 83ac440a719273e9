"""Building the result every calculation tool returns (`domain.calculations.CalcResult`): values with units,
their numbers, the formula, the substitution, checks.

The model sees a compact JSON of it (`for_model`); the stored record keeps the
whole of it, including full-precision values and diagram data for the faces.
"""

from __future__ import annotations

from typing import Any

from domain.calculations import Amount, CalcResult, Check, Shown, Status
from tools.units.showing import precise, show


def amount(quantity: Any) -> Amount:
    """A pint quantity's number and unit, as the record keeps them beside its text."""
    units = format(quantity.units, "~")
    return Amount(value=float(quantity.magnitude), unit="" if units == "dimensionless" else units)


def quantities(values: dict[str, Any], **options: Any) -> tuple[Shown, Shown, dict[str, Amount | list[Amount]]]:
    """Display strings (4 significant figures), full-precision strings and the numbers of named quantities
    (a list of quantities, such as a continuous beam's reactions, becomes a list of each)."""
    shown: Shown = {}
    full: Shown = {}
    amounts: dict[str, Amount | list[Amount]] = {}
    for key, value in values.items():
        if isinstance(value, list):
            shown[key] = [show(item, **options) for item in value]
            full[key] = [precise(item) for item in value]
            amounts[key] = [amount(item) for item in value]
        else:
            shown[key], full[key], amounts[key] = show(value, **options), precise(value), amount(value)
    return shown, full, amounts


def check(name: str, value: Any, limit: Any, clause: str | None = None, minimum: bool = False) -> Check:
    """A "value ≤ limit" check of two quantities, with the ratio value/limit and the clause applied; with
    `minimum`, a "value ≥ limit" check (such as the least area of steel), whose ratio is limit/value."""
    if minimum:
        share = float((limit / value).to("dimensionless").magnitude) if value.magnitude else float("inf")
    else:
        share = float((value / limit).to("dimensionless").magnitude) if limit.magnitude else float("inf")
    status: Status = "OK" if share <= 1 else "NG"
    allowed = limit.to(value.units)
    return Check(
        name=name,
        value=show(value),
        limit=show(allowed),
        status=status,
        ratio=round(share, 6),
        clause=clause,
        value_amount=amount(value),
        limit_amount=amount(allowed),
        kind="minimum" if minimum else "maximum",
    )


def calc_result(values: dict[str, Any], text: dict[str, str] | None = None, **fields: Any) -> CalcResult:
    """A CalcResult from quantities (and plain-text results such as a verdict)."""
    results, full, amounts = quantities(values)
    results.update(text or {})
    full.update(text or {})
    return CalcResult(results=results, precise=full, amounts=amounts, **fields)
