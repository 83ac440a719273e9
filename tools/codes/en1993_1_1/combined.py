"""EN 1993-1-1 for a rolled I or H section under axial compression and bending: 5.5, 6.2.9, 6.3.3 and Annex B.

The web is classified under the axial force with the bending (Table 5.2, sheet 1: α from the
plastic neutral axis for Classes 1 and 2, ψ from the elastic stresses for Class 3), the flange
outstands in uniform compression. The cross-section is checked to 6.2.9 (6.31 to 6.41 for
Classes 1 and 2, 6.42 for Class 3); the member to 6.3.3(4), eq. 6.61 and 6.62, with the
interaction factors of Annex B (Method 2) for members susceptible to torsional deformations
(Table B.2) and the equivalent uniform moment factors of Table B.3. SI base units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.codes.en1993_1_1.compression import epsilon
from tools.codes.en1993_1_1.resistance import GAMMA_M0
from tools.shapes.member import IMember


@dataclass(frozen=True)
class Factors:
    """Annex B's kyy, kyz, kzy and kzz."""

    kyy: float
    kyz: float
    kzy: float
    kzz: float


def web_class(member: IMember, fy: float, axial: float, moment: float) -> tuple[int, str]:
    """Table 5.2 sheet 1 for a web in bending and compression: α = (1 + N/(fy tw c)) / 2, ψ from σ = N/A ± M c/2I."""
    eps, c = epsilon(fy), member.web_flat
    ratio = member.web_flat / member.web
    alpha = min(1.0, 0.5 * (1 + axial / (fy * member.web * c)))
    plastic = [(396 if alpha > 0.5 else 36), (456 if alpha > 0.5 else 41.5)]
    limits = [limit * eps / (13 * alpha - 1) if alpha > 0.5 else limit * eps / alpha for limit in plastic]
    mean, spread = axial / member.area, moment * c / 2 / member.I_major
    psi = (mean - spread) / (mean + spread) if mean + spread > 0 else 1.0
    limits.append(42 * eps / (0.67 + 0.33 * psi) if psi > -1 else 62 * eps * (1 - psi) * math.sqrt(-psi))
    klass = next((k for k, limit in enumerate(limits, 1) if ratio <= limit), 4)
    return klass, f"web c/tw = {ratio:.1f} (α = {alpha:.2f}, ψ = {psi:.2f})"


def section_class(member: IMember, fy: float, axial: float, moment: float) -> tuple[int, str]:
    """The worse of the web (under N and My) and the flange outstands (9ε, 10ε, 14ε in compression)."""
    klass, detail = web_class(member, fy, axial, moment)
    flange = member.flange_outstand / member.flange
    eps = epsilon(fy)
    flange_class = next((c for c, limit in ((1, 9), (2, 10), (3, 14)) if flange <= limit * eps), 4)
    return max(klass, flange_class), f"{detail}, flange c/tf = {flange:.2f}, ε = {eps:.3f}"


def interaction_factors(
    klass: int, slenderness: tuple[float, float], shares: tuple[float, float], cm: tuple[float, float, float]
) -> Factors:
    """Table B.2 (I sections susceptible to torsional deformations); n = N_Ed / (χ N_Rk / γM1) about each axis."""
    (lam_y, lam_z), (n_y, n_z), (cmy, cmz, cmlt) = slenderness, shares, cm
    if klass <= 2:
        kyy = cmy * (1 + min(lam_y - 0.2, 0.8) * n_y)
        kzz = cmz * (1 + min(2 * lam_z - 0.6, 1.4) * n_z)
        kzy = max(1 - 0.1 * lam_z * n_z / (cmlt - 0.25), 1 - 0.1 * n_z / (cmlt - 0.25))
        if lam_z < 0.4:
            kzy = min(0.6 + lam_z, 1 - 0.1 * lam_z * n_z / (cmlt - 0.25))
        return Factors(kyy, 0.6 * kzz, kzy, kzz)
    kyy = cmy * (1 + 0.6 * min(lam_y, 1.0) * n_y)
    kzz = cmz * (1 + 0.6 * min(lam_z, 1.0) * n_z)
    kzy = max(1 - 0.05 * lam_z * n_z / (cmlt - 0.25), 1 - 0.05 * n_z / (cmlt - 0.25))
    return Factors(kyy, kzz, kzy, kzz)


def plastic_cross_section(member: IMember, fy: float, z_minor: float, loads: tuple[float, float, float]) -> float:
    """6.2.9.1 for Class 1 and 2 I sections: MN,y,Rd (6.36), MN,z,Rd (6.37, 6.38), biaxial 6.41 (α = 2, β = 5n ≥ 1).

    Returns My/MN,y,Rd or Mz/MN,z,Rd under one moment (6.31), the left side of 6.41 under both."""
    axial, major, minor = loads
    n_pl = member.area * fy / GAMMA_M0
    n = axial / n_pl
    web_depth = member.depth - 2 * member.flange
    a = min((member.area - 2 * member.width * member.flange) / member.area, 0.5)
    mpl_y, mpl_z = member.Z_major * fy / GAMMA_M0, z_minor * fy / GAMMA_M0
    if n >= 1:
        return float("inf")
    light = axial <= 0.25 * n_pl and axial <= 0.5 * web_depth * member.web * fy / GAMMA_M0  # 6.2.9.1(4)
    mn_y = mpl_y if light else min(mpl_y, mpl_y * (1 - n) / (1 - 0.5 * a))
    if axial <= web_depth * member.web * fy / GAMMA_M0 or n <= a:  # 6.2.9.1(5), 6.37
        mn_z = mpl_z
    else:
        mn_z = mpl_z * (1 - ((n - a) / (1 - a)) ** 2)  # 6.38
    if minor == 0:
        return major / mn_y
    if major == 0:
        return minor / mn_z
    return float((major / mn_y) ** 2 + (minor / mn_z) ** max(5 * n, 1.0))


def elastic_cross_section(member: IMember, fy: float, loads: tuple[float, float, float]) -> float:
    """6.2.9.2 for Class 3: σx,Ed = N/A + My/Wel,y + Mz/Wel,z ≤ fy/γM0 (6.42), as a share of fy/γM0."""
    axial, major, minor = loads
    stress = axial / member.area + major / member.S_major + minor / member.S_minor
    return stress / (fy / GAMMA_M0)
