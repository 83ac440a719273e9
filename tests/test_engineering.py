"""Reference cases with textbook answers for every calculation tool (their refusals: `test_calculation_refusals.py`).

Each case names the formula it checks. Displayed results (4 significant figures)
must parse back with units and agree with the expected value within 0.1 %; the
full-precision values within 0.01 % (the expected values have 5 significant figures).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from domain.calculations import Amount, CalcResult
from tools import ToolContext, run_tool
from tools.units.reading import parse_quantity

DISPLAY_TOLERANCE = 1e-3


def calculate(name: str, **arguments: Any) -> CalcResult:
    outcome = run_tool(name, arguments, ToolContext())
    assert outcome.error is None, outcome.output
    assert outcome.calculation is not None
    return outcome.calculation


def close(shown: str | list[str], expected: str, tolerance: float = DISPLAY_TOLERANCE) -> bool:
    assert isinstance(shown, str), f"{shown} is a list, not one quantity"
    value, target = parse_quantity(shown), parse_quantity(expected)
    assert value.is_compatible_with(target), f"{shown} is not comparable with {expected}"
    converted = value.to(target.units).magnitude
    return math.isclose(converted, target.magnitude, rel_tol=tolerance, abs_tol=1e-9)


# (tool, arguments, {result key: expected}, formula it checks)
REFERENCE_CASES: list[tuple[str, dict[str, Any], dict[str, str], str]] = [
    (
        "beam_analysis",
        {"span": "6 m", "load": "12 kN/m", "elastic_modulus": "200 GPa", "moment_of_inertia": "8.5e7 mm**4"},
        {"reaction_left": "36 kN", "max_shear": "36 kN", "max_moment": "54 kN*m", "max_deflection": "11.912 mm"},
        "simple span, UDL: R = wL/2, M = wL²/8, δ = 5wL⁴/(384EI)",
    ),
    (
        "beam_analysis",
        {
            "span": "8 m",
            "load": "50 kN",
            "load_type": "point_center",
            "elastic_modulus": "200 GPa",
            "moment_of_inertia": "1.2e8 mm**4",
        },
        {"reaction_right": "25 kN", "max_moment": "100 kN*m", "max_deflection": "22.222 mm"},
        "simple span, central point load: R = P/2, M = PL/4, δ = PL³/(48EI)",
    ),
    (
        "beam_analysis",
        {
            "span": "3 m",
            "load": "5 kN/m",
            "support": "cantilever",
            "elastic_modulus": "200 GPa",
            "moment_of_inertia": "4e7 mm**4",
        },
        {"reaction_left": "15 kN", "reaction_right": "0 kN", "max_moment": "22.5 kN*m", "max_deflection": "6.328 mm"},
        "cantilever, UDL: R = wL, M = wL²/2, δ = wL⁴/(8EI)",
    ),
    (
        "beam_analysis",
        {
            "span": "10 ft",
            "load": "2 kip",
            "support": "cantilever",
            "load_type": "point_end",
            "elastic_modulus": "29000 ksi",
            "moment_of_inertia": "100 in**4",
        },
        {"reaction_left": "2 kip", "max_moment": "20 kip*ft", "max_deflection": "0.39724 in"},
        "cantilever, point load at free end: R = P, M = PL, δ = PL³/(3EI)",
    ),
    (
        "beam_analysis",
        {
            "span": "6 m",
            "load": "12 kN/m",
            "support": "fixed_fixed",
            "elastic_modulus": "200 GPa",
            "moment_of_inertia": "8.5e7 mm**4",
        },
        {"max_moment": "36 kN*m", "max_deflection": "2.3824 mm"},
        "fixed-fixed, UDL: M = wL²/12, δ = wL⁴/(384EI)",
    ),
    (
        "beam_analysis",
        {"span": "20 ft", "load": "1.5 klf"},
        {"reaction_left": "15 kip", "max_moment": "75 kip*ft"},
        "US customary simple span: M = wL²/8",
    ),
    (
        "column_buckling",
        {"length": "3.5 m", "elastic_modulus": "200 GPa", "moment_of_inertia": "2.2e7 mm**4"},
        {"critical_load": "3544.9 kN"},
        "Euler: Pcr = π²EI/L² (K = 1)",
    ),
    (
        "column_buckling",
        {
            "length": "3.5 m",
            "elastic_modulus": "200 GPa",
            "moment_of_inertia": "2.2e7 mm**4",
            "effective_length_factor": 0.5,
        },
        {"critical_load": "14179.7 kN", "effective_length": "1.75 m"},
        "Euler with K = 0.5: Pcr = π²EI/(KL)²",
    ),
    (
        "column_buckling",
        {"length": "12 ft", "elastic_modulus": "29000 ksi", "moment_of_inertia": "50 in**4"},
        {"critical_load": "690.2 kip"},
        "Euler, US customary",
    ),
    (
        "concrete_volume",
        {"shape": "slab", "length": "10 m", "width": "5 m", "height": "200 mm", "waste_percent": 5},
        {"volume": "10.5 m**3", "net_volume": "10 m**3"},
        "slab: V = L·W·t × (1 + waste)",
    ),
    (
        "concrete_volume",
        {"shape": "footing", "length": "2 m", "width": "2 m", "height": "0.6 m", "count": 4},
        {"volume": "9.6 m**3"},
        "footings: V = n·L·W·H",
    ),
    (
        "concrete_volume",
        {"shape": "wall", "length": "10 m", "width": "250 mm", "height": "3 m"},
        {"volume": "7.5 m**3"},
        "wall: V = L·t·H",
    ),
    (
        "concrete_volume",
        {"shape": "column_round", "diameter": "450 mm", "height": "3.6 m"},
        {"volume": "0.57256 m**3"},
        "round column: V = πd²/4·H",
    ),
    (
        "concrete_volume",
        {"shape": "slab", "length": "30 ft", "width": "20 ft", "height": "6 in"},
        {"volume": "11.111 yd**3"},
        "US slab in cubic yards: 300 ft³ / 27",
    ),
    (
        "rebar_weight",
        {"bar_size": "#5", "length": "20 ft", "count": 10},
        {"unit_weight": "1.043 lb/ft", "total_weight": "208.6 lb"},
        "ASTM A615 #5: 1.043 lb/ft",
    ),
    ("rebar_weight", {"bar_size": "#8", "length": "1 ft"}, {"total_weight": "2.670 lb"}, "ASTM A615 #8: 2.670 lb/ft"),
    (
        "rebar_weight",
        {"bar_size": "15M", "length": "6 m"},
        {"unit_weight": "1.570 kg/m", "total_weight": "9.42 kg"},
        "CSA G30.18 15M: 1.570 kg/m",
    ),
    (
        "rebar_weight",
        {"bar_size": "25M", "length": "12 m", "count": 4},
        {"total_weight": "188.4 kg"},
        "CSA G30.18 25M: 3.925 kg/m",
    ),
    ("rebar_weight", {"bar_size": "16 mm", "length": "1 m"}, {"unit_weight": "1.5783 kg/m"}, "ρπd²/4, ρ = 7850 kg/m³"),
    (
        "check_structural_integrity",
        {"material": "concrete", "load_kg": 50000, "area_m2": 0.5},
        {"stress": "0.981 MPa", "limit": "25 MPa", "safety_factor": "25.48"},
        "σ = m·g/A (the first version's example)",
    ),
    (
        "load_combination",
        {"dead": "10 kN/m", "live": "5 kN/m"},
        {"1.4D": "14 kN/m", "1.2D + 1.6L": "20 kN/m", "governing": "20 kN/m"},
        "ASCE 7-22 §2.3.1 (1) and (2)",
    ),
    (
        "load_combination",
        {"dead": "10 kN/m", "live": "5 kN/m", "snow": "3 kN/m", "wind": "4 kN/m", "code": "ASCE7-16-LRFD"},
        {
            "1.2D + 1.6L + 0.5S": "21.5 kN/m",
            "1.2D + 1.6S + 1.0L": "21.8 kN/m",
            "1.2D + 1.6S + 0.5W": "18.8 kN/m",
            "1.2D + 1.0W + 1.0L + 0.5S": "22.5 kN/m",
            "0.9D + 1.0W": "13 kN/m",
            "governing": "22.5 kN/m",
        },
        "ASCE 7-16 §2.3.1 (2)–(5), live-load factor 1.0 with wind and snow",
    ),
    (
        "load_combination",
        {"dead": "10 kPa", "live": "5 kPa", "snow": "2 kPa", "code": "EN1990"},
        {"1.35G + 1.5Q + 0.75S": "22.5 kPa", "1.35G + 1.5S + 1.05Q": "21.75 kPa", "governing": "22.5 kPa"},
        "EN 1990 eq. 6.10, ψ0 = 0.7 (imposed), 0.5 (snow)",
    ),
    ("slope", {"rise": "1 ft", "run": "4 ft"}, {"grade_percent": "25", "angle": "14.036 deg"}, "grade = rise/run"),
    ("slope", {"rise": "1 m", "run": "12 m"}, {"grade_percent": "8.3333", "angle": "4.7636 deg"}, "1:12 ramp"),
    ("convert_units", {"quantity": "12 ft", "to_unit": "m"}, {"result": "3.6576 m"}, "1 ft = 0.3048 m exactly"),
    ("convert_units", {"quantity": "3000 psi", "to_unit": "MPa"}, {"result": "20.684 MPa"}, "1 psi = 6894.76 Pa"),
    ("convert_units", {"quantity": "1 kip", "to_unit": "kN"}, {"result": "4.4482 kN"}, "1 kip = 4.448 kN"),
    ("convert_units", {"quantity": "54 kN*m", "to_unit": "kip*ft"}, {"result": "39.828 kip*ft"}, "moment SI → US"),
    ("convert_units", {"quantity": "1 cubic yard", "to_unit": "m**3"}, {"result": "0.76455 m**3"}, "1 yd³"),
    ("convert_units", {"quantity": "100 psf", "to_unit": "kPa"}, {"result": "4.7880 kPa"}, "psf to kPa"),
    ("convert_units", {"quantity": "1 klf", "to_unit": "kN/m"}, {"result": "14.594 kN/m"}, "klf to kN/m"),
    ("convert_units", {"quantity": "2 tonne", "to_unit": "kg"}, {"result": "2000 kg"}, "tonne"),
    ("convert_units", {"quantity": "20'-6\"", "to_unit": "m"}, {"result": "6.2484 m"}, "feet-and-inches"),
    ("convert_units", {"quantity": "20 ft 6 in", "to_unit": "mm"}, {"result": "6248.4 mm"}, "feet-and-inches"),
    ("convert_units", {"quantity": "20 degC", "to_unit": "degF"}, {"result": "68 degF"}, "°F = °C × 9/5 + 32"),
    ("evaluate_quantity", {"expression": "12 kN/m * (6 m)**2 / 8"}, {"result": "54 kN*m"}, "wL²/8 by hand"),
    ("evaluate_quantity", {"expression": "0.8 klf * (20 ft)**2 / 8"}, {"result": "40 kip*ft"}, "US customary"),
    ("evaluate_quantity", {"expression": "100 kN / 4 m**2"}, {"result": "25 kPa"}, "a number binds to its units"),
    ("evaluate_quantity", {"expression": "20 m * 30 m"}, {"result": "600 m**2"}, "floor areas in m²"),
    (
        "load_combination",
        {"dead": "50 psf", "live": "40 psf", "snow": "30 psf", "code": "ASCE7-16-LRFD"},
        {"governing": "148 psf", "1.2D + 1.6S + 1.0L": "148 psf"},
        "ASCE 7-16 §2.3.1 (3), psf stay psf",
    ),
    (
        "load_combination",
        {"dead": "50 psf", "live": "40 psf", "snow": "30 psf"},
        {"governing": "133 psf", "1.2D + 1.0S + 1.0L": "130 psf", "1.2D + 1.6L + 0.3S": "133 psf"},
        "ASCE 7-22 §2.3.1: strength-level snow, 1.0S leading, 0.3S companion",
    ),
    (
        "convert_units",
        {"quantity": "150 pcf", "to_unit": "kN/m**3"},
        {"result": "23.563 kN/m**3"},
        "pcf is a unit weight (lbf/ft³)",
    ),
]


@pytest.mark.parametrize(
    ("tool", "arguments", "expected", "formula"),
    REFERENCE_CASES,
    ids=[f"{case[0]}:{case[3]}" for case in REFERENCE_CASES],
)
def test_reference_case(tool: str, arguments: dict[str, Any], expected: dict[str, str], formula: str) -> None:
    data = calculate(tool, **arguments)
    for key, value in expected.items():
        assert close(data.results[key], value), f"{key}: {data.results[key]} != {value} ({formula})"
        assert close(data.precise[key], value, tolerance=DISPLAY_TOLERANCE / 10)
    assert data.formula or data.substituted


def test_every_displayed_value_parses_back_with_its_units() -> None:
    plain_text = {"ratio", "verdict", "governing_combination", "least_combination", "solutions", "decimals", "edition"}
    for tool, arguments, _, _ in REFERENCE_CASES:
        data = calculate(tool, **arguments)
        for key, shown in data.results.items():
            if key not in plain_text:
                full = data.precise[key]
                assert isinstance(shown, str) and isinstance(full, str), (tool, key)
                assert math.isclose(
                    parse_quantity(shown).magnitude, parse_quantity(full).magnitude, rel_tol=1e-3, abs_tol=1e-9
                ), (tool, key)


def test_every_quantity_keeps_its_number_and_unit_beside_its_text() -> None:
    plain_text = {"ratio", "verdict", "safety_factor", "governing_combination", "least_combination", "edition"}
    for tool, arguments, _, _ in REFERENCE_CASES:
        data = calculate(tool, **arguments)
        assert set(data.amounts) == set(data.results) - plain_text, tool
        for key, amount in data.amounts.items():
            assert isinstance(amount, Amount)
            full = parse_quantity(str(data.precise[key]))
            assert amount.value == full.magnitude and parse_quantity(f"1 {amount.unit}").units == full.units, key
        for check in data.checks:
            assert check.value_amount is not None and check.limit_amount is not None, (tool, check.name)
            assert check.ratio == pytest.approx(check.value_amount.value / check.limit_amount.value, rel=1e-5)


def test_results_come_in_the_conventional_units_of_the_inputs() -> None:
    si = calculate(
        "beam_analysis", span="6 m", load="12 kN/m", elastic_modulus="200 GPa", moment_of_inertia="8.5e7 mm**4"
    )
    assert si.results["max_moment"].endswith("kN·m") and si.results["max_deflection"].endswith(" mm")
    us = calculate(
        "beam_analysis", span="20 ft", load="1.5 klf", elastic_modulus="29000 ksi", moment_of_inertia="300 in**4"
    )
    assert us.results["max_moment"].endswith("kip·ft") and us.results["max_deflection"].endswith(" in")
    mixed = calculate("beam_analysis", span="20 ft", load="20 kN/m")
    assert mixed.results["max_moment"].endswith("kN·m"), "mixed inputs come out in SI"
    assert (
        calculate("evaluate_quantity", expression="12 kN/m * (6 m)**2 / 8", result_unit="kip*ft")
        .results["result"]
        .endswith("kip·ft")
    )


def test_beam_formula_substitution_reference_and_checks() -> None:
    data = calculate(
        "beam_analysis", span="6 m", load="12 kN/m", elastic_modulus="200 GPa", moment_of_inertia="8.5e7 mm**4"
    )
    assert data.formula.startswith("M = wL²/8") and data.substituted == "M = wL²/8 = 12 kN/m × (6 m)² / 8 = 54 kN·m"
    assert data.reference is not None and "AISC" in data.reference
    (check,) = data.checks
    assert check.name == "deflection ≤ L/360" and check.status == "OK" and close(check.limit, "16.667 mm")


def test_beam_diagram_along_the_span() -> None:
    data = calculate("beam_analysis", span="6 m", load="12 kN/m")
    diagram = data.diagram
    assert len(diagram.x) == 51 and diagram.x[0] == 0 and diagram.x[-1] == 6
    assert diagram.shear[0] == 36 and diagram.shear[-1] == -36
    assert max(diagram.moment) == 54 and diagram.moment[0] == 0
    cantilever = calculate("beam_analysis", span="3 m", load="5 kN/m", support="cantilever").diagram
    assert cantilever.moment[0] == -22.5 and cantilever.moment[-1] == 0


def test_the_model_sees_a_compact_result_without_diagram_or_full_precision() -> None:
    outcome = run_tool("beam_analysis", {"span": "6 m", "load": "12 kN/m"}, ToolContext())
    assert '"max_moment":"54 kN·m"' in outcome.output
    assert "diagram" not in outcome.output and "precise" not in outcome.output and len(outcome.output) < 1200


def test_structural_integrity_unsafe_case() -> None:
    data = calculate("check_structural_integrity", material="steel", load_kg=1_000_000, area_m2=0.01)
    assert data.results["verdict"] == "UNSAFE" and close(data.results["stress"], "981 MPa")
    assert data.checks[0].status == "NG"


def test_asce_exception_is_noted_and_snow_and_wind_drop_out_when_absent() -> None:
    data = calculate("load_combination", dead="80 psf", live="40 psf")
    assert set(data.results) == {
        "governing",
        "least",
        "1.4D",
        "1.2D + 1.6L",
        "governing_combination",
        "least_combination",
        "edition",
    }
    assert data.results["governing"] == "160 psf", "area loads stay in the unit they were given in"
    assert any("0.5" in note for note in data.notes) and data.reference == "ASCE 7-22 §2.3.1"


def test_point_load_shear_diagram_shows_the_jump() -> None:
    diagram = calculate("beam_analysis", span="8 m", load="50 kN", load_type="point_center").diagram
    middle = diagram.x.index(4.0)
    assert diagram.x[middle + 1] == 4.0 and diagram.shear[middle : middle + 2] == [25, -25]


def test_wind_uplift_is_reported_as_the_least_combination() -> None:
    data = calculate("load_combination", dead="10 kN/m", live="5 kN/m", wind="-20 kN/m")
    assert data.results["least_combination"] == "0.9D + 1.0W" and close(data.results["least"], "-11 kN/m")


def test_en1990_leaves_favourable_variable_actions_out_and_takes_gamma_g_inf_for_uplift() -> None:
    """Steel Buildings in Europe, Multi-Storey Steel Buildings, Part 4: Detailed Design, Appendix A, example A.2:
    G = 2.45, S = 3.60, W = -3.00 kN/m (wind uplift). ULS governing 1.35G + 1.5S = 8.71 kN/m (wind favourable,
    γQ = 0); uplift 1.0G + 1.5W = -2.05 kN/m (EN 1990 Table A1.2(B): γG,inf = 1.0, snow favourable)."""
    loads = {"dead": "2.45 kN/m", "live": "0 kN/m", "snow": "3.60 kN/m", "wind": "-3.00 kN/m"}
    data = calculate("load_combination", **loads, code="EN1990")
    results = data.results
    assert results["governing_combination"] == "1.35G + 1.5S" and close(results["governing"], "8.7075 kN/m")
    assert results["least_combination"] == "1.0G + 1.5W" and close(results["least"], "-2.05 kN/m")
    assert not any("W" in name for name in results if name.startswith("1.35G")), "uplift is never added to gravity"


def test_asce7_takes_wind_uplift_only_with_0_9d_and_gravity_without_it() -> None:
    """The same loads to ASCE 7-16 §2.3.1: combination 3, 1.2D + 1.6S (+ L, here 0) = 8.70 kN/m, governs; the
    uplift case is combination 5, 0.9D + 1.0W = 0.9 × 2.45 − 3.00 = -0.795 kN/m."""
    data = calculate(
        "load_combination", dead="2.45 kN/m", live="0 kN/m", snow="3.60 kN/m", wind="-3.00 kN/m", code="ASCE7-16-LRFD"
    )
    results = data.results
    assert results["governing_combination"] == "1.2D + 1.6S + 1.0L" and close(results["governing"], "8.70 kN/m")
    assert results["least_combination"] == "0.9D + 1.0W" and close(results["least"], "-0.795 kN/m")


def test_slope_ratio() -> None:
    assert calculate("slope", rise="1 ft", run="4 ft").results["ratio"] == "1:4"
    assert calculate("slope", rise="0 m", run="4 m").results["ratio"] == "0:1 (level)"
