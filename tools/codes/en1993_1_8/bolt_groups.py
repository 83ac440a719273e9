"""EN 1993-1-8 bolt groups under an eccentric shear by the elastic method, as SCI P358 and Steel Buildings in Europe
(Multi-Storey, Part 5, 3.2.1) apply it: the most loaded bolt's share of the shear along and across the lines.
Lengths in m, forces in N."""

from __future__ import annotations

import math
from collections.abc import Sequence


def polar_moment(bolts: Sequence[tuple[float, float]]) -> float:
    """Ip = Σ (xi² + yi²) about the centroid (for two lines, n1 p2²/2 + n1(n1² − 1) p1²/6, P358's I)."""
    return sum(x * x + y * y for x, y in bolts)


def corner_shares(bolts: Sequence[tuple[float, float]], eccentricity: float, theta: float) -> tuple[float, float]:
    """(along, across): the force on the most loaded bolt for a unit shear at the angle θ to the lines, its line of
    action crossing the centroid's axis across the lines at `eccentricity`: 1/n of the shear plus M r/Ip with
    M = e cos θ (for θ = 0, P358's (1 + αn)/n and βn/n, α = z xmax/Ip, β = z ymax/Ip)."""
    n, moment, ip = len(bolts), eccentricity * math.cos(theta), polar_moment(bolts)
    x_max, y_max = max(abs(x) for x, _ in bolts), max(abs(y) for _, y in bolts)
    twist = moment / ip if ip > 0 else 0.0
    return math.cos(theta) / n + twist * x_max, math.sin(theta) / n + twist * y_max


def shear_resistance(bolt: float, shares: tuple[float, float]) -> float:
    """P358: VRd = Fv,Rd / √(along² + across²) per unit shear (for θ = 0: n Fv,Rd/√((1 + αn)² + (βn)²))."""
    return bolt / math.hypot(*shares)


def bearing_resistance(along_bolt: float, across_bolt: float, shares: tuple[float, float]) -> float:
    """P358: VRd = 1/√((along/Fb,ver,Rd)² + (across/Fb,hor,Rd)²) (for θ = 0:
    n/√(((1 + αn)/Fb,ver,Rd)² + (βn/Fb,hor,Rd)²)), each Fb,Rd the least of its direction."""
    along, across = shares
    return 1 / math.hypot(along / along_bolt, across / across_bolt)
