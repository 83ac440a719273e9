"""EN 1993-1-1 6.3.1 for rolled I and H sections: flexural buckling about y-y and z-z, and torsional buckling.

The buckling curve comes from Table 6.2 (rolled sections, by h/b, tf and the grade) and its
imperfection factor from Table 6.1. The class in compression is Table 5.2's; a Class 4
section takes the effective area of EN 1993-1-5 4.4 (plates in uniform compression: ψ = 1,
kσ = 4 for the web, 0.43 for the flange outstands). Torsional buckling (6.3.1.4) uses
Ncr,T = (G It + π² E Iw / L²) / i0² with the z-z curve. Recommended values: γM0 = γM1 = 1.0.
SI base units (Pa, m, N).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.codes.en1993_1_1.resistance import E_STEEL, G_STEEL, GAMMA_M0, GAMMA_M1
from tools.shapes.member import IMember

IMPERFECTION = {"a0": 0.13, "a": 0.21, "b": 0.34, "c": 0.49, "d": 0.76}  # Table 6.1


@dataclass(frozen=True)
class FlexuralBuckling:
    """The figures of 6.3.1.2 for one mode."""

    axis: str
    length: float
    n_cr: float
    slenderness: float
    curve: str
    chi: float
    resistance: float


@dataclass(frozen=True)
class SectionInCompression:
    """The class under uniform compression and the area that resists: A, or Aeff for Class 4."""

    klass: int
    detail: str
    area: float


def epsilon(fy: float) -> float:
    return math.sqrt(235e6 / fy)


def compression_class(member: IMember, fy: float) -> tuple[int, str]:
    """Table 5.2: web as an internal part (33ε, 38ε, 42ε), flange outstands (9ε, 10ε, 14ε), all in compression."""
    eps = epsilon(fy)
    web = member.web_flat / member.web
    flange = member.flange_outstand / member.flange
    web_class = next((c for c, limit in ((1, 33), (2, 38), (3, 42)) if web <= limit * eps), 4)
    flange_class = next((c for c, limit in ((1, 9), (2, 10), (3, 14)) if flange <= limit * eps), 4)
    detail = f"web c/tw = {web:.1f}, flange c/tf = {flange:.2f}, ε = {eps:.3f}"
    return max(web_class, flange_class), detail


def plate_reduction(ratio: float, eps: float, k_sigma: float, internal: bool) -> float:
    """ρ of EN 1993-1-5 4.4(2) for ψ = 1: (λp − 0.22)/λp² internal, (λp − 0.188)/λp² outstand, ≤ 1."""
    slenderness = ratio / (28.4 * eps * math.sqrt(k_sigma))
    if internal:
        return 1.0 if slenderness <= 0.673 else min(1.0, (slenderness - 0.22) / slenderness**2)
    return 1.0 if slenderness <= 0.748 else min(1.0, (slenderness - 0.188) / slenderness**2)


def in_compression(member: IMember, fy: float) -> SectionInCompression:
    """The class and the resisting area: A for Class 1 to 3, Aeff (EN 1993-1-5 4.4) for Class 4."""
    klass, detail = compression_class(member, fy)
    if klass < 4:
        return SectionInCompression(klass, detail, member.area)
    eps = epsilon(fy)
    rho_web = plate_reduction(member.web_flat / member.web, eps, 4.0, internal=True)
    rho_flange = plate_reduction(member.flange_outstand / member.flange, eps, 0.43, internal=False)
    lost = (1 - rho_web) * member.web_flat * member.web + 4 * (1 - rho_flange) * member.flange_outstand * member.flange
    detail += f"; EN 1993-1-5 4.4: ρ web = {rho_web:.3f}, ρ flange = {rho_flange:.3f}"
    return SectionInCompression(4, detail, member.area - lost)


def curves(member: IMember, grade: str) -> tuple[str, str]:
    """Table 6.2, rolled I sections: the curves for y-y and z-z by h/b, tf and the grade (S460's own column)."""
    tf, high = member.flange * 1000, grade == "S460"
    if member.depth / member.width > 1.2:
        if tf <= 40:
            return ("a0", "a0") if high else ("a", "b")
        return ("a", "a") if high else ("b", "c")
    if tf <= 100:
        return ("a", "a") if high else ("b", "c")
    return ("c", "c") if high else ("d", "d")


def reduction(slenderness: float, curve: str) -> float:
    """χ = 1 / (Φ + √(Φ² − λ²)) ≤ 1 with Φ = 0.5 [1 + α (λ − 0.2) + λ²]  (6.3.1.2, eq. 6.49)."""
    phi = 0.5 * (1 + IMPERFECTION[curve] * (slenderness - 0.2) + slenderness**2)
    return min(1.0, 1 / (phi + math.sqrt(max(phi**2 - slenderness**2, 0.0))))


def buckling(
    member: IMember, grade: tuple[str, float], lengths: tuple[float, float, float], area: float | None = None
) -> tuple[FlexuralBuckling, ...]:
    """Nb,Rd = χ A fy / γM1 about y-y and z-z (6.3.1.1) and in torsion (6.3.1.4) for the grade (name, fy); A is
    Aeff for a Class 4 section in compression unless `area` is given (a beam-column classified under its moment)."""
    name, fy = grade
    resisting = in_compression(member, fy).area if area is None else area
    curve_y, curve_z = curves(member, name)
    length_y, length_z, length_t = lengths
    polar = (member.I_major + member.I_minor) / member.area  # i0² for a doubly symmetric section
    critical = {
        "y-y": (length_y, math.pi**2 * E_STEEL * member.I_major / length_y**2, curve_y),
        "z-z": (length_z, math.pi**2 * E_STEEL * member.I_minor / length_z**2, curve_z),
        "torsional": (
            length_t,
            (G_STEEL * member.J + math.pi**2 * E_STEEL * member.warping / length_t**2) / polar,
            curve_z,
        ),
    }
    modes = []
    for axis, (length, n_cr, curve) in critical.items():
        slenderness = math.sqrt(resisting * fy / n_cr)  # 6.3.1.2 (eq. 6.50, 6.51)
        chi = reduction(slenderness, curve)
        modes.append(FlexuralBuckling(axis, length, n_cr, slenderness, curve, chi, chi * resisting * fy / GAMMA_M1))
    return tuple(modes)


def squash(member: IMember, fy: float) -> float:
    """Nc,Rd = A fy / γM0 (Aeff for Class 4)  (6.2.4, eq. 6.10 and 6.11)."""
    return in_compression(member, fy).area * fy / GAMMA_M0
