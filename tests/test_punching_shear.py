"""`punching_shear_check` reproduces CSI's published punching capacity and hand calculations (written out with the
clause of each step) for edge and corner columns and for EN 1992, where no published example was at hand.

Published: CSI, SAFE Software Verification, "Example ACI 318-14 RC-PN-001, Slab punching shear design": a 10 in
flat slab, f'c = 4000 psi, interior column 12 x 36 in (grid B-2): punching shear capacity 0.158 ksi (SAFE and
calculated). With β = 3, vc = (2 + 4/3)√f'c governs (Table 22.6.5.2(b)); φvc = 0.75 × 3.333 × 63.25 = 158.1 psi,
independent of d from 6 to 10 in (λs = 1, the αs term larger). The example's shear stress (0.193 ksi) depends on its
analysis's Vu and moments, which the excerpt at hand did not give, so it is not reproduced here.
"""

from __future__ import annotations

import math

import pytest

from domain.calculations import CalcResult
from tools.concrete import punching_shear_check


def value(result: CalcResult, key: str) -> float:
    text = result.results[key]
    assert isinstance(text, str)
    return float(text.split()[0])


@pytest.mark.parametrize("depth", ["7 in", "8.5 in", "9 in"])
def test_safe_rc_pn_001_interior_column_capacity(depth: str) -> None:
    result = punching_shear_check("10 in", "12 x 36 in", "4000 psi", "100 kip", effective_depth=depth)
    assert value(result, "design_stress") == pytest.approx(158, rel=0.01)
    assert value(result, "critical_perimeter") == pytest.approx(2 * (12 + 36) + 4 * float(depth.split()[0]))


def edge_hand_calculation() -> tuple[float, float, float]:
    """ACI 318-19, hand calculation: an edge column 16 x 16 in, slab edge at its outer face, h = 9 in, d = 7.5 in,
    f'c = 5000 psi, Vu = 60 kip, Mu = 40 kip-ft about the axis parallel to the edge.
    22.6.4.1: b1 = 16 + 7.5/2 = 19.75 in, b2 = 16 + 7.5 = 23.5 in, b0 = 2 × 19.75 + 23.5 = 63.0 in.
    R8.4.4.2.3: cAB = b1²/b0 = 6.192 in; Jc = 2[d b1³/12 + b1 d³/12 + b1 d (b1/2 − cAB)²] + b2 d cAB².
    Munb = Mu − Vu e, e = (b1 − cAB) − c1/2 = 5.558 in: 480 − 60 × 5.558 = 146.5 kip-in.
    8.4.2.2.2: γv = 1 − 1/(1 + (2/3)√(19.75/23.5)) = 0.3793.
    8.4.4.2.3: vu = Vu/(b0 d) + γv Munb cAB/Jc.
    Table 22.6.5.2: 4√f'c governs (2 + 4/1 = 6; 2 + 30 × 7.5/63 = 5.57); 22.5.5.1.3: λs = √(2/1.75) → 1.0;
    φvc = 0.75 × 4 × 70.71 = 212.1 psi."""
    d, b1, b2 = 7.5, 19.75, 23.5
    b0 = 2 * b1 + b2
    c_ab = b1**2 / b0
    polar = 2 * (d * b1**3 / 12 + b1 * d**3 / 12 + b1 * d * (b1 / 2 - c_ab) ** 2) + b2 * d * c_ab**2
    unbalanced = 40 * 12 - 60 * ((b1 - c_ab) - 8)
    gamma = 1 - 1 / (1 + 2 / 3 * math.sqrt(b1 / b2))
    stress = 60_000 / (b0 * d) + gamma * unbalanced * 1000 * c_ab / polar
    return b0, stress, 0.75 * 4 * math.sqrt(5000)


