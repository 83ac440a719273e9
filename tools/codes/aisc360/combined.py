"""AISC 360-22 for a doubly symmetric I shape under axial compression and bending about both axes.

The available flexural strengths come from Chapter F: about the major axis the least of
yielding (F2.1), lateral-torsional buckling (F2.2, with Cb) and flange local buckling of a
noncompact or slender flange (F3.2); about the minor axis F6 (yielding capped at 1.6 Fy Sy,
and flange local buckling). H1.1 combines them with the compressive strength of Chapter E.
SI base units (Pa, m, N, N·m).
"""

from __future__ import annotations

from dataclasses import dataclass

from tools.codes.aisc360 import flexure as aisc_flexure
from tools.codes.aisc360.flexure import E_STEEL, OMEGA_FLEXURE, PHI_FLEXURE
from tools.codes.aisc360.strength import Strength
from tools.shapes.member import IMember


@dataclass(frozen=True)
class Interaction:
    """The value of H1-1a or H1-1b and which one applies."""

    ratio: float
    equation: str
    axial_share: float


def major_axis(member: IMember, fy: float, unbraced: float, cb: float) -> list[Strength]:
    """Every F2/F3 limit state that applies about the major axis; the least governs."""
    aisc_flexure.check_web_is_compact(member, fy)
    limits = [aisc_flexure.yielding(member, fy)]
    if unbraced > 0:
        limits.append(aisc_flexure.lateral_torsional(member, fy, unbraced, cb))
    flange = aisc_flexure.flange_local_buckling(member, fy)
    return limits + ([flange] if flange is not None else [])


def minor_axis(member: IMember, z_minor: float, fy: float) -> list[Strength]:
    """F6: Mn = Mp = Fy Zy ≤ 1.6 Fy Sy (F6-1); flange local buckling of a noncompact (F6-2) or slender flange
    (F6-3, Fcr = 0.69 E / (bf/2tf)², F6-4)."""
    mp = min(fy * z_minor, 1.6 * fy * member.S_minor)
    limits = [Strength(mp, PHI_FLEXURE, OMEGA_FLEXURE, "AISC 360-22 F6.1 eq. F6-1", "minor-axis yielding")]
    slenderness, compact, noncompact = aisc_flexure.flange_slenderness(member, fy)
    detail = f"bf/2tf = {slenderness:.2f}, λpf = {compact:.2f}, λrf = {noncompact:.2f}"
    if slenderness <= compact:
        return limits
    if slenderness <= noncompact:
        mn = mp - (mp - 0.7 * fy * member.S_minor) * (slenderness - compact) / (noncompact - compact)
        equation, state = "F6-2", "minor-axis flange local buckling (noncompact flange)"
    else:
        mn = 0.69 * E_STEEL / slenderness**2 * member.S_minor
        equation, state = "F6-3", "minor-axis flange local buckling (slender flange)"
    return limits + [Strength(mn, PHI_FLEXURE, OMEGA_FLEXURE, f"AISC 360-22 F6.2 eq. {equation}", state, detail)]


def governing(limits: list[Strength]) -> Strength:
    return min(limits, key=lambda limit: limit.nominal)


def interaction(axial: tuple[float, float], major: tuple[float, float], minor: tuple[float, float]) -> Interaction:
    """H1-1a when Pr/Pc ≥ 0.2: Pr/Pc + 8/9 (Mrx/Mcx + Mry/Mcy); else H1-1b: Pr/(2Pc) + (Mrx/Mcx + Mry/Mcy)."""
    share = axial[0] / axial[1]
    bending = major[0] / major[1] + minor[0] / minor[1]
    if share >= 0.2:
        return Interaction(share + 8 / 9 * bending, "H1-1a", share)
    return Interaction(share / 2 + bending, "H1-1b", share)
