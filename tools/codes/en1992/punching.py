"""EN 1992-1-1 6.4: punching of a slab at a rectangular column without shear reinforcement. The basic control
perimeter u1 at 2d (6.4.2, Figures 6.13 and 6.15), β (6.4.3(3) eq. 6.39 to 6.41 and Table 6.1 for an interior
column with a moment; the approximate values of 6.4.3(6) otherwise), vRd,c (6.4.4(1), eq. 6.47) and the stress at
the column face (6.4.3(2), 6.4.5(3)). SI base units.

Positions as for ACI: "interior", "edge" (the slab edge at the column's outer face, parallel to c2), "corner".
"""

from __future__ import annotations

import math

APPROXIMATE_BETA = {"interior": 1.15, "edge": 1.4, "corner": 1.5}  # 6.4.3(6), Figure 6.21N


def control_perimeter(c1: float, c2: float, d: float, position: str) -> float:
    """u1 at 2d from the column faces, along the slab edges for edge and corner columns."""
    if position == "interior":
        return 2 * (c1 + c2) + 4 * math.pi * d
    if position == "edge":
        return 2 * c1 + c2 + 2 * math.pi * d
    return c1 + c2 + math.pi * d


def column_perimeter(c1: float, c2: float, d: float, position: str) -> float:
    """u0 (6.4.5(3)): the column's perimeter; c2 + 3d ≤ c2 + 2c1 at an edge; 3d ≤ c1 + c2 at a corner."""
    if position == "interior":
        return 2 * (c1 + c2)
    if position == "edge":
        return min(c2 + 3 * d, c2 + 2 * c1)
    return min(3 * d, c1 + c2)


def moment_factor(c1: float, c2: float) -> float:
    """k of Table 6.1 for c1/c2 (interpolated; 0.45 up to 0.5, 0.80 from 3.0)."""
    ratio = c1 / c2
    table = ((0.5, 0.45), (1.0, 0.60), (2.0, 0.70), (3.0, 0.80))
    if ratio <= table[0][0]:
        return table[0][1]
    for (low, k_low), (high, k_high) in zip(table, table[1:], strict=False):
        if ratio <= high:
            return k_low + (k_high - k_low) * (ratio - low) / (high - low)
    return table[-1][1]


def interior_beta(force: float, moment: float, c1: float, c2: float, d: float) -> float:
    """β = 1 + k MEd/VEd u1/W1 (6.39), W1 = c1²/2 + c1c2 + 4c2d + 16d² + 2πdc1 (6.41)."""
    w1 = c1**2 / 2 + c1 * c2 + 4 * c2 * d + 16 * d**2 + 2 * math.pi * d * c1
    return 1 + moment_factor(c1, c2) * moment / force * control_perimeter(c1, c2, d, "interior") / w1


def face_resistance(fck: float, fcd: float, coefficient: float) -> float:
    """vRd,max at u0: 0.4 ν fcd recommended (0.5 in the UK National Annex), ν = 0.6(1 − fck/250) (6.4.5(3), 6.6N)."""
    return coefficient * 0.6 * (1 - fck / 1e6 / 250) * fcd
