"""`concrete_beam_check` reproduces published worked examples within 1 %, and hand calculations where no published
example was at hand (each labelled as such, each step with its clause).

Published:
- CSI, SAP2000 Software Verification, "ACI 318-14 Example 001: shear and flexural reinforcement design of a singly
  reinforced rectangle" (independent results by "Example 6.1 in Notes on ACI 318-14"): b = 10 in, d = 13.5 in
  (h = 16 in), f'c = 4 ksi, fy = 60 ksi; Mu = 1460.4 k-in needs As = 2.37 in²; As,min = 0.450 in² (governs);
  Vu = 37.73 kip needs Av/s = 0.041 in²/in. Read back: As = 2.37 in² gives φMn = Mu, and Av/s = 0.041 gives φVn = Vu.
- Wight & MacGregor, Reinforced Concrete: Mechanics and Design, solutions manual, Problem 4-1: b = 12 in,
  d = 21.5 in, 3 No. 9, f'c = 3500 psi, fy = 60 ksi: a = 5.04 in, c = 5.93 in, εt = 0.00788 (tension-controlled),
  Mn = 285 kip-ft, φMn = 256 kip-ft.
- CSI, SAP2000 Software Verification, "EN 2-2004 Example 001" (EN 1992-1-1, CEN default: γc 1.5, γs 1.15, αcc 1.0):
  b = 230 mm, d = 490 mm (h = 550 mm), fck = 30 MPa, fyk = 460 MPa: MEd = 165 kN·m needs As = 916 mm².
"""

from __future__ import annotations

import math

import pytest

from domain.calculations import CalcResult
from tools.concrete import concrete_beam_check

PSI = 1 / 1000  # ksi per psi


def value(result: CalcResult, key: str) -> float:
    text = result.results[key]
    assert isinstance(text, str)
    return float(text.split()[0])


def check(result: CalcResult, start: str) -> tuple[str, float]:
    found = [c for c in result.checks if c.name.startswith(start)]
    assert found, [c.name for c in result.checks]
    return found[0].status, found[0].ratio or 0.0


def test_csi_aci_example_001_as_read_back_gives_the_design_moment() -> None:
    """SAP2000 ACI 318-14 Example 001: As = 2.37 in² for Mu = 1460.4 k-in; As,min = 0.450 in²."""
    result = concrete_beam_check(
        "10 in", "16 in", "2.37 in2", "4000 psi", "Grade 60", "1460.4 kip*in", effective_depth="13.5 in"
    )
    assert value(result, "design_moment") * 12 == pytest.approx(1460.4, rel=0.01)
    assert value(result, "minimum_steel") == pytest.approx(0.450, rel=0.01)
    assert result.results["phi"] == "0.900"  # εt = 0.00523 ≥ εty + 0.003 = 0.00507 (ACI 318-19 Table 21.2.2)


def test_csi_aci_example_001_a_beam_that_needs_stirrups() -> None:
    """SAP2000 ACI 318-14 Example 001: Vu = 37.73 kip needs Av/s = 0.041 in²/in; #3 two legs at 0.22/0.041 in."""
    spacing = 0.22 / 0.041
    result = concrete_beam_check(
        "10 in", "16 in", "2.37 in2", "4000 psi", "Grade 60", "100 kip*ft", shear="37.73 kip",
        effective_depth="13.5 in", stirrups=f"#3 @ {spacing:.4f} in",
    )  # fmt: skip
    assert value(result, "design_shear") == pytest.approx(37.73, rel=0.01)
    # Vc = 2√f'c bw d (Table 22.5.5.1(a), Av ≥ Av,min): 2 × 63.25 × 10 × 13.5 = 17.08 kip, φVc = 12.81 kip
    assert value(result, "concrete_shear") == pytest.approx(0.75 * 2 * math.sqrt(4000) * 10 * 13.5 / 1000, rel=0.01)
    without = concrete_beam_check(
        "10 in", "16 in", "2.37 in2", "4000 psi", "Grade 60", "100 kip*ft", shear="37.73 kip", effective_depth="13.5 in"
    )
    assert without.results["verdict"] == "NG"  # without stirrups it fails shear and 9.6.3.1
    assert check(without, "Vu ≤ φλ√f'c bw d")[0] == "NG"