def test_hand_calculation_aci_edge_column_with_an_unbalanced_moment() -> None:
    perimeter, stress, strength = edge_hand_calculation()
    result = punching_shear_check(
        "9 in", "16 in", "5000 psi", "60 kip", effective_depth="7.5 in", position="edge", unbalanced_moment="40 kip*ft"
    )
    assert value(result, "critical_perimeter") == pytest.approx(perimeter, rel=0.01)
    assert value(result, "required_stress") == pytest.approx(stress, rel=0.01)
    assert value(result, "design_stress") == pytest.approx(strength, rel=0.01)
    assert float(str(result.results["ratio"])) == pytest.approx(stress / strength, rel=0.01)


def test_hand_calculation_aci_corner_column() -> None:
    """ACI 318-19, hand calculation: a corner column 16 x 16 in, both slab edges at its faces, h = 9 in, d = 7.5 in,
    f'c = 5000 psi, Vu = 30 kip, Mu = 20 kip-ft.
    22.6.4.1: b1 = b2 = 16 + 3.75 = 19.75 in, b0 = 39.5 in. R8.4.4.2.3: cAB = b1²/(2 b0) = 4.938 in;
    Jc = d b1³/12 + b1 d³/12 + b1 d (b1/2 − cAB)² + b2 d cAB²; e = 19.75 − 4.938 − 8 = 6.813 in;
    Munb = 240 − 30 × 6.813 = 35.6 kip-in; γv = 1 − 1/(1 + 2/3) = 0.40.
    Table 22.6.5.2: 2 + 20 × 7.5/39.5 = 5.80 and 6 exceed 4: φvc = 0.75 × 4 × 70.71 = 212.1 psi."""
    d, b1 = 7.5, 19.75
    b0 = 2 * b1
    c_ab = b1**2 / (2 * b0)
    polar = d * b1**3 / 12 + b1 * d**3 / 12 + b1 * d * (b1 / 2 - c_ab) ** 2 + b1 * d * c_ab**2
    unbalanced = 20 * 12 - 30 * ((b1 - c_ab) - 8)
    stress = 30_000 / (b0 * d) + 0.4 * unbalanced * 1000 * c_ab / polar
    result = punching_shear_check(
        "9 in",
        "16 in",
        "5000 psi",
        "30 kip",
        effective_depth="7.5 in",
        position="corner",
        unbalanced_moment="20 kip*ft",
    )
    assert value(result, "critical_perimeter") == pytest.approx(b0, rel=0.01)
    assert value(result, "required_stress") == pytest.approx(stress, rel=0.01)
    assert value(result, "design_stress") == pytest.approx(212.1, rel=0.01)


def test_hand_calculation_aci_a_thick_slab_takes_the_size_effect() -> None:
    """22.5.5.1.3 with 22.6.5.2: d = 14 in: λs = √(2/(1 + 1.4)) = 0.9129; interior square column 24 in, 4000 psi:
    φvc = 0.75 × 4 × 0.9129 × 63.25 = 173.2 psi."""
    result = punching_shear_check("16 in", "24 in", "4000 psi", "200 kip", effective_depth="14 in")
    assert value(result, "design_stress") == pytest.approx(0.75 * 4 * math.sqrt(2 / 2.4) * math.sqrt(4000), rel=0.01)


EN = {"slab_thickness": "240 mm", "column": "400 mm", "concrete": "C30/37", "effective_depth": "200 mm"}
RHO = math.sqrt(0.0085 * 0.0048)
# EN 1992-1-1, hand calculation: 6.4.4(1): k = 1 + √(200/200) = 2.0; ρl = √(0.0085 × 0.0048) = 0.006387;
# vRd,c = 0.18/1.5 × 2.0 × (100 × 0.006387 × 30)^(1/3) = 0.6425 MPa (vmin = 0.035 × 2^1.5 × √30 = 0.542 MPa).
STRENGTH = 0.12 * 2.0 * (100 * RHO * 30) ** (1 / 3)


