"""AISC 360-22 Chapter J for fillet welds and bolts, one function per clause. SI base units (m, Pa, N).

A `Strength` (from `tools.codes.aisc360.flexure`) carries the nominal strength Rn with φ (LRFD) and Ω (ASD).
"""

from __future__ import annotations

import math

from tools.codes.aisc360.strength import Strength

PHI_WELD, OMEGA_WELD = 0.75, 2.00  # Table J2.5, fillet weld in shear
PHI_BOLT, OMEGA_BOLT = 0.75, 2.00  # J3.7 and J3.8
DU = 1.13  # J3.9: mean installed pretension over the specified minimum
HF_ONE_FILLER = 1.0  # J3.9: no filler, or one filler, between the connected parts
SLIP_COEFFICIENTS = {"A": 0.30, "B": 0.50}  # J3.9: Class A and Class B faying surfaces
# J3.9(a), (b), (c): φ and Ω of the slip limit state by hole type
SLIP_FACTORS = {
    "standard": (1.00, 1.50, "J3.9(a)"),
    "short-slotted transverse": (1.00, 1.50, "J3.9(a)"),
    "oversized": (0.85, 1.76, "J3.9(b)"),
    "short-slotted parallel": (0.85, 1.76, "J3.9(b)"),
    "long-slotted transverse": (0.70, 2.14, "J3.9(c)"),
    "long-slotted parallel": (0.70, 2.14, "J3.9(c)"),
}


def effective_throat(size: float) -> float:
    """J2.2a: the effective throat of an equal-leg fillet weld, w/√2 (no credit for penetration)."""
    return size / math.sqrt(2)


def directional_factor(theta: float) -> float:
    """J2.4(a) eq. J2-5: kds = 1.0 + 0.50 sin^1.5 θ, θ the angle between the load and the weld's axis."""
    return 1.0 + 0.50 * math.pow(math.sin(theta), 1.5)


def fillet_weld_per_length(fexx: float, size: float, kds: float) -> float:
    """J2.4(a) eq. J2-4 per unit length of one weld: rn = Fnw Awe kds with Fnw = 0.60 FEXX (Table J2.5)."""
    return 0.60 * fexx * effective_throat(size) * kds


def long_weld_factor(length: float, size: float) -> tuple[float, str]:
    """J2.2b(d) for an end-loaded fillet weld: β = 1.2 − 0.002(l/w) ≤ 1.0 (eq. J2-1) over 100w; 180w/l over 300w."""
    slenderness = length / size
    if slenderness <= 100:
        return 1.0, f"β (l/w = {slenderness:.0f} ≤ 100)"
    if slenderness <= 300:
        return 1.2 - 0.002 * slenderness, f"l/w = {slenderness:.0f}: β = 1.2 − 0.002 × {slenderness:.0f}"
    return 180 / slenderness, f"l/w = {slenderness:.0f} > 300, effective length 180w: β = 180/{slenderness:.0f}"


def fillet_weld(fexx: float, size: float, theta: float, length: float, welds: int, beta: float) -> Strength:
    """J2.4(a): Rn of `welds` equal fillet welds of one length, with kds and the long-weld factor β."""
    rn = fillet_weld_per_length(fexx, size, directional_factor(theta)) * welds * length * beta
    return Strength(rn, PHI_WELD, OMEGA_WELD, "AISC 360-22 J2.4(a) eq. J2-4, J2-5; J2.2b(d)", "weld shear rupture")


def bolt_shear(fnv: float, area: float, planes: int, bolts: int) -> Strength:
    """J3.7 eq. J3-1: Rn = Fnv Ab per shear plane, for the group."""
    return Strength(fnv * area * planes * bolts, PHI_BOLT, OMEGA_BOLT, "AISC 360-22 J3.7 eq. J3-1", "bolt shear")


def tension_with_shear(fnt: float, fnv: float, frv: float, method: str) -> float:
    """J3.8 eq. J3-3a (LRFD) or J3-3b (ASD): F'nt = 1.3Fnt − Fnt frv/(φFnv) (or ΩFnt frv/Fnv), ≤ Fnt."""
    available = PHI_BOLT * fnv if method == "LRFD" else fnv / OMEGA_BOLT
    return min(1.3 * fnt - fnt / available * frv, fnt)


def combined_stress_applies(frt: float, frv: float, fnt: float, fnv: float, method: str) -> bool:
    """J3.8 User Note: combined stress need not be investigated when either required stress is ≤ 30 % of
    the corresponding available stress."""
    factor = PHI_BOLT if method == "LRFD" else 1 / OMEGA_BOLT
    return frt > 0.3 * factor * fnt and frv > 0.3 * factor * fnv


def bolt_tension(
    fnt: float, fnv: float, area: float, bolts: int, shear: float, tension: float, method: str
) -> Strength:
    """J3.7 eq. J3-1 (Rn = Fnt Ab), or J3.8 eq. J3-2 (Rn = F'nt Ab) under combined tension and shear, for the group.

    `shear` and `tension` are the group's required strengths (N); each bolt takes an equal share."""
    frv, frt = shear / (bolts * area), tension / (bolts * area)
    if not combined_stress_applies(frt, frv, fnt, fnv, method):
        return Strength(fnt * area * bolts, PHI_BOLT, OMEGA_BOLT, "AISC 360-22 J3.7 eq. J3-1", "bolt tension")
    reduced = tension_with_shear(fnt, fnv, frv, method)
    equation = "J3-3a" if method == "LRFD" else "J3-3b"
    detail = f"F'nt = {reduced / fnt:.3f} Fnt"
    return Strength(
        reduced * area * bolts, PHI_BOLT, OMEGA_BOLT, f"AISC 360-22 J3.8 eq. J3-2, {equation}",
        "bolt tension with shear", detail,
    )  # fmt: skip


def slip_resistance(mu: float, pretension: float, planes: int, bolts: int, hole: str) -> Strength:
    """J3.9 eq. J3-4 for the group: Rn = μ Du hf Tb ns per bolt; φ and Ω by hole type (J3.9(a), (b), (c))."""
    phi, omega, clause = SLIP_FACTORS[hole]
    rn = mu * DU * HF_ONE_FILLER * pretension * planes * bolts
    return Strength(rn, phi, omega, f"AISC 360-22 {clause} eq. J3-4", "slip")


def slip_tension_factor(tension: float, pretension: float, bolts: int, method: str) -> float:
    """J3.10 eq. J3-5a (LRFD, ksc = 1 − Tu/(Du Tb nb)) or J3-5b (ASD, ksc = 1 − 1.5Ta/(Du Tb nb)), ≥ 0."""
    factor = 1.0 if method == "LRFD" else 1.5
    return max(1 - factor * tension / (DU * pretension * bolts), 0.0)
