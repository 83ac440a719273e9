"""A calculation's result, typed from the tool that makes it to the face that shows it.

The tools build a `CalcResult`; the model is sent `for_model()`; the store keeps
`stored()` as JSON beside the tool call and reads it back into the model; the faces,
the report and the package read its fields. Each quantity keeps its number and unit
(`Amount`) beside the text it is shown as, and each check its ratio, so nothing
downstream reads a number back out of "31.25 mm". Each model's validator is built when it is first used
(`defer_build`): most turns carry no calculation, and a process that reads none never pays for them.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

Status = Literal["OK", "NG"]
Bound = Literal["maximum", "minimum"]  # the limit is the most the value may be (≤), or the least (≥)


class Amount(BaseModel):
    """A quantity as a number in a unit: 31.25 and "mm" (as pint reads it, "kN * m"; "" for a plain number)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    value: float
    unit: str = ""


class Check(BaseModel):
    """A design check: the value against its limit, the share of the limit it uses, and the clause it applies.

    `ratio` is value over limit (over 1: it fails). A record kept before every check carried its ratio gets
    one worked out from its two texts when they are numbers in the same unit (limit over value for a minimum,
    "≥"); that ratio is shown, not written into the record (`stored()` gives the record as it was kept).
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    name: str
    value: str
    limit: str
    status: Status
    ratio: float | None = None
    clause: str | None = None
    value_amount: Amount | None = None
    limit_amount: Amount | None = None
    kind: Bound | None = None  # None in a record kept before checks carried it: "≥" in its name says a minimum

    _ratio_kept: bool = PrivateAttr(default=True)

    @property
    def passed(self) -> bool:
        return self.status == "OK"

    @property
    def bound(self) -> Bound:
        """Whether the limit is a maximum (value ≤ limit) or a minimum (value ≥ limit)."""
        if self.kind is not None:
            return self.kind
        return "minimum" if "≥" in self.name else "maximum"

    @model_validator(mode="after")
    def _ratio_of_an_older_record(self) -> Check:
        if self.ratio is None:
            worked_out = _ratio_of_texts(self.name, self.value, self.limit)
            if worked_out is not None:
                object.__setattr__(self, "ratio", worked_out)  # frozen: set once, while it is made
                self._ratio_kept = False
        return self

    def stored(self) -> dict[str, Any]:
        """The check's fields as they were given (as the store keeps them)."""
        kept = self.model_dump(exclude_unset=True)
        if not self._ratio_kept:
            kept["ratio"] = None
            if "ratio" not in self.model_fields_set:
                del kept["ratio"]
        return kept


_AMOUNT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")


def _ratio_of_texts(name: str, value: str, limit: str) -> float | None:
    """Value over limit from "31.2 mm" and "20 mm" (limit over value for a minimum); None if they do not compare."""
    found, allowed = _AMOUNT.match(value), _AMOUNT.match(limit)
    if found is None or allowed is None or found.group(2) != allowed.group(2):
        return None
    numerator, denominator = float(found.group(1)), float(allowed.group(1))
    if "≥" in name:
        numerator, denominator = denominator, numerator
    return numerator / denominator if denominator else None


class Diagram(BaseModel):
    """A beam's shear and bending moment (sagging positive) at positions along it, in the units named."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    x: list[float]
    shear: list[float]
    moment: list[float]
    x_unit: str
    shear_unit: str
    moment_unit: str


class InteractionDiagram(BaseModel):
    """A column's design axial load–moment interaction curve and the applied point, in the units named.

    `axial` and `moment` are the design curve's points in order from pure tension to the compression cap
    (compression positive, moment positive): φPn and φMn (ACI 318) or NRd and MRd (EN 1992). `applied_axial`
    and `applied_moment` are the load checked against it (the moment as the check took it, with any minimum
    eccentricity)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    axial: list[float]
    moment: list[float]
    axial_unit: str
    moment_unit: str
    applied_axial: float
    applied_moment: float


class SectionBar(BaseModel):
    """One reinforcing bar of a drawn section: its centre from the section's top left corner and its diameter."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    x: float
    y: float
    diameter: float


class SectionDrawing(BaseModel):
    """A rectangular concrete section with its bars, in `unit` (y measured down from the top face), and the
    stirrup or tie's diameter and clear cover where they were given or assumed (0 when there is none)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    width: float
    height: float
    unit: str
    bars: list[SectionBar]
    stirrup_diameter: float = 0.0
    cover: float = 0.0


Shown = dict[str, str | list[str]]


class CalcResult(BaseModel):
    """A calculation an engineer can check by hand and sign."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    results: Shown
    precise: Shown = Field(default_factory=dict)
    amounts: dict[str, Amount | list[Amount]] = Field(default_factory=dict)  # each quantity of `results`
    diagram: Diagram | None = None
    interaction: InteractionDiagram | None = None  # a column's design interaction curve with the applied point
    section: SectionDrawing | None = None  # a concrete section with its bars
    formula: str | None = None
    substituted: str | None = None
    reference: str | None = None
    checks: list[Check] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)  # inputs far outside practice: look before trusting
    # The limit states the tool did not check, each in words an engineer reads ("bearing at the holes: give
    # ply_thickness"), and what the verdict covers when that is not every limit state ("bolt shear and tension
    # only"): a verdict never passes what was not checked.
    not_checked: list[str] = Field(default_factory=list)
    covers: str | None = None

    @property
    def verdict(self) -> Status | None:
        """ "NG" when any check fails, "OK" when every one passes, None without checks (an "OK" covers the checks
        made: `covers` says which when `not_checked` names others)."""
        if not self.checks:
            return None
        return "OK" if all(check.passed for check in self.checks) else "NG"

    def for_model(self) -> dict[str, Any]:
        """What the model is sent: display values, formula, checks; not the numbers, the diagrams or full precision."""
        return self.model_dump(
            exclude={
                "precise": True,
                "diagram": True,
                "interaction": True,
                "section": True,
                "amounts": True,
                "checks": {"__all__": {"value_amount": True, "limit_amount": True}},
            },
            exclude_defaults=True,
        )

    def stored(self) -> dict[str, Any]:
        """The fields the result holds, as the store keeps them: a record kept by an earlier version reads back
        as it was written, so what was signed still matches it."""
        kept = self.model_dump(exclude_unset=True, exclude={"checks"})
        if "checks" in self.model_fields_set:
            kept["checks"] = [check.stored() for check in self.checks]
        return kept
