"""EN 1993-1-1 for rolled I and H sections bent about the major axis: 5.5, 6.2.5, 6.2.6 and 6.3.2.

Recommended values throughout (γM0 = γM1 = 1.0, λLT,0 = 0.4, β = 0.75, η = 1.0); a National
Annex may set others. SI base units (Pa, m, N).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.codes.en10025_2 import strengths as bs_en_10025
from tools.shapes.member import IMember

E_STEEL = 210e9  # EN 1993-1-1 3.2.6
G_STEEL = 81e9  # EN 1993-1-1 3.2.6: G ≈ 81 000 N/mm²
GAMMA_M0 = GAMMA_M1 = 1.0  # EN 1993-1-1 6.1, recommended values
LAMBDA_LT0, BETA = 0.4, 0.75  # EN 1993-1-1 6.3.2.3(1), recommended values
ETA = 1.0  # EN 1993-1-5 5.1(2) allows 1.2 up to S460; 1.0 is the cautious value the UK NA sets
# EN 1993-1-1 Table 3.1: fy in N/mm² for t ≤ 40 mm and 40 < t ≤ 80 mm
YIELD_STRENGTHS: dict[str, tuple[float, float]] = {
    "S235": (235, 215), "S275": (275, 255), "S355": (355, 335),
    "S420": (420, 390), "S450": (440, 410), "S460": (460, 430),
}  # fmt: skip


def yield_strength(grade: str, member: IMember, annex: str | None = None) -> float:
    """fy for the grade and the thickest plate of the section, in Pa: Table 3.1, or with the UK National Annex
    (NA.2.4) BS EN 10025-2's ReH by thickness (S355: 345 MPa for 16 < t ≤ 40 mm)."""
    if annex == "UK" and grade in bs_en_10025.YIELD:
        return bs_en_10025.yield_strength(grade, max(member.flange, member.web))
    thickness = max(member.flange, member.web) * 1000
    if thickness > 80:
        raise ValueError(f"{member.designation} has plates over 80 mm; EN 1993-1-1 Table 3.1 stops at 80 mm")
    thin, thick = YIELD_STRENGTHS[grade]
    return (thin if thickness <= 40 else thick) * 1e6


def section_class(member: IMember, fy: float) -> tuple[int, str]:
    """The class in bending about the major axis (Table 5.2): the worse of flange outstand and web."""
    epsilon = math.sqrt(235e6 / fy)
    flange = member.flange_outstand / member.flange
    web = member.web_flat / member.web
    flange_class = next((c for c, limit in ((1, 9), (2, 10), (3, 14)) if flange <= limit * epsilon), 4)
    web_class = next((c for c, limit in ((1, 72), (2, 83), (3, 124)) if web <= limit * epsilon), 4)
    detail = f"flange c/tf = {flange:.2f}, web c/tw = {web:.1f}, ε = {epsilon:.3f}"
    return max(flange_class, web_class), detail


def bending_modulus(member: IMember, fy: float) -> tuple[float, int]:
    """Wpl for Class 1 and 2, Wel for Class 3 (6.2.5(2)); Class 4 needs EN 1993-1-5 and is refused."""
    klass, detail = section_class(member, fy)
    if klass == 4:
        raise ValueError(f"{member.designation} is Class 4 in bending ({detail}); effective sections are not covered")
    return (member.Z_major if klass <= 2 else member.S_major), klass


def shear_area(member: IMember) -> float:
    """Av = A − 2btf + (tw + 2r)tf, but not less than η hw tw  (6.2.6(3)(a))."""
    rolled = member.area - 2 * member.width * member.flange + (member.web + 2 * member.root_radius) * member.flange
    return max(rolled, ETA * (member.depth - 2 * member.flange) * member.web)


def web_slenderness_in_shear(member: IMember, fy: float) -> tuple[float, float]:
    """(hw/tw, 72ε/η): above the limit the web buckles in shear before Vpl,Rd and EN 1993-1-5 5 applies (6.2.6(6))."""
    return (member.depth - 2 * member.flange) / member.web, 72 * math.sqrt(235e6 / fy) / ETA


def shear_resistance(member: IMember, fy: float) -> float:
    """Vpl,Rd = Av (fy/√3) / γM0  (6.2.6(2), eq. 6.18)."""
    return shear_area(member) * fy / math.sqrt(3) / GAMMA_M0


def critical_moment(member: IMember, length: float, c1: float, c2_zg: float = 0.0) -> float:
    """M_cr = C1 π²EIz/L² [√(Iw/Iz + L²GIt/(π²EIz) + (C2 zg)²) − C2 zg]: fork supports, k = kw = 1.

    `c2_zg` is C2 times the height of the load above the shear centre (m): 0 for a load at the
    shear centre, 0.454 × h/2 for a uniform load on the top flange (SN003, Table 3.2)."""
    euler = math.pi**2 * E_STEEL * member.I_minor / length**2
    root = math.sqrt(member.warping / member.I_minor + G_STEEL * member.J / euler + c2_zg**2)
    return c1 * euler * (root - c2_zg)


@dataclass(frozen=True)
class Buckling:
    """The figures of 6.3.2.3 for one segment."""

    m_cr: float
    slenderness: float
    alpha: float
    curve: str
    chi: float
    resistance: float


def buckling_resistance(
    member: IMember, fy: float, modulus: float, length: float, c1: float, c2_zg: float = 0.0
) -> Buckling:
    """Mb,Rd = χLT W fy / γM1 for rolled sections (6.3.2.3): curve b for h/b ≤ 2, c above; no f modification."""
    m_cr = critical_moment(member, length, c1, c2_zg)
    slenderness = math.sqrt(modulus * fy / m_cr)
    curve, alpha = ("b", 0.34) if member.depth / member.width <= 2 else ("c", 0.49)
    if slenderness <= LAMBDA_LT0:
        chi = 1.0  # 6.3.2.3(1) and 6.3.2.2(4)
    else:
        phi = 0.5 * (1 + alpha * (slenderness - LAMBDA_LT0) + BETA * slenderness**2)
        chi = min(1.0, 1 / slenderness**2, 1 / (phi + math.sqrt(phi**2 - BETA * slenderness**2)))
    return Buckling(m_cr, slenderness, alpha, curve, chi, chi * modulus * fy / GAMMA_M1)