def test_wight_macgregor_problem_4_1_a_tension_controlled_beam() -> None:
    """Wight & MacGregor solutions manual, Problem 4-1: φMn = 256 kip-ft, c = 5.93 in, εt = 0.00788."""
    result = concrete_beam_check(
        "12 in", "24 in", "3 #9", "3500 psi", "Grade 60", "222 kip*ft", effective_depth="21.5 in"
    )
    assert value(result, "design_moment") == pytest.approx(256, rel=0.01)
    assert value(result, "neutral_axis_depth") == pytest.approx(5.93, rel=0.01)
    assert float(str(result.results["tensile_strain"])) == pytest.approx(0.00788, rel=0.01)
    assert result.results["phi"] == "0.900" and result.results["verdict"] == "OK"
    assert "tension-controlled" in result.checks[0].name


def test_hand_calculation_a_transition_zone_beam() -> None:
    """Hand calculation (no published ACI 318-19 transition-zone example was at hand): b = 12 in, d = 17.5 in,
    4 #9 (4.00 in²), f'c = 4000 psi, Grade 60.
    22.2.2.4.3: β1 = 0.85.  22.2.2.4.1: a = As fy/(0.85 f'c b) = 4.00 × 60/(0.85 × 4 × 12) = 5.882 in, c = 6.920 in.
    22.2.2.1: εt = 0.003 (17.5 − 6.920)/6.920 = 0.004587.  21.2.2.1: εty = 60/29,000 = 0.002069.
    Table 21.2.2: φ = 0.65 + 0.25 (0.004587 − 0.002069)/0.003 = 0.8598.
    22.2: Mn = 4.00 × 60 × (17.5 − 5.882/2) = 3494 kip-in = 291.2 kip-ft; φMn = 250.3 kip-ft."""
    a = 4.00 * 60 / (0.85 * 4 * 12)
    c = a / 0.85
    eps_t = 0.003 * (17.5 - c) / c
    phi = 0.65 + 0.25 * (eps_t - 60 / 29_000) / 0.003
    design = phi * 4.00 * 60 * (17.5 - a / 2) / 12
    assert design == pytest.approx(250.3, rel=0.001)
    result = concrete_beam_check(
        "12 in", "20 in", "4 #9", "4000 psi", "Grade 60", "240 kip*ft", effective_depth="17.5 in"
    )
    assert value(result, "design_moment") == pytest.approx(design, rel=0.01)
    assert float(str(result.results["phi"])) == pytest.approx(phi, rel=0.01)
    assert "transition zone" in result.checks[0].name
    assert check(result, "εt ≥ 0.004")[0] == "OK"


def test_hand_calculation_a_doubly_reinforced_beam_whose_top_bars_do_not_yield() -> None:
    """Hand calculation: b = 12 in, h = 24 in, d = 21.5 in, d' = 2.5 in, As = 6 #9 (6.00 in²), A's = 2 #7 (1.20 in²),
    f'c = 4000 psi, Grade 60, Es = 29,000 ksi (20.2.2.2).
    22.2 with strain compatibility: 0.85 f'c β1 c b + A's (f's − 0.85 f'c) = As fy, f's = 87(c − 2.5)/c ksi
    → 34.68 c + 1.20 (87 (c − 2.5)/c − 3.4) = 360 → 34.68 c² − 259.68 c − 261 = 0 → c = 8.351 in.
    f's = 87 × 5.851/8.351 = 60.95 → yields: f's = 60 ksi; again with f's = 60: 34.68 c = 360 − 1.2 × 56.6
    → c = 8.422 in, a = 7.159 in; ε's = 0.003 (8.422 − 2.5)/8.422 = 0.00211 ≥ εty 0.00207: yields.
    Mn = 0.85 × 4 × 7.159 × 12 (21.5 − 3.579) + 1.20 × 56.6 (21.5 − 2.5) = 5235 + 1290 = 6525 kip-in.
    εt = 0.003 (21.5 − 8.422)/8.422 = 0.004659 → φ = 0.65 + 0.25 (0.004659 − 0.002069)/0.003 = 0.8658.
    φMn = 0.8658 × 6525/12 = 470.8 kip-ft."""
    c = (360 - 1.20 * (60 - 3.4)) / (0.85 * 4 * 0.85 * 12)
    a = 0.85 * c
    nominal = 0.85 * 4 * a * 12 * (21.5 - a / 2) + 1.20 * (60 - 3.4) * (21.5 - 2.5)
    phi = 0.65 + 0.25 * (0.003 * (21.5 - c) / c - 60 / 29_000) / 0.003
    design = phi * nominal / 12
    assert design == pytest.approx(470.8, rel=0.002)
    result = concrete_beam_check(
        "12 in", "24 in", "6 #9", "4000 psi", "Grade 60", "400 kip*ft", effective_depth="21.5 in",
        compression_bars="2 #7", compression_depth="2.5 in",
    )  # fmt: skip
    assert value(result, "design_moment") == pytest.approx(design, rel=0.01)
    assert value(result, "neutral_axis_depth") == pytest.approx(c, rel=0.01)
    assert any("Compression steel" in note and "f's = 60 ksi" in note for note in result.notes)
    assert any("6 #9 do not fit" in w for w in result.warnings)  # two layers: taken at the d given


