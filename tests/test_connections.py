"""`fillet_weld_check` and `bolt_check` reproduce published worked examples within 1 %.

- AISC Design Examples, Version 16.0 (companion to the 16th edition Manual, AISC 360-22), Chapter J:
  J.1   3/16 in E70 fillet welds, 2 × 27 in, longitudinal, PD = 33, PL = 100 kips: Pu = 200, Pa = 133 kips;
        rn = 5.57 kip/in per weld; l/w = 144, β = 0.912; Rn = 274 kips, φRn = 206 kips, Rn/Ω = 137 kips.
  J.2A  5/16 in E70 fillet welds both sides of a gusset, loaded at 60°, PD = 50, PL = 150 kips: Pu = 300,
        Pa = 200 kips; kds = 1.40; rn = 13.0 kip/in per weld; 19.5 kip/in (LRFD) and 13.0 kip/in (ASD) for
        the two; required length 15.4 in.
  J.3   3/4 in Group 120-N bolt, T = 3.5 D + 12 L kips, V = 1.33 D + 4 L kips: Tu = 23.4, Vu = 8.00 kips,
        Ta = 15.5, Va = 5.33 kips; φFnv = 40.5 ksi, Fnv/Ω = 27.0 ksi; F'nt = 76.8 (LRFD) and 76.7 ksi (ASD);
        φRn = 25.5 kips, Rn/Ω = 17.0 kips.
  J.4A  3/4 in Group 120 slip-critical, Class A, 2 slip planes, short slots transverse to the load,
        PD = 17, PL = 51 kips: Pu = 102, Pa = 68.0 kips; 19.0 (LRFD) and 12.7 (ASD) kips per bolt;
        5.37 and 5.35 bolts needed.
  J.4B  the same with long slots: 13.3 and 8.88 kips per bolt; 7.67 and 7.66 bolts needed.
  J.5   8 bolts of J.4A's kind, 1 slip plane, standard holes, P = 15 D + 45 L kips at 3:4 (V = 3/5 P,
        T = 4/5 P): Tu = 72.0, Vu = 54.0 kips; ksc = 0.716; φRn = 54.4 kips, Rn/Ω = 36.3 kips.
- EN 1993-1-8 (recommended γM2 = γM3 = 1.25): no worked example of these exact joints was at hand, so these
  figures are derived by hand from the code's formulas (stated beside each test) and cross-checked against
  the resistances SCI P363 (the Blue Book) tabulates: M20 8.8 in single shear through the threads
  Fv,Rd = 94.1 kN, in tension Ft,Rd = 141 kN; an 8 mm S355 fillet weld (throat 0.7 s = 5.6 mm in P363's
  tables), longitudinal resistance 1.35 kN/mm with fu = 470 MPa.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from domain.calculations import CalcResult
from tools import ToolContext, run_tool, tool_specs
from tools.connections import bolt_check, fillet_weld_check

J1: dict[str, Any] = {"size": "3/16 in", "length": "27 in", "dead_load": "33 kip", "live_load": "100 kip", "welds": 2}
J2A: dict[str, Any] = {
    "size": "5/16 in", "length": "16 in", "dead_load": "50 kip", "live_load": "150 kip", "angle": "60 deg", "welds": 2,
}  # fmt: skip
J3: dict[str, Any] = {
    "diameter": "3/4 in", "grade": "Group 120", "bolts": 1, "shear_dead": "1.33 kip", "shear_live": "4 kip",
    "tension_dead": "3.5 kip", "tension_live": "12 kip",
}  # fmt: skip
J4: dict[str, Any] = {
    "diameter": "3/4 in", "grade": "A325", "shear_dead": "17 kip", "shear_live": "51 kip", "shear_planes": 2,
    "slip_class": "A",
}  # fmt: skip
J5: dict[str, Any] = {
    "diameter": "3/4 in", "grade": "A325", "bolts": 8, "shear_dead": "9 kip", "shear_live": "27 kip",
    "tension_dead": "12 kip", "tension_live": "36 kip", "slip_class": "A", "hole": "standard",
}  # fmt: skip


def value(result: CalcResult, key: str, unit: str | None = None) -> float:
    text = result.results[key]
    assert isinstance(text, str)
    number, *rest = text.split(" ", 1)
    if unit is not None:
        assert rest == [unit], f"{key} = {text}, expected in {unit}"
    return float(number)


@pytest.mark.parametrize(("code", "required", "design", "per_length"), [
    ("AISC360-LRFD", 200, 206, 0.75 * 5.57 * 2), ("AISC360-ASD", 133, 137, 5.57 / 2.00 * 2),
])  # fmt: skip
def test_aisc_j1_long_longitudinal_welds_take_beta(
    code: str, required: float, design: float, per_length: float
) -> None:
    result = fillet_weld_check(**J1, code=code)
    assert value(result, "required_strength", "kip") == pytest.approx(required, rel=0.01)
    assert value(result, "design_strength", "kip") == pytest.approx(design, rel=0.01)
    assert value(result, "strength_per_length", "kip/in") == pytest.approx(per_length, rel=0.01)
    assert float(str(result.results["long_weld_factor"])) == pytest.approx(0.912, abs=0.0005)
    assert float(str(result.results["ratio"])) == pytest.approx(required / design, rel=0.01)
    assert value(result, "throat", "in") == pytest.approx(0.1875 / math.sqrt(2), rel=0.001)
    [weld] = result.checks
    assert weld.status == "OK" and "J2.4(a)" in (weld.clause or "") and "J2.2b(d)" in (weld.clause or "")
    assert "β = 1.2 − 0.002 × 144" in (result.substituted or "")
    assert "base metal at the welds" in str(result.results["not_checked"])


@pytest.mark.parametrize(("code", "required", "per_length"), [("AISC360-LRFD", 300, 19.5), ("AISC360-ASD", 200, 13.0)])
def test_aisc_j2a_a_weld_loaded_at_60_degrees_takes_kds(code: str, required: float, per_length: float) -> None:
    result = fillet_weld_check(**J2A, code=code)
    assert float(str(result.results["directional_factor"])) == pytest.approx(1.40, abs=0.005)
    assert value(result, "required_strength", "kip") == pytest.approx(required, rel=0.01)
    assert value(result, "strength_per_length", "kip/in") == pytest.approx(per_length, rel=0.01)
    assert value(result, "design_strength", "kip") == pytest.approx(per_length * 16, rel=0.01)
    at_required_length = fillet_weld_check(**{**J2A, "length": "15.4 in"}, code=code)
    assert float(str(at_required_length.results["ratio"])) == pytest.approx(1.0, abs=0.01)


def test_aisc_welds_beyond_300_times_their_size_count_180_sizes() -> None:
    """J2.2b(d): over 300w the effective length is 180w (hand-derived: 1/4 in × 100 in, l/w = 400)."""
    result = fillet_weld_check("1/4 in", "100 in", "10 kip", "10 kip")
    assert float(str(result.results["long_weld_factor"])) == pytest.approx(180 / 400, abs=0.0005)
    transverse = fillet_weld_check("1/4 in", "100 in", "10 kip", "10 kip", angle="90 deg")
    assert transverse.results["long_weld_factor"] == "1.000" and transverse.results["directional_factor"] == "1.500"


def test_en_fillet_weld_simplified_method() -> None:
    """Hand-derived: 2 × 200 mm of 8 mm leg, S355: a = 8/√2 = 5.657 mm; fvw,d = 470/√3/(0.9 × 1.25) = 241.2 MPa;
    Fw,Rd = 1.364 kN/mm a weld (P363: 1.35 kN/mm at a = 5.6 mm); FEd = 1.35 × 40 + 1.5 × 60 = 144 kN;
    F_Rd = 2 × 1.364 × 200 = 545.8 kN."""
    result = fillet_weld_check("8 mm", "200 mm", "40 kN", "60 kN", welds=2, code="EN1993")
    assert value(result, "required_strength", "kN") == pytest.approx(144, rel=0.001)
    assert value(result, "throat", "mm") == pytest.approx(5.657, rel=0.001)
    assert value(result, "strength_per_length", "kN/mm") == pytest.approx(2 * 1.364, rel=0.002)
    assert value(result, "strength_per_length", "kN/mm") / 2 * 5.6 / 5.657 == pytest.approx(1.35, rel=0.01)
    assert value(result, "design_strength", "kN") == pytest.approx(545.8, rel=0.002)
    assert result.checks[0].clause == "EN 1993-1-8 4.5.3.3 eq. 4.3, 4.4; 4.11"
    assert any("S355 assumed" in note for note in result.notes) and "S355" in str(result.results["grade"])
    s275 = fillet_weld_check("8 mm", "200 mm", "40 kN", "60 kN", welds=2, code="EN1993", grade="S275")
    assert value(s275, "strength_per_length", "kN/mm") == pytest.approx(2 * 410 / math.sqrt(3) / 1.0625 * 5.657e-3,
                                                                        rel=0.002)  # fmt: skip


def test_en_long_lap_joint_takes_beta_lw() -> None:
    """Hand-derived, 4.11 eq. 4.9: 6 mm leg (a = 4.243 mm), 1000 mm > 150a: βLw = 1.2 − 0.2 × 1000/636.4 = 0.886."""
    result = fillet_weld_check("6 mm", "1000 mm", "100 kN", "100 kN", code="EN1993")
    assert float(str(result.results["long_joint_factor"])) == pytest.approx(0.886, abs=0.0005)


@pytest.mark.parametrize(("code", "tension", "shear", "design", "equation"), [
    ("AISC360-LRFD", 23.4, 8.00, 25.5, "J3-3a"), ("AISC360-ASD", 15.5, 5.33, 17.0, "J3-3b"),
])  # fmt: skip
def test_aisc_j3_combined_tension_and_shear(
    code: str, tension: float, shear: float, design: float, equation: str
) -> None:
    result = bolt_check(**J3, code=code)
    assert value(result, "required_tension", "kip") == pytest.approx(tension, rel=0.01)
    assert value(result, "required_shear", "kip") == pytest.approx(shear, rel=0.01)
    assert value(result, "design_tension", "kip") == pytest.approx(design, rel=0.01)
    available_shear_stress = 40.5 if code.endswith("LRFD") else 27.0  # ksi: φFnv, Fnv/Ω
    assert value(result, "design_shear", "kip") == pytest.approx(available_shear_stress * 0.442, rel=0.01)
    assert float(str(result.results["ratio"])) == pytest.approx(tension / design, rel=0.01)
    combined = [c for c in result.checks if "with shear" in c.name]
    assert combined and combined[0].clause == f"AISC 360-22 J3.8 eq. J3-2, {equation}"
    assert "bearing and tear-out at the holes (J3.11): give ply_thickness" in str(result.results["not_checked"])
    assert "design_slip" not in result.results


def test_aisc_combined_stress_is_not_investigated_under_30_percent() -> None:
    """J3.8 User Note, hand-derived: Vu = 16 kips (frv = 36.2 ksi), Tu = 6 kips (frt = 13.6 ksi ≤ 0.3 × 67.5 ksi):
    the full φFnt Ab = 0.75 × 90 × 0.4418 = 29.8 kips, not φF'nt Ab = 12.1 kips."""
    result = bolt_check("3/4 in", "A325", 1, "10 kip", "2.5 kip", "5 kip", "0 kip")
    assert value(result, "design_tension", "kip") == pytest.approx(29.82, rel=0.001)
    assert any(c.clause == "AISC 360-22 J3.7 eq. J3-1" and c.name.endswith("bolt tension") for c in result.checks)


