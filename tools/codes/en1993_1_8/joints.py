"""EN 1993-1-8 for fillet welds and bolts, one function per clause. SI base units (m, Pa, N).

Recommended partial factors (Table 2.1, note to 2.2(2)): γM2 = 1.25, γM3 = 1.25; a National Annex may differ.
"""

from __future__ import annotations

import math

GAMMA_M2 = 1.25  # resistance of bolts and welds
GAMMA_M3 = 1.25  # slip resistance at the ultimate limit state (Category C)
K2 = 0.9  # Table 3.4: tension, bolts other than countersunk
# Table 4.1: the correlation factor βw; fu from EN 1993-1-1 Table 3.1 for 40 mm < t ≤ 80 mm, the least for any
# thickness up to 80 mm (EN 10025-2's minimum for S235 to S355, which the UK National Annex uses throughout)
WELD_STEELS: dict[str, tuple[float, float]] = {
    "S235": (360e6, 0.80), "S275": (410e6, 0.85), "S355": (470e6, 0.90), "S420": (500e6, 1.00), "S460": (530e6, 1.00),
}  # fmt: skip
SLIP_FACTORS = {"A": 0.5, "B": 0.4, "C": 0.3, "D": 0.2}  # Table 3.7: slip factor μ by class of friction surface
HOLE_FACTORS = {  # Table 3.6: ks
    "standard": 1.0,
    "oversized": 0.85,
    "short-slotted transverse": 0.85,
    "long-slotted transverse": 0.7,
    "short-slotted parallel": 0.76,
    "long-slotted parallel": 0.63,
}


def throat(leg: float) -> float:
    """4.5.2: the throat of an equal-leg fillet weld at 90°, the height of the inscribed triangle, a = s/√2."""
    return leg / math.sqrt(2)


def weld_shear_strength(fu: float, beta_w: float) -> float:
    """4.5.3.3(3) eq. 4.4: fvw,d = (fu/√3) / (βw γM2)."""
    return fu / math.sqrt(3) / (beta_w * GAMMA_M2)


def weld_resistance_per_length(fu: float, beta_w: float, a: float) -> float:
    """4.5.3.3(2) eq. 4.3: Fw,Rd = fvw,d a, whatever the direction of the force."""
    return weld_shear_strength(fu, beta_w) * a


def long_joint_factor(length: float, a: float) -> float:
    """4.11(3) eq. 4.9: βLw.1 = 1.2 − 0.2 Lj/(150a) ≤ 1.0 for a lap joint longer than 150a."""
    return min(1.2 - 0.2 * length / (150 * a), 1.0) if length > 150 * a else 1.0


def bolt_shear_resistance(fub: float, area: float, alpha_v: float) -> float:
    """Table 3.4: Fv,Rd = αv fub A / γM2 per shear plane (A = As through the threads, the gross area through
    the shank)."""
    return alpha_v * fub * area / GAMMA_M2


def small_bolt_factor(diameter: float, grade: str) -> float:
    """3.6.1(5): M12 and M14 bolts of class 8.8 or 10.9 in 2 mm clearance holes take 0.85 Fv,Rd (when the threads are
    in the shear plane, and Fv,Rd ≥ Fb,Rd is required of them); 1.0 otherwise."""
    return 0.85 if round(diameter * 1000) in (12, 14) and grade in ("8.8", "10.9") else 1.0


def bolt_tension_resistance(fub: float, stress_area: float) -> float:
    """Table 3.4: Ft,Rd = k2 fub As / γM2."""
    return K2 * fub * stress_area / GAMMA_M2


def shear_and_tension(shear: float, shear_resistance: float, tension: float, tension_resistance: float) -> float:
    """Table 3.4, combined shear and tension: Fv,Ed/Fv,Rd + Ft,Ed/(1.4 Ft,Rd), which must not exceed 1.0."""
    return shear / shear_resistance + tension / (1.4 * tension_resistance)


def preload(fub: float, stress_area: float) -> float:
    """3.9.1(2) eq. 3.7: Fp,C = 0.7 fub As."""
    return 0.7 * fub * stress_area


def slip_resistance(ks: float, planes: int, mu: float, fp_c: float, tension: float) -> float:
    """3.9.1 eq. 3.6 and 3.9.2 eq. 3.8a (Category C, per bolt): Fs,Rd = ks n μ (Fp,C − 0.8 Ft,Ed) / γM3, ≥ 0."""
    return max(ks * planes * mu * (fp_c - 0.8 * tension) / GAMMA_M3, 0.0)
