"""What a calculation tool cannot read exactly is refused with one sentence naming the input and what it accepts;
an input it can read but that lies far outside practice is answered with a warning beside the result."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_engineering import calculate
from tools import ToolContext, run_tool


def test_inputs_far_outside_practice_carry_a_warning() -> None:
    long = calculate("beam_analysis", span="500 m", load="12 kN/m")
    assert any("500 m is longer than any single beam span" in warning for warning in long.warnings)
    assert not calculate("beam_analysis", span="6 m", load="12 kN/m").warnings
    column = {"length": "3 m", "elastic_modulus": "200 GPa", "moment_of_inertia": "2770 cm**4"}
    slip = calculate("column_buckling", **column, effective_length_factor=0.01)
    assert any("K = 0.01 is below 0.5" in warning for warning in slip.warnings)
    assert not calculate("column_buckling", **column, effective_length_factor=0.7).warnings
    spans = calculate("continuous_beam", spans=["6 m", "600 m"], load="10 kN/m")
    assert len(spans.warnings) == 1 and "600 m" in spans.warnings[0]


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        ("beam_analysis", {"span": "12 kN", "load": "5 kN/m"}, "span must be a length; got 12 kN"),
        ("beam_analysis", {"span": "6 m", "load": "12 kN"}, "load must be a force per length; got 12 kN"),
        ("beam_analysis", {"span": "6 m", "load": "12 kN/m", "load_type": "point_center"}, "load must be a force"),
        ("beam_analysis", {"span": "6 m", "load": "10 kN", "load_type": "point_end"}, "goes straight into the support"),
        ("beam_analysis", {"span": "6 m", "load": "1 kN/m", "elastic_modulus": "200 GPa"}, "give both"),
        ("beam_analysis", {"span": "-6 m", "load": "1 kN/m"}, "span must be more than zero"),
        ("beam_analysis", {"span": "1e20 m", "load": "1 kN/m"}, "out of any sensible range"),
        ("beam_analysis", {"span": "", "load": "1 kN/m"}, "span is empty"),
        ("beam_analysis", {"span": "6 furlongz", "load": "1 kN/m"}, "'furlongz' is not a unit"),
        ("convert_units", {"quantity": "12 ft", "to_unit": "kN"}, "cannot convert 12 ft (length) to kN (force)"),
        ("convert_units", {"quantity": "12 ft", "to_unit": "bananas"}, "'bananas' is not a unit"),
        ("evaluate_quantity", {"expression": "3 m + 2 s"}, "adds or compares quantities of different kinds"),
        ("evaluate_quantity", {"expression": "10**10**10 m"}, "too large to evaluate"),
        ("evaluate_quantity", {"expression": "1/0 m"}, "divides by zero"),
        ("evaluate_quantity", {"expression": "1e400 m"}, "too large"),
        ("evaluate_quantity", {"expression": "12 kN/m", "result_unit": "m"}, "cannot be expressed in m"),
        ("concrete_volume", {"shape": "column_round", "height": "3 m"}, "needs diameter, height; missing diameter"),
        (
            "concrete_volume",
            {"shape": "slab", "length": "1 m", "width": "1 m", "height": "1 m", "waste_percent": 500},
            "waste_percent must be between",
        ),
        ("rebar_weight", {"bar_size": "#13", "length": "1 m"}, "ASTM bar sizes are"),
        ("rebar_weight", {"bar_size": "60M", "length": "1 m"}, "CSA bar sizes are"),
        ("rebar_weight", {"bar_size": "big", "length": "1 m"}, "bar_size must be an ASTM size"),
        ("rebar_weight", {"bar_size": "#5", "length": "1 m", "count": 10**300}, "count must be from 1 to"),
        ("check_structural_integrity", {"material": "steel", "load_kg": 1e308, "area_m2": 1e-300}, "sensible range"),
        ("evaluate_quantity", {"expression": "100 kN / 4 m**2", "result_unit": "kN"}, "cannot be expressed in kN"),
        ("evaluate_quantity", {"expression": "10 m, 5 m"}, "comma is not part of a quantity"),
        ("evaluate_quantity", {"expression": "6 m = 20 ft"}, "'=' cannot be part of a quantity"),
        ("beam_analysis", {"span": "(6 m)[2]", "load": "12 kN/m"}, "'[' cannot be part of a quantity"),
        ("beam_analysis", {"span": "6 m # or 20 ft", "load": "12 kN/m"}, "cannot be part of a quantity"),
        ("load_combination", {"dead": "5 m", "live": "3 m"}, "dead must be a force, force per length"),
        ("load_combination", {"dead": "-5 kN", "live": "3 kN"}, "dead cannot be negative"),
        ("check_structural_integrity", {"material": "concrete", "load_kg": 1, "area_m2": 0}, "more than zero"),
        ("check_structural_integrity", {"material": "glass", "load_kg": 1, "area_m2": 1}, "concrete|steel|wood"),
        ("load_combination", {"dead": "10 kN/m", "live": "5 kN"}, "live must be the same kind of load as dead"),
        (
            "column_buckling",
            {"length": "3 m", "elastic_modulus": "200 GPa", "moment_of_inertia": "1e6 mm**3"},
            "moment_of_inertia must be a second moment of area",
        ),
        ("slope", {"rise": "1 m", "run": "0 m"}, "run must be more than zero"),
    ],
)
def test_bad_inputs_are_refused_with_a_sentence(tool: str, arguments: dict[str, Any], message: str) -> None:
    outcome = run_tool(tool, arguments, ToolContext())
    assert outcome.error and message in outcome.output and not outcome.crashed, outcome.output