@pytest.mark.parametrize(("code", "hole", "per_bolt", "needed", "bolts"), [
    ("AISC360-LRFD", "short-slotted transverse", 19.0, 5.37, 6),
    ("AISC360-ASD", "short-slotted transverse", 12.7, 5.35, 6),
    ("AISC360-LRFD", "long-slotted", 13.3, 7.67, 8), ("AISC360-ASD", "long-slotted", 8.88, 7.66, 8),
])  # fmt: skip
def test_aisc_j4_slip_critical_with_slotted_holes(code: str, hole: str, per_bolt: float, needed: float,
                                                  bolts: int) -> None:  # fmt: skip
    result = bolt_check(**J4, bolts=bolts, hole=hole, code=code)
    assert value(result, "required_shear", "kip") == pytest.approx(102 if code.endswith("LRFD") else 68.0, rel=0.01)
    assert value(result, "design_slip", "kip") / bolts == pytest.approx(per_bolt, rel=0.01)
    assert float(str(result.results["ratio"])) * bolts == pytest.approx(needed, rel=0.01)
    assert str(result.results["governing"]).startswith("slip (Class A")
    slip = [c for c in result.checks if c.name.split(": ")[1].startswith("slip")][0]
    assert slip.clause == f"AISC 360-22 {'J3.9(a)' if hole.startswith('short') else 'J3.9(c)'} eq. J3-4"


