"""A column's interaction diagram as every face reads it: where the applied load stands against the design curve
(inside or outside, by the ratio along its eccentricity, as the tool measures it), and the curve's key points.

The stored curve runs from pure tension to the compression cap (compression positive, moment positive). The
key points come from the result's own figures where it has them (`design_axial_max`, `balanced_axial` and
`balanced_moment`, `pure_bending`), so each face writes the numbers the results table writes; pure tension is
the curve's first point.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from app.presentation.formatting import pretty_units
from domain.calculations import Amount, CalcResult, InteractionDiagram
from tools.units.showing import significant


@dataclass(frozen=True)
class CurvePoint:
    """A named point of the diagram, with its moment and axial load as numbers and as text."""

    name: str  # "balance"
    moment: float
    axial: float
    moment_text: str  # "250.8 kip·ft"
    axial_text: str  # "270.9 kip"


Pointer = Callable[[str, float, float], CurvePoint]  # name, moment, axial → the point with its texts


@dataclass(frozen=True)
class PresentedInteraction:
    """The design curve, the applied load, where it stands and the curve's key points."""

    curve: InteractionDiagram
    applied: CurvePoint
    inside: bool | None  # None when the load cannot be measured against the curve (a record without a curve)
    ratio: float | None  # the load over the strength at its eccentricity
    standing: str  # "lies inside the design curve (ratio 0.832 at its eccentricity)", said of the applied load
    key_points: tuple[CurvePoint, ...]

    @property
    def moment_unit(self) -> str:
        return unit_text(self.curve.moment_unit)

    @property
    def axial_unit(self) -> str:
        return unit_text(self.curve.axial_unit)


_OPERATOR = re.compile(r"\s*(\*\*|\*|/)\s*")


def unit_text(unit: str) -> str:
    """A stored unit for reading: "kip * ft" or "kN*m" → "kip·ft", "kN·m"."""
    return pretty_units(_OPERATOR.sub(lambda found: f" {found.group(1)} ", unit))


def number_text(value: float) -> str:
    """A figure as the results write it, to four significant figures ("797.7", "-432")."""
    return significant(value)


def presented_interaction(result: CalcResult) -> PresentedInteraction | None:
    """The result's interaction diagram read for showing; None without one."""
    curve = result.interaction
    if curve is None:
        return None
    moment_unit, axial_unit = unit_text(curve.moment_unit), unit_text(curve.axial_unit)

    def point(name: str, moment: float, axial: float) -> CurvePoint:
        return CurvePoint(
            name, moment, axial, f"{number_text(moment)} {moment_unit}", f"{number_text(axial)} {axial_unit}"
        )

    applied = point("applied load", curve.applied_moment, curve.applied_axial)
    ratio = radial_ratio(curve)
    if ratio is None:
        inside, standing = None, "is not measured against the design curve: the record's curve does not surround it"
    else:
        inside = ratio <= 1.0
        where = "inside" if inside else "outside"
        shown = f"{ratio:.3f}" if math.isfinite(ratio) else "∞"
        standing = f"lies {where} the design curve (ratio {shown} at its eccentricity)"
    return PresentedInteraction(curve, applied, inside, ratio, standing, _key_points(result, curve, point))


def curve_problem(curve: InteractionDiagram) -> str:
    """What keeps the curve from being drawn ("its record has fewer than two points"), or "" when nothing does."""
    if len(curve.moment) != len(curve.axial):
        return "its moments and axial loads differ in number"
    if len(curve.moment) < 2:
        return "its record has fewer than two points"
    values = [*curve.moment, *curve.axial, curve.applied_moment, curve.applied_axial]
    return "" if all(map(math.isfinite, values)) else "its record holds values that are not finite numbers"


def radial_ratio(curve: InteractionDiagram) -> float | None:
    """The applied load over the curve's strength along the ray from the origin through it (0 for no load); None
    when the ray meets no segment of the curve (a record with fewer than two points, or values not finite)."""
    if curve_problem(curve):
        return None
    moment, axial = curve.applied_moment, curve.applied_axial
    points = list(zip(curve.moment, curve.axial, strict=True))
    if moment == 0 and axial == 0:
        return 0.0
    from tools.concrete.interaction import ray_reach  # the tool's own geometry, loaded with a column's card

    reaches = [ray_reach((moment, axial), a, b) for a, b in zip(points, points[1:], strict=False)]
    found = [reach for reach in reaches if reach is not None]
    if not found:
        return None
    nearest = min(found)
    return 1 / nearest if nearest > 0 else math.inf


def _key_points(result: CalcResult, curve: InteractionDiagram, point: Pointer) -> tuple[CurvePoint, ...]:
    """Pure tension, pure bending, balance and the compression cap, in that order, those the record has."""
    found = []
    if curve.axial and curve.moment and math.isfinite(curve.axial[0]):
        found.append(point("pure tension", 0.0, curve.axial[0]))
    amounts, moment, axial = result.amounts, curve.moment_unit, curve.axial_unit
    bending = _figure(amounts, "pure_bending", moment)
    if bending is not None:
        found.append(point("pure bending", bending, 0.0))
    balanced = _figure(amounts, "balanced_moment", moment), _figure(amounts, "balanced_axial", axial)
    if balanced[0] is not None and balanced[1] is not None:
        found.append(point("balance", balanced[0], balanced[1]))
    cap = _figure(amounts, "design_axial_max", axial)
    if cap is not None:
        found.append(point("compression cap", 0.0, cap))
    return tuple(found)


def _figure(amounts: dict[str, Amount | list[Amount]], name: str, unit: str) -> float | None:
    """The result's figure `name` in the curve's `unit`, or None when it has none in that unit."""
    found = amounts.get(name)
    if isinstance(found, Amount) and found.unit == unit and math.isfinite(found.value):
        return found.value
    return None
