"""The result every calculation tool returns: values with units, the formula, the substitution, checks.

The model sees a compact JSON of it (`for_model`); the stored record keeps the
whole of it, including full-precision values and diagram data for the faces.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from tools.units import precise, show


class Check(BaseModel):
    """A design check: the value against its limit."""

    name: str
    value: str
    limit: str
    status: Literal["OK", "NG"]


class CalcResult(BaseModel):
    """A calculation an engineer can check by hand and sign."""

    results: dict[str, str]
    precise: dict[str, str] = Field(default_factory=dict)
    diagram: dict[str, Any] | None = None
    formula: str | None = None
    substituted: str | None = None
    reference: str | None = None
    checks: list[Check] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    def for_model(self) -> dict[str, Any]:
        """What the model is sent: display values, formula, checks; not the diagram or full precision."""
        return self.model_dump(exclude={"precise", "diagram"}, exclude_defaults=True)


def quantities(values: dict[str, Any], **options: Any) -> tuple[dict[str, str], dict[str, str]]:
    """Display strings (4 significant figures) and full-precision strings for named quantities."""
    return (
        {key: show(value, **options) for key, value in values.items()},
        {key: precise(value) for key, value in values.items()},
    )


def calc_result(values: dict[str, Any], text: dict[str, str] | None = None, **fields: Any) -> CalcResult:
    """A CalcResult from quantities (and plain-text results such as a verdict)."""
    results, full = quantities(values)
    results.update(text or {})
    full.update(text or {})
    return CalcResult(results=results, precise=full, **fields)