@pytest.mark.parametrize(("code", "design"), [("AISC360-LRFD", 54.4), ("AISC360-ASD", 36.3)])
def test_aisc_j5_slip_with_tension_takes_ksc(code: str, design: float) -> None:
    result = bolt_check(**J5, code=code)
    assert value(result, "required_tension", "kip") == pytest.approx(72.0 if code.endswith("LRFD") else 48.0, rel=0.01)
    assert value(result, "design_slip", "kip") == pytest.approx(design, rel=0.01)
    assert "ksc = 0.716" in (result.substituted or "")
    assert any("J3.10 eq. J3-5" in (c.clause or "") for c in result.checks)


def test_en_bolts_in_shear_and_tension() -> None:
    """Hand-derived from Table 3.4, as SCI P363 tabulates: M20 8.8, Fv,Rd = 0.6 × 800 × 245/1.25 = 94.1 kN a plane,
    Ft,Rd = 0.9 × 800 × 245/1.25 = 141.1 kN. Four bolts in double shear, FEd = 1.35 × 100 + 1.5 × 150 = 360 kN,
    Ft,Ed = 1.35 × 40 + 1.5 × 60 = 144 kN: 360/752.6 + 144/(1.4 × 564.5) = 0.661."""
    result = bolt_check("M20", "8.8", 4, "100 kN", "150 kN", "40 kN", "60 kN", code="EN1993", shear_planes=2)
    assert value(result, "design_shear", "kN") == pytest.approx(4 * 2 * 94.1, rel=0.001)
    assert value(result, "design_tension", "kN") == pytest.approx(4 * 141.1, rel=0.001)
    assert value(result, "required_shear", "kN") == pytest.approx(360, rel=0.001)
    interaction = [c for c in result.checks if "1.4 Ft,Rd" in c.name][0]
    assert interaction.ratio == pytest.approx(0.661, abs=0.001) and interaction.clause == "EN 1993-1-8 Table 3.4"
    assert float(str(result.results["ratio"])) == pytest.approx(0.661, abs=0.001)
    assert "bearing at the holes (Table 3.4, Fb,Rd): give ply_thickness" in str(result.results["not_checked"])


