"""Prying action on the bolts of a tee flange or an angle leg in tension, AISC Manual 16th ed. Part 9 (with Fu, as
the 15th and 16th editions take it). Lengths in m, stresses in Pa, forces in N."""

from __future__ import annotations

import math
from dataclasses import dataclass

PHI_FLANGE, OMEGA_FLANGE = 0.90, 1.67  # Manual Part 9, flange bending for prying


@dataclass(frozen=True)
class Prying:
    """What the Manual's method found: tc, α′, Q (the share of the bolts' strength left with prying) and the steps."""

    critical_thickness: float
    alpha: float
    factor: float
    rho: float
    delta: float


def prying(bolt_strength: float, geometry: tuple[float, float, float, float, float], thickness: float, fu: float,
           method: str) -> Prying:  # fmt: skip
    """Manual Part 9 eq. 9-17 to 9-21 for B, the available tension of one bolt, and (db, d′, b, a, p):
    b′ = b − db/2; a′ = a + db/2 ≤ 1.25b + db/2; ρ = b′/a′; δ = 1 − d′/p; tc = √(4Bb′/(φ p Fu)) (LRFD,
    √(Ω 4Bb′/(p Fu)) ASD); α′ = [(tc/t)² − 1]/(δ(1 + ρ)); Q = 1 for α′ < 0, (t/tc)²(1 + δα′) for 0 ≤ α′ ≤ 1,
    (t/tc)²(1 + δ) above."""
    diameter, hole, b, a, pitch = geometry
    b_prime = b - diameter / 2
    a_prime = min(a + diameter / 2, 1.25 * b + diameter / 2)
    rho, delta = b_prime / a_prime, 1 - hole / pitch
    factor = 4 * bolt_strength * b_prime / (pitch * fu)
    tc = math.sqrt(factor / PHI_FLANGE if method == "LRFD" else factor * OMEGA_FLANGE)
    alpha = ((tc / thickness) ** 2 - 1) / (delta * (1 + rho))
    share = (thickness / tc) ** 2
    q = 1.0 if alpha < 0 else share * (1 + delta * min(alpha, 1.0))
    return Prying(tc, alpha, min(q, 1.0), rho, delta)