def test_hand_calculation_a_one_way_slab() -> None:
    """Hand calculation: a 12 in strip of an 8 in slab, #5 @ 12 in (0.31 in²/ft), 0.75 in cover (20.5.1.3.1),
    d = 8 − 0.75 − 0.625/2 = 6.9375 in, f'c = 4000 psi, Grade 60.
    a = 0.31 × 60/(0.85 × 4 × 12) = 0.4559 in; φMn = 0.9 × 0.31 × 60 × (6.9375 − 0.228)/12 = 9.360 kip-ft
    (21.2.2, 22.2).
    Table 7.6.1.1: As,min = 0.0018 × 12 × 8 = 0.1728 in².  7.7.2.3: s ≤ min(3h, 18 in) = 18 in.
    22.5.5.1(c): λs = √(2/(1 + 6.9375/10)) = 1.087 → 1.0; ρw = 0.31/(12 × 6.9375) = 0.003724;
    φVc = 0.75 × 8 × 0.003724^(1/3) × 63.25 × 12 × 6.9375 = 4.897 kip."""
    result = concrete_beam_check("12 in", "8 in", "#5 @ 12 in", "4000 psi", "Grade 60", "8 kip*ft", shear="4 kip")
    assert result.results["member"] == "one-way slab"
    assert value(result, "design_moment") == pytest.approx(9.360, rel=0.01)
    assert value(result, "minimum_steel") == pytest.approx(0.1728, rel=0.01)
    assert value(result, "design_shear") == pytest.approx(4.897, rel=0.01)
    assert check(result, "As ≥ As,min")[1] == pytest.approx(0.1728 / 0.31, rel=0.01)
    assert not any("φλ√f'c" in c.name for c in result.checks)  # a slab needs no Av,min below φVc (7.6.3.1)


def test_hand_calculation_a_beam_that_needs_no_stirrups() -> None:
    """Hand calculation: b = 12 in, h = 10 in (9.6.3.1(a): h ≤ 10 in, no Av,min), d = 7.5 in, 3 #5 (0.93 in²),
    f'c = 4000 psi, Grade 60, Vu = 5 kip.
    22.5.5.1(c): λs = √(2/1.75) = 1.069 → 1.0; ρw = 0.93/90 = 0.01033; φVc = 0.75 × 8 × 0.2178 × 63.25 × 90 / 1000
    = 7.440 kip ≥ 5 kip."""
    rho = 0.93 / (12 * 7.5)
    design = 0.75 * 8 * rho ** (1 / 3) * math.sqrt(4000) * 12 * 7.5 / 1000
    assert design == pytest.approx(7.440, rel=0.002)
    result = concrete_beam_check(
        "12 in", "10 in", "3 #5", "4000 psi", "Grade 60", "20 kip*ft", shear="5 kip", effective_depth="7.5 in"
    )
    assert value(result, "design_shear") == pytest.approx(design, rel=0.01)
    assert result.results["verdict"] == "OK"
    assert not any("Av" in c.name for c in result.checks)


def test_csi_en_example_001_as_read_back_gives_the_design_moment() -> None:
    """SAP2000 EN 2-2004 Example 001 (CEN default): As = 916 mm² for MEd = 165 kN·m."""
    result = concrete_beam_check(
        "230 mm", "550 mm", "916 mm2", "C30/37", "460 MPa", "165 kN*m", effective_depth="490 mm", code="EN1992"
    )
    assert value(result, "design_moment") == pytest.approx(165, rel=0.01)
    assert "phi" not in result.results and "tensile_strain" not in result.results