def test_en_class_10_9_threads_and_shank() -> None:
    """Hand-derived, Table 3.4: 10.9 through the threads αv = 0.5: 0.5 × 1000 × 245/1.25 = 98.0 kN; through the
    shank αv = 0.6 on A = π 20²/4 = 314.2 mm²: 150.8 kN."""
    threads = bolt_check("20 mm", "10.9", 1, "20 kN", "20 kN", code="EN1993")
    shank = bolt_check("M20", "10.9", 1, "20 kN", "20 kN", code="EN1993", threads="excluded")
    assert value(threads, "design_shear", "kN") == pytest.approx(98.0, rel=0.001)
    assert value(shank, "design_shear", "kN") == pytest.approx(150.8, rel=0.001)


def test_en_slip_resistant_at_the_ultimate_limit_state() -> None:
    """Hand-derived, 3.9: M20 8.8, Fp,C = 0.7 × 800 × 245 = 137.2 kN; class A (μ = 0.5), normal holes (ks = 1),
    one plane: Fs,Rd = 0.5 × 137.2/1.25 = 54.88 kN a bolt; with 10 kN tension a bolt (3.8a): 0.5 × (137.2 − 8)/1.25
    = 51.68 kN; oversized holes take ks = 0.85."""
    plain = bolt_check("M20", "8.8", 4, "50 kN", "50 kN", code="EN1993", slip_class="A")
    assert value(plain, "design_slip", "kN") == pytest.approx(4 * 54.88, rel=0.001)
    pulled = bolt_check("M20", "8.8", 4, "50 kN", "50 kN", "0 kN", "80 kN / 3", code="EN1993", slip_class="A")
    assert value(pulled, "design_slip", "kN") == pytest.approx(4 * 51.68, rel=0.001)
    oversized = bolt_check("M20", "8.8", 4, "50 kN", "50 kN", code="EN1993", slip_class="A", hole="oversized")
    assert value(oversized, "design_slip", "kN") == pytest.approx(0.85 * 4 * 54.88, rel=0.001)


def test_metric_bolts_to_aisc_take_table_j3_1m() -> None:
    """Hand-derived: M20 Group 120, Tb = 142 kN (Table J3.1M); Class B, one plane: φRn = 0.50 × 1.13 × 142 = 80.2 kN;
    shear φFnv Ab = 0.75 × 370 MPa × 314.2 mm² = 87.2 kN (Table J3.2, threads included)."""
    result = bolt_check("M20", "A325", 1, "10 kN", "20 kN", "0 kN", "0 kN", slip_class="B")
    assert value(result, "design_slip", "kN") == pytest.approx(80.2, rel=0.002)
    assert value(result, "design_shear", "kN") == pytest.approx(87.2, rel=0.002)