@pytest.mark.parametrize(
    ("position", "perimeter", "beta"),
    [
        ("interior", 2 * 800 + 4 * math.pi * 200, 1.15),  # 6.4.2 Figure 6.13; 6.4.3(6)
        ("edge", 2 * 400 + 400 + 2 * math.pi * 200, 1.4),  # Figure 6.15: 2c1 + c2 + 2πd
        ("corner", 800 + math.pi * 200, 1.5),  # Figure 6.15: c1 + c2 + πd
    ],
)
def test_hand_calculation_en_punching_at_each_position(position: str, perimeter: float, beta: float) -> None:
    """vEd = β VEd/(u1 d) (6.4.3(3), eq. 6.38) with VEd = 300 kN."""
    result = punching_shear_check(
        shear="300 kN", code="EN1992", position=position, reinforcement_ratio="0.0085, 0.0048", **EN
    )
    assert value(result, "critical_perimeter") == pytest.approx(perimeter, rel=0.01)
    assert value(result, "design_stress") == pytest.approx(STRENGTH, rel=0.01)
    assert value(result, "required_stress") == pytest.approx(beta * 300_000 / (perimeter * 200), rel=0.01)
    assert result.results["beta"] == f"{beta:.3f}"


def test_hand_calculation_en_interior_column_with_a_moment() -> None:
    """6.4.3(3): β = 1 + k MEd/VEd u1/W1; c1/c2 = 1: k = 0.60 (Table 6.1); u1 = 4113.3 mm;
    W1 = 400²/2 + 400² + 4 × 400 × 200 + 16 × 200² + 2π × 200 × 400 = 1,862,655 mm² (6.41);
    VEd = 500 kN, MEd = 60 kN·m: β = 1 + 0.6 × 120 × 4113.3/1,862,655 = 1.159."""
    u1 = 1600 + 4 * math.pi * 200
    w1 = 400**2 / 2 + 400**2 + 4 * 400 * 200 + 16 * 200**2 + 2 * math.pi * 200 * 400
    beta = 1 + 0.6 * 120 * u1 / w1
    result = punching_shear_check(
        shear="500 kN", code="EN1992", reinforcement_ratio="0.0085, 0.0048", unbalanced_moment="60 kN*m", **EN
    )
    assert float(str(result.results["beta"])) == pytest.approx(beta, rel=0.01)
    assert value(result, "required_stress") == pytest.approx(beta * 500_000 / (u1 * 200), rel=0.01)


def test_hand_calculation_en_the_stress_at_the_column_face() -> None:
    """6.4.5(3): vEd,0 = β VEd/(u0 d) ≤ 0.4 ν fcd (recommended; UK NA 0.5), ν = 0.6 (1 − 30/250) = 0.528, fcd = 20:
    4.224 MPa (UK 5.28 MPa); 1500 kN at an interior 400 mm column: 1.15 × 1.5e6/(1600 × 200) = 5.39 MPa: NG in both."""
    for code, limit in (("EN1992", 4.224), ("EN1992-UK", 5.28)):
        result = punching_shear_check(shear="1500 kN", code=code, reinforcement_ratio="0.02", **EN)
        face = [c for c in result.checks if "u0" in c.name][0]
        assert face.limit_amount is not None and face.limit_amount.value == pytest.approx(limit, rel=0.01)
        assert face.status == "NG"


def test_without_a_ratio_en_takes_the_least_strength_and_says_so() -> None:
    result = punching_shear_check(shear="100 kN", code="EN1992", **EN)
    assert value(result, "design_stress") == pytest.approx(0.035 * 2**1.5 * math.sqrt(30), rel=0.01)
    assert any("vmin" in note for note in result.notes)


def test_what_is_not_modelled_is_refused_or_said() -> None:
    with pytest.raises(ValueError, match="6.4.3"):
        punching_shear_check(shear="100 kN", code="EN1992", position="edge", unbalanced_moment="10 kN*m", **EN)
    with pytest.raises(ValueError, match="interior, edge or corner"):
        punching_shear_check("10 in", "16 in", "4000 psi", "50 kip", position="wall")
    with pytest.raises(ValueError, match="has no unit"):
        punching_shear_check("10 in", "16 x 24", "4000 psi", "50 kip")
    result = punching_shear_check("10 in", "16 in", "4000 psi", "50 kip")
    assert any("No effective_depth given" in note for note in result.notes)
    assert any(item.startswith("shear reinforcement") for item in result.not_checked)