def test_hand_calculation_the_uk_annex_takes_alpha_cc_085_in_bending() -> None:
    """Hand calculation, EN 1992-1-1 with the UK NA: the same section, αcc = 0.85: fcd = 0.85 × 30/1.5 = 17.0 MPa
    (3.1.6(1)); x = 916 × 400/(0.8 × 17.0 × 230) = 117.1 mm (3.1.7(3)); MRd = 916 × 400 × (490 − 0.4 × 117.1)
    = 162.4 kN·m (6.1)."""
    x = 916 * 400 / (0.8 * 17.0 * 230)
    design = 916 * 400 * (490 - 0.4 * x) / 1e6
    result = concrete_beam_check(
        "230 mm", "550 mm", "916 mm2", "C30/37", "460 MPa", "150 kN*m", effective_depth="490 mm", code="EN1992-UK"
    )
    assert value(result, "design_moment") == pytest.approx(design, rel=0.01)
    assert value(result, "neutral_axis_depth") == pytest.approx(x, rel=0.01)


def test_hand_calculation_en_shear_without_and_with_links() -> None:
    """Hand calculation, EN 1992-1-1: b = 300 mm, h = 500 mm, 30 mm cover, H8 links, 3H20 (942 mm²),
    d = 500 − 30 − 8 − 10 = 452 mm, C30/37, B500B.
    6.2.2(1): k = 1 + √(200/452) = 1.665; ρl = 942/(300 × 452) = 0.006948; VRd,c = 0.12 × 1.665 ×
    (100 × 0.006948 × 30)^(1/3) × 300 × 452 = 74.0 kN (vmin = 0.035 × 1.665^1.5 × √30 = 0.412 MPa does not govern).
    6.2.3(3): Asw/s = 2 × 50.27/200 = 0.5027 mm²/mm, z = 0.9 × 452 = 406.8 mm, fywd = 434.8 MPa: at cot θ = 2.5,
    VRd,s = 0.5027 × 406.8 × 434.8 × 2.5 = 222.3 kN; VRd,max = 300 × 406.8 × 0.528 × 20/(2.5 + 0.4) = 444.4 kN
    (ν1 = 0.6 (1 − 30/250) = 0.528): VRd = 222.3 kN. 9.2.2(5): ρw,min = 0.08√30/500 = 0.000876."""
    d = 452
    k = 1 + math.sqrt(200 / d)
    concrete = 0.12 * k * (100 * (3 * math.pi * 100) / (300 * d) * 30) ** (1 / 3) * 300 * d / 1000
    links = 2 * math.pi * 16 / 200 * 0.9 * d * 500 / 1.15 * 2.5 / 1000
    without = concrete_beam_check(
        "300 mm", "500 mm", "3H20", "C30/37", "B500B", "100 kN*m", shear="60 kN", code="EN1992", cover="38 mm"
    )
    assert value(without, "concrete_shear") == pytest.approx(concrete, rel=0.01)
    assert check(without, "ρw ≥ ρw,min (no links given)")[0] == "NG"  # a beam needs minimum links (6.2.1(4))
    result = concrete_beam_check(
        "300 mm", "500 mm", "3H20", "C30/37", "B500B", "100 kN*m", shear="200 kN", code="EN1992", stirrups="H8 @ 200"
    )
    assert value(result, "design_shear") == pytest.approx(links, rel=0.01)
    assert value(result, "concrete_shear") == pytest.approx(concrete, rel=0.01)
    assert result.results["verdict"] == "OK"


