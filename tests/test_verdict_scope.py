"""Every calculation tool says what its result does not check and what its verdict covers (`not_checked`,
`covers`), so that no face shows a bare "OK" over a limit state the tool does not model. One call per tool; a new
calculation tool that makes checks must join the list."""

from __future__ import annotations

from typing import Any

import pytest

from app.presentation.calculation import present
from tools import ToolContext, run_tool, tool_specs

CALLS: dict[str, dict[str, Any]] = {
    "beam_analysis": {"span": "6 m", "load": "12 kN/m", "elastic_modulus": "200 GPa", "moment_of_inertia": "8e7 mm**4"},
    "column_buckling": {"length": "3.5 m", "elastic_modulus": "200 GPa", "moment_of_inertia": "2.2e7 mm**4"},
    "check_structural_integrity": {"material": "steel", "load_kg": 1000, "area_m2": 0.01},
    "steel_beam_check": {"designation": "W18X50", "span": "35 ft", "dead_load": "0.45 kip/ft",
                         "live_load": "0.75 kip/ft"},
    "steel_column_check": {"designation": "W14X90", "length": "30 ft", "dead_load": "140 kip", "live_load": "100 kip"},
    "steel_beam_column_check": {"designation": "W14X99", "length": "14 ft", "axial_load": "400 kip",
                                "moment_major": "250 kip*ft"},
    "fillet_weld_check": {"size": "5/16 in", "length": "10 in", "dead_load": "10 kip", "live_load": "10 kip"},
    "bolt_check": {"diameter": "3/4 in", "grade": "A325", "bolts": 4, "shear_dead": "10 kip", "shear_live": "10 kip"},
    "continuous_beam": {"spans": ["6 m", "6 m"], "load": "10 kN/m"},
    "concrete_beam_check": {"width": "12 in", "height": "24 in", "tension_bars": "4 #8", "concrete": "4000 psi",
                            "steel": "Grade 60", "moment": "200 kip*ft"},
    "concrete_column_check": {"width": "16 in", "height": "16 in", "bars": "8 #9", "concrete": "5000 psi",
                              "steel": "Grade 60", "axial_load": "500 kip", "moment": "100 kip*ft"},
    "punching_shear_check": {"slab_thickness": "10 in", "column": "16 in", "concrete": "4000 psi",
                             "shear": "100 kip"},
    "development_length": {"bar": "#8", "concrete": "4000 psi", "steel": "Grade 60"},
    "load_combination": {"dead": "20 psf", "live": "50 psf", "snow": "30 psf"},
}  # fmt: skip
# Calculations with nothing to check or leave out: arithmetic, units, section properties and quantities.
NO_VERDICT = {"add", "subtract", "multiply", "divide", "sqrt", "power", "convert_units", "evaluate_quantity", "slope",
              "evaluate_expression", "solve_equation", "section_properties", "concrete_volume",
              "rebar_weight"}  # fmt: skip


def test_every_calculation_tool_is_called_here() -> None:
    calculations = {name for name, spec in tool_specs.items() if spec.kind == "calculation"}
    assert calculations - NO_VERDICT == set(CALLS), "a new calculation tool says what it covers: add it to CALLS"


@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_result_names_what_it_does_not_check_and_what_its_verdict_covers(name: str) -> None:
    outcome = run_tool(name, CALLS[name], ToolContext())
    assert outcome.error is None, outcome.output
    result = outcome.calculation
    assert result is not None
    assert result.not_checked and all(len(item) > 5 for item in result.not_checked), name
    assert result.covers, name
    if result.checks:
        line = present(result).verdict_line
        assert line.startswith(("OK for ", "NG for ")) and result.covers in line, line
    model = result.for_model()
    assert model["not_checked"] == result.not_checked and model["covers"] == result.covers, "the model is told too"


def test_a_beam_without_braces_is_not_said_to_pass_lateral_torsional_buckling() -> None:
    result = run_tool("steel_beam_check", CALLS["steel_beam_check"], ToolContext()).calculation
    assert result is not None and result.covers is not None
    assert "lateral-torsional" not in result.covers
    assert any(item.startswith("lateral-torsional buckling") for item in result.not_checked)
    braced = run_tool("steel_beam_check", {**CALLS["steel_beam_check"], "unbraced_length": "11.67 ft"}, ToolContext())
    assert braced.calculation is not None and braced.calculation.covers is not None
    assert braced.calculation.covers.startswith("bending with lateral-torsional buckling")
    assert not any(item.startswith("lateral-torsional") for item in braced.calculation.not_checked)


def test_the_steel_checks_say_what_they_leave_out_once() -> None:
    """The beam-column's "Not checked: …" notes became the field: said once, where every face shows it."""
    for name in ("steel_beam_check", "steel_column_check", "steel_beam_column_check"):
        result = run_tool(name, CALLS[name], ToolContext()).calculation
        assert result is not None
        assert not any("not checked" in note.lower() for note in result.notes), (name, result.notes)
    beam_column = run_tool("steel_beam_column_check", CALLS["steel_beam_column_check"], ToolContext()).calculation
    assert beam_column is not None and "shear (Chapter G)" in beam_column.not_checked


def test_a_continuous_beam_names_the_pattern_loading_it_does_not_apply() -> None:
    """Live load on alternate spans gives larger span moments than the same load on every span (for two equal spans
    0.096 wL² against 0.070 wL², AISC Manual Table 3-23 cases 29 and 30): the result must say it was not done."""
    result = run_tool("continuous_beam", CALLS["continuous_beam"], ToolContext()).calculation
    assert result is not None and any(item.startswith("pattern loading") for item in result.not_checked)


def test_an_eurocode_web_slender_in_shear_is_not_said_to_pass_shear_buckling() -> None:
    """EN 1993-1-1 6.2.6(6): hw/tw > 72ε/η needs EN 1993-1-5's shear buckling check, which the tool does not make.
    UB 406x140x39 in S355 (BS 4-1: h = 398.0, tf = 8.6, tw = 6.4 mm): hw/tw = (398.0 − 2 × 8.6)/6.4 = 59.5 >
    72 × √(235/355)/1.0 = 58.6, so V_pl,Rd alone would overstate it; an IPE 300 (hw/tw = 39.9) does not."""
    arguments = {"span": "6 m", "dead_load": "10 kN/m", "live_load": "10 kN/m", "code": "EN1993", "grade": "S355"}
    slender = run_tool("steel_beam_check", {"designation": "UB 406x140x39", **arguments}, ToolContext()).calculation
    assert slender is not None and slender.covers is not None
    buckling = [item for item in slender.not_checked if item.startswith("shear buckling of the web")]
    assert buckling and "hw/tw = 59.5 > 72ε/η = 58.6" in buckling[0], slender.not_checked
    assert "shear yielding (without shear buckling)" in slender.covers
    stocky = run_tool("steel_beam_check", {"designation": "IPE 300", **arguments}, ToolContext()).calculation
    assert stocky is not None and not any("shear buckling" in item for item in stocky.not_checked)
