"""AISC 360-22 for doubly symmetric I shapes bent about the major axis: F2, F3 and G2.1.

All figures in SI base units (Pa, m, N); the caller converts. `Strength.nominal` is Mn or
Vn; the resistance factor φ (LRFD) and the safety factor Ω (ASD) come with it.
"""

from __future__ import annotations

import math

from tools.codes.aisc360.strength import Strength
from tools.shapes.member import IMember

E_STEEL = 29_000 * 6.894757293168361e6  # 29,000 ksi in Pa (AISC 360-22 Section B4 and Table notes)
PHI_FLEXURE, OMEGA_FLEXURE = 0.90, 1.67


def flange_slenderness(member: IMember, fy: float) -> tuple[float, float, float]:
    """λ = bf/2tf with λp = 0.38√(E/Fy) and λr = 1.0√(E/Fy)  (Table B4.1b, case 10)."""
    root = math.sqrt(E_STEEL / fy)
    return member.width / (2 * member.flange), 0.38 * root, 1.0 * root


def check_web_is_compact(member: IMember, fy: float) -> None:
    """F2 and F3 need a compact web, h/tw ≤ 3.76√(E/Fy) (Table B4.1b, case 15); F4 and F5 are not covered."""
    limit = 3.76 * math.sqrt(E_STEEL / fy)
    if member.aisc_h / member.web > limit:
        raise ValueError(
            f"the web of {member.designation} is noncompact for this grade (h/tw = {member.aisc_h / member.web:.1f} "
            f"> {limit:.1f}); AISC 360-22 F4/F5 are not covered by this check"
        )


def limiting_lengths(member: IMember, fy: float) -> tuple[float, float]:
    """Lp (F2-5) and Lr (F2-6), in m; c = 1 for doubly symmetric I shapes."""
    lp = 1.76 * member.r_minor * math.sqrt(E_STEEL / fy)
    jc = member.J / (member.S_major * member.h_o)
    lr = 1.95 * member.r_ts * E_STEEL / (0.7 * fy) * math.sqrt(jc + math.sqrt(jc**2 + 6.76 * (0.7 * fy / E_STEEL) ** 2))
    return lp, lr


def lateral_torsional(member: IMember, fy: float, lb: float, cb: float) -> Strength:
    """F2.2: Mn for an unbraced length lb (m) with Cb, capped at Mp."""
    mp = fy * member.Z_major
    lp, lr = limiting_lengths(member, fy)
    detail = f"Lp = {lp / 0.3048:.2f} ft, Lr = {lr / 0.3048:.2f} ft"
    if lb <= lp:
        return Strength(
            mp, PHI_FLEXURE, OMEGA_FLEXURE, "AISC 360-22 F2.2", "lateral-torsional buckling", f"Lb ≤ Lp; {detail}"
        )
    if lb <= lr:
        mn = cb * (mp - (mp - 0.7 * fy * member.S_major) * (lb - lp) / (lr - lp))  # F2-2
        equation = "F2-2"
    else:
        slenderness = lb / member.r_ts
        jc = member.J / (member.S_major * member.h_o)
        fcr = cb * math.pi**2 * E_STEEL / slenderness**2 * math.sqrt(1 + 0.078 * jc * slenderness**2)  # F2-4
        mn = fcr * member.S_major  # F2-3
        equation = "F2-3"
    return Strength(
        min(mn, mp),
        PHI_FLEXURE,
        OMEGA_FLEXURE,
        f"AISC 360-22 F2.2 eq. {equation}",
        "lateral-torsional buckling",
        detail,
    )


def yielding(member: IMember, fy: float) -> Strength:
    """F2.1: Mn = Mp = Fy Zx  (F2-1)."""
    return Strength(fy * member.Z_major, PHI_FLEXURE, OMEGA_FLEXURE, "AISC 360-22 F2.1 eq. F2-1", "yielding")


def flange_local_buckling(member: IMember, fy: float) -> Strength | None:
    """F3.2 for a noncompact or slender flange; None when the flange is compact (F2 governs)."""
    slenderness, compact, noncompact = flange_slenderness(member, fy)
    if slenderness <= compact:
        return None
    mp = fy * member.Z_major
    detail = f"bf/2tf = {slenderness:.2f}, λpf = {compact:.2f}, λrf = {noncompact:.2f}"
    if slenderness <= noncompact:
        mn = mp - (mp - 0.7 * fy * member.S_major) * (slenderness - compact) / (noncompact - compact)  # F3-1
        return Strength(
            mn,
            PHI_FLEXURE,
            OMEGA_FLEXURE,
            "AISC 360-22 F3.2 eq. F3-1",
            "flange local buckling (noncompact flange)",
            detail,
        )
    kc = min(max(4 / math.sqrt(member.aisc_h / member.web), 0.35), 0.76)
    mn = 0.9 * E_STEEL * kc * member.S_major / slenderness**2  # F3-2
    return Strength(
        mn, PHI_FLEXURE, OMEGA_FLEXURE, "AISC 360-22 F3.2 eq. F3-2", "flange local buckling (slender flange)", detail
    )


def shear(member: IMember, fy: float) -> Strength:
    """G2.1: Vn = 0.6 Fy Aw Cv1 with Aw = d tw; φv = 1.00 and Ωv = 1.50 for stocky rolled webs (G2.1(a))."""
    aw = member.depth * member.web
    h_tw = member.aisc_h / member.web
    if h_tw <= 2.24 * math.sqrt(E_STEEL / fy):
        return Strength(
            0.6 * fy * aw, 1.00, 1.50, "AISC 360-22 G2.1(a) eq. G2-1", "shear yielding", f"h/tw = {h_tw:.1f}, Cv1 = 1.0"
        )
    kv = 5.34
    limit = 1.10 * math.sqrt(kv * E_STEEL / fy)
    cv1 = 1.0 if h_tw <= limit else limit / h_tw  # G2-3, G2-4
    return Strength(
        0.6 * fy * aw * cv1, 0.90, 1.67, "AISC 360-22 G2.1(b) eq. G2-1", "shear", f"h/tw = {h_tw:.1f}, Cv1 = {cv1:.3f}"
    )