def test_the_pinned_names_arguments_and_result_keys() -> None:
    weld = tool_specs["fillet_weld_check"].input_schema["properties"]
    assert list(weld)[:8] == ["size", "length", "dead_load", "live_load", "electrode", "angle", "welds", "code"]
    bolt = tool_specs["bolt_check"].input_schema["properties"]
    assert list(bolt) == ["diameter", "grade", "bolts", "shear_dead", "shear_live", "tension_dead", "tension_live",
                          "code", "threads", "shear_planes", "slip_class", "hole", "columns", "spacing", "gauge",
                          "end_distance", "edge_distance", "ply_thickness", "ply_grade", "eccentricity", "angle",
                          "stem_distance", "national_annex"]  # fmt: skip
    outcome = run_tool("bolt_check", {**J5, "bolts": "8"}, ToolContext())
    assert outcome.error is None and outcome.calculation is not None
    assert {"required_shear", "design_shear", "required_tension", "design_tension", "ratio", "design_slip"} <= set(
        outcome.calculation.results
    )
    weld_outcome = run_tool("fillet_weld_check", {**J1, "code": "AISC 360-22 ASD"}, ToolContext())
    assert weld_outcome.calculation is not None
    assert {"required_strength", "design_strength", "ratio", "strength_per_length"} <= set(
        weld_outcome.calculation.results
    )


@pytest.mark.parametrize(("tool", "arguments", "sentence"), [
    ("fillet_weld_check", {**J1, "live_load": "-100 kip"}, "live_load must not be negative"),
    ("fillet_weld_check", {**J2A, "angle": "60"}, "angle needs its unit"),
    ("fillet_weld_check", {**J2A, "angle": "120 deg"}, "from 0 deg"),
    ("fillet_weld_check", {**J1, "size": "3/16"}, "size needs its unit"),
    ("fillet_weld_check", {**J1, "electrode": "rod"}, "electrode 'rod' is not one this check knows"),
    ("fillet_weld_check", {**J1, "welds": 0}, "welds must be a whole number of welds, 1 or more"),
    ("fillet_weld_check", {**J1, "code": "EN1993", "grade": "S999"}, "grade 'S999' is not one"),
    ("bolt_check", {**J3, "grade": "8.8"}, "for AISC 360 give 'A325' or 'A490'"),
    ("bolt_check", {**J3, "code": "EN1993"}, "for EN1993 give a bolt class"),
    ("bolt_check", {**J3, "grade": "8.8", "code": "EN1993"}, "give a metric size"),
    ("bolt_check", {**J4, "bolts": 6, "slip_class": "C"}, "slip_class must be A, B"),
    ("bolt_check", {**J4, "bolts": 6, "hole": "square"}, "hole 'square' is not one this check knows"),
    ("bolt_check", {**J4, "bolts": 6, "diameter": "5/16 in"}, "no pretension for a 5/16 in bolt"),
    ("bolt_check", {**J3, "threads": "maybe"}, "threads must be 'included'"),
    ("bolt_check", {**J3, "shear_dead": "0 kip", "shear_live": "0 kip", "tension_dead": "0 kip",
                    "tension_live": "0 kip"}, "the bolts carry no force"),
])  # fmt: skip
def test_inputs_an_engineer_gets_wrong_are_refused_with_a_sentence(
    tool: str, arguments: dict[str, Any], sentence: str
) -> None:
    outcome = run_tool(tool, arguments, ToolContext())
    assert outcome.error is not None and sentence in outcome.error, outcome.error


def test_sizes_are_read_as_engineers_write_them() -> None:
    fraction = fillet_weld_check(**{**J1, "size": '3/16"'})
    assert (
        fraction.results["design_strength"]
        == fillet_weld_check(**{**J1, "size": "0.1875 in"}).results["design_strength"]
    )
    mixed = bolt_check(**{**J3, "diameter": "1-1/8 in"})
    assert value(mixed, "design_shear", "kip") == pytest.approx(0.75 * 54 * math.pi * 1.125**2 / 4, rel=0.001)
    assert (
        bolt_check(**{**J4, "bolts": 6, "hole": "SSL perpendicular"}).results["design_slip"]
        == bolt_check(**{**J4, "bolts": 6, "hole": "short-slotted transverse"}).results["design_slip"]
    )
    assumed = bolt_check(**{**J4, "bolts": 6, "hole": "short slots"})
    assert any("short-slotted parallel to the force assumed" in note for note in assumed.notes)
