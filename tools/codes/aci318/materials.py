"""ACI 318-19 materials and strength reduction: 19.2, 20.2.2, 21.2.2 and 22.2.2. SI base units (Pa, m).

The customary-unit expressions of the code (√f'c in psi) are evaluated in psi and returned in Pa.
"""

from __future__ import annotations

import math

PSI = 6894.757293168361
ES = 29_000_000 * PSI  # 20.2.2.2: Es = 29,000,000 psi
EPS_CU = 0.003  # 22.2.2.1
MIN_STRENGTH = 2500 * PSI  # 19.2.1.1: f'c at least 2,500 psi
PHI_SHEAR = 0.75  # 21.2.1(b)


def beta1(fc: float) -> float:
    """β1 of Table 22.2.2.4.3: 0.85 to 4,000 psi, less 0.05 per 1,000 psi above, at least 0.65."""
    psi = fc / PSI
    return min(0.85, max(0.65, 0.85 - 0.05 * (psi - 4000) / 1000))


def yield_strain(fy: float) -> float:
    """εty = fy/Es (21.2.2.1)."""
    return fy / ES


def strength_reduction(eps_t: float, fy: float, spiral: bool = False) -> float:
    """φ of Table 21.2.2 from the net tensile strain εt: compression-controlled (εt ≤ εty) 0.65 (0.75 spiral),
    tension-controlled (εt ≥ εty + 0.003) 0.90, linear between."""
    low = 0.75 if spiral else 0.65
    eps_ty = yield_strain(fy)
    if eps_t <= eps_ty:
        return low
    if eps_t >= eps_ty + 0.003:
        return 0.90
    return low + (0.90 - low) * (eps_t - eps_ty) / 0.003


def root_fc(fc: float) -> float:
    """√f'c in psi, at most 100 psi (22.5.3.1, 22.6.3.1, 25.4.1.4), returned as a stress in Pa."""
    return min(math.sqrt(fc / PSI), 100.0) * PSI