def test_hand_calculation_en_one_way_slab_needs_no_links() -> None:
    """Hand calculation, EN 1992-1-1: a 1 m strip of a 200 mm slab, H12 @ 200 (565.5 mm²/m), 25 mm cover,
    d = 200 − 25 − 6 = 169 mm, C30/37, B500B, VEd = 60 kN/m.
    6.2.2(1): k = 1 + √(200/169) = 2.088 → 2.0; ρl = 565.5/169,000 = 0.003346; VRd,c = 0.12 × 2.0 ×
    (100 × 0.003346 × 30)^(1/3) × 1000 × 169 = 87.6 kN; vmin = 0.035 × 2^1.5 × √30 = 0.542 MPa → 91.6 kN governs.
    9.3.1.1: As,min = max(0.26 × 2.9/500, 0.0013) × 1000 × 169 = 254.8 mm²."""
    vmin = 0.035 * 2**1.5 * math.sqrt(30) * 1000 * 169 / 1000
    result = concrete_beam_check(
        "1 m", "200 mm", "H12 @ 200", "C30/37", "B500B", "20 kN*m", shear="60 kN", code="EN1992"
    )
    assert value(result, "concrete_shear") == pytest.approx(vmin, rel=0.01)
    assert value(result, "minimum_steel") == pytest.approx(0.26 * 2.9 / 500 * 1000 * 169, rel=0.01)
    assert result.results["verdict"] == "OK" and result.results["member"] == "one-way slab"
    # 6.2.2(6): VEd ≤ 0.5 bw d ν fcd = 0.5 × 1000 × 169 × 0.528 × 20 = 892.3 kN without shear reinforcement
    upper = [c for c in result.checks if c.clause == "EN 1992-1-1 6.2.2(6)"][0]
    assert upper.limit_amount is not None and upper.limit_amount.value == pytest.approx(892.3, rel=0.01)


def test_the_result_says_what_it_does_not_check_and_draws_the_section() -> None:
    result = concrete_beam_check("12 in", "24 in", "4 #8", "4000 psi", "Grade 60", "200 kip*ft")
    assert "deflection by calculation" in result.not_checked and "crack widths" in result.not_checked
    assert any(item.startswith("shear: no shear force") for item in result.not_checked)
    assert result.covers == "flexure, minimum and maximum steel of the section"
    assert result.section is not None and result.section.unit == "in" and len(result.section.bars) == 4
    assert result.section.bars[0].y == pytest.approx(24 - 1.5 - 0.5)  # no stirrups: d = h − cover − db/2
    assert any("No cover given" in note for note in result.notes)
    assert "section" not in result.for_model()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"tension_bars": "3H21"}, "not a standard size"),
        ({"tension_bars": "4000"}, "is not reinforcement"),
        ({"concrete": "4000"}, "has no unit"),
        ({"concrete": "C30/35"}, "not an EN 206 strength class"),
        ({"concrete": "2000 psi"}, "below 2,500 psi"),
        ({"steel": "Grade 65"}, "not an ASTM A615"),
        ({"tension_bars": "6 #11", "width": "10 in"}, "do not fit in one layer"),
        ({"tension_bars": "2.37 in2"}, "need effective_depth"),
        ({"tension_bars": "#5 @ 12"}, "has no unit"),
        ({"code": "BS8110"}, "is not one these tools check"),
    ],
)
def test_inputs_that_cannot_be_read_are_refused_with_a_sentence(arguments: dict[str, str], message: str) -> None:
    given = {
        "width": "12 in", "height": "24 in", "tension_bars": "4 #8", "concrete": "4000 psi", "steel": "Grade 60",
        "moment": "100 kip*ft", **arguments,
    }  # fmt: skip
    with pytest.raises(ValueError, match=message):
        concrete_beam_check(**given)


@pytest.mark.parametrize(
    "bars", ["4 #8", "4 No. 8", "4-#8", "3H20", "3T20", "2T25", "3 x 20 mm", "#4 @ 12 in", "H20 @ 170", "2.37 in2"]
)
def test_bars_are_read_as_engineers_write_them(bars: str) -> None:
    result = concrete_beam_check(
        "14 in", "24 in", bars, "fc' = 4 ksi", "fy = 60 ksi", "10 kip*ft", effective_depth="21 in"
    )
    assert value(result, "steel_area") > 0


def test_an_over_reinforced_beam_fails_the_strain_limit() -> None:
    """9.3.3.1: εt ≥ 0.004. 6 #11 (9.36 in²) in 12 x 24 in, d = 21 in, 4000 psi: c = 16.19 in, εt = 0.00089."""
    result = concrete_beam_check(
        "12 in", "24 in", "6 #11", "4000 psi", "Grade 60", "100 kip*ft", effective_depth="21 in"
    )
    assert check(result, "εt ≥ 0.004")[0] == "NG" and result.results["verdict"] == "NG"
    assert result.results["phi"] == "0.650"
