"""The result every calculation tool returns: values with units, the formula, the substitution, checks.

The model sees a compact JSON of it (`for_model`); the stored record keeps the
whole of it, including full-precision values and diagram data for the faces.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from tools.units import precise, show


class Check(BaseModel):
    """A design check: the value against its limit, the share of the limit it uses, and the clause it applies."""

    name: str
    value: str
    limit: str
    status: Literal["OK", "NG"]
    ratio: float | None = None
    clause: str | None = None


class CalcResult(BaseModel):
    """A calculation an engineer can check by hand and sign."""

    results: dict[str, str | list[str]]
    precise: dict[str, str | list[str]] = Field(default_factory=dict)
    diagram: dict[str, Any] | None = None
    formula: str | None = None
    substituted: str | None = None
    reference: str | None = None
    checks: list[Check] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)  # inputs far outside practice: look before trusting

    def for_model(self) -> dict[str, Any]:
        """What the model is sent: display values, formula, checks; not the diagram or full precision."""
        return self.model_dump(exclude={"precise", "diagram"}, exclude_defaults=True)


Shown = dict[str, str | list[str]]


def quantities(values: dict[str, Any], **options: Any) -> tuple[Shown, Shown]:
    """Display strings (4 significant figures) and full-precision strings for named quantities
    (a list of quantities, such as a continuous beam's reactions, becomes a list of strings)."""
    shown: Shown = {}
    full: Shown = {}
    for key, value in values.items():
        if isinstance(value, list):
            shown[key] = [show(item, **options) for item in value]
            full[key] = [precise(item) for item in value]
        else:
            shown[key], full[key] = show(value, **options), precise(value)
    return shown, full


def check(name: str, value: Any, limit: Any, clause: str | None = None) -> Check:
    """A "value ≤ limit" check of two quantities, with the ratio value/limit and the clause applied."""
    share = float((value / limit).to("dimensionless").magnitude) if limit.magnitude else float("inf")
    status: Literal["OK", "NG"] = "OK" if share <= 1 else "NG"
    return Check(
        name=name,
        value=show(value),
        limit=show(limit.to(value.units)),
        status=status,
        ratio=round(share, 6),
        clause=clause,
    )


def calc_result(values: dict[str, Any], text: dict[str, str] | None = None, **fields: Any) -> CalcResult:
    """A CalcResult from quantities (and plain-text results such as a verdict)."""
    results, full = quantities(values)
    results.update(text or {})
    full.update(text or {})
    return CalcResult(results=results, precise=full, **fields)
