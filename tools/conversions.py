"""Unit conversion, unit-aware arithmetic and slopes."""

from __future__ import annotations

import math

from domain.calculations import CalcResult
from tools.calc import calc_result
from tools.catalogue import tool
from tools.units import registry
from tools.units.reading import dimension_name, parse_quantity, parse_unit, require
from tools.units.showing import conventional, show, system_of


@tool("calculation", words=("convert", "conversion", "units", "unit", "into"))
def convert_units(quantity: str, to_unit: str) -> CalcResult:
    """Convert a quantity to other units, such as "12 ft" to "m" or "3000 psi" to "MPa".

    Args:
        quantity: The value with its unit, such as "12 ft", "20'-6\\"" or "3000 psi".
        to_unit: The unit wanted, such as "m", "MPa" or "kN*m".
    """
    value = parse_quantity(quantity, "quantity")
    target = parse_unit(to_unit, "to_unit")
    if not value.is_compatible_with(target):
        unit = registry().Quantity(1, target)
        raise ValueError(
            f"cannot convert {quantity.strip()} ({dimension_name(value)}) to {to_unit.strip()} ({dimension_name(unit)})"
        )
    result = value.to(target)
    return calc_result({"result": result}, substituted=f"{quantity.strip()} = {show(result)}")


@tool("calculation", always_offered=True)
def evaluate_quantity(expression: str, result_unit: str | None = None) -> CalcResult:
    """Unit-aware arithmetic, such as "12 kN/m * (6 m)**2 / 8"; the result comes in conventional units.

    Args:
        expression: Numbers with units joined by + - * / ** and parentheses, such as "12 kN/m * (6 m)**2 / 8".
        result_unit: The unit wanted for the result, such as "kN*m"; by default the usual unit for the inputs.
    """
    value = parse_quantity(expression, "expression")
    if result_unit:
        target = parse_unit(result_unit, "result_unit")
        if not value.is_compatible_with(target):
            raise ValueError(f"the result is {dimension_name(value)} and cannot be expressed in {result_unit.strip()}")
        result = value.to(target)
    else:
        result = conventional(value, system_of(value))
    return calc_result(
        {"result": result}, formula=expression.strip(), substituted=f"{expression.strip()} = {show(result)}"
    )


@tool("calculation")
def slope(rise: str, run: str) -> CalcResult:
    """Grade (percent), angle (degrees) and ratio of a slope, such as a ramp or a roof pitch.

    Args:
        rise: The vertical rise with unit, such as "1 ft" or "250 mm".
        run: The horizontal run with unit, such as "12 ft" or "4 m".
    """
    vertical = require(rise, "rise", "length", positive=False)
    horizontal = require(run, "run", "length")
    if vertical.magnitude < 0:
        raise ValueError(f"rise cannot be negative; got {rise.strip()}")
    fraction = float((vertical / horizontal).to("dimensionless").magnitude)
    angle = math.degrees(math.atan(fraction)) * registry().degree
    ratio = f"1:{show(registry().Quantity(1 / fraction))}" if fraction else "0:1 (level)"
    return calc_result(
        {"grade_percent": registry().Quantity(fraction * 100), "angle": angle},
        text={"ratio": ratio},
        formula="grade = rise/run × 100 %; θ = atan(rise/run); ratio = 1 : run/rise",
        substituted=f"grade = {show(vertical)} / {show(horizontal)} × 100 = {fraction * 100:.4g} %",
    )
