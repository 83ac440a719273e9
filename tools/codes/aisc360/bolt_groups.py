"""Eccentrically loaded bolt groups by the instantaneous centre of rotation (AISC Manual 16th ed. Part 7, Tables 7-6
to 7-14; AISC 360-22 J3.6 User Note). Lengths in m; the coefficient C is a number of bolts."""

from __future__ import annotations

import math
from functools import lru_cache

from tools.codes.aisc360.instant_centre import group_strength

DELTA_MAX = 0.34 * 0.0254  # m: the deformation of the bolt farthest from the centre at its ultimate load (0.34 in)


def bolt_positions(rows: int, columns: int, spacing: float, gauge: float) -> list[tuple[float, float]]:
    """A rectangular group about its centroid: `columns` lines along y at `gauge`, `rows` bolts a line at `spacing`."""
    return [
        (column * gauge - (columns - 1) * gauge / 2, row * spacing - (rows - 1) * spacing / 2)
        for column in range(columns)
        for row in range(rows)
    ]


def bolt_deformation_strength(deformation: float) -> float:
    """Manual Part 7: R = Rult (1 − e^(−10Δ))^0.55, Δ in inches; as a share of Rult."""
    return float((1 - math.exp(-10 * deformation / 0.0254)) ** 0.55)


@lru_cache(maxsize=512)
def coefficient(bolts: tuple[tuple[float, float], ...], ex: float, theta: float) -> float:
    """Manual Part 7 (Tables 7-6 to 7-14): C, the group's strength in bolts, for a load at the angle θ (radians)
    from the lines whose line of action crosses the centroid's x axis at ex. A load through the centroid is
    shared equally: C = n (AISC 360-22 J3.6). Kept for the group's geometry: C does not depend on the loads."""
    size = max(max(math.hypot(x, y) for x, y in bolts) * 2, 1e-6)
    if abs(ex) < 1e-9 * size:
        return float(len(bolts))

    def strengths(x0: float, y0: float) -> list[tuple[float, float, float]]:
        relative = [(x - x0, y - y0) for x, y in bolts]
        farthest = max(math.hypot(rx, ry) for rx, ry in relative)
        return [(bolt_deformation_strength(DELTA_MAX * math.hypot(rx, ry) / farthest), rx, ry) for rx, ry in relative]

    polar = sum(x * x + y * y for x, y in bolts) / len(bolts)
    return min(group_strength(strengths, abs(ex), theta, size, polar / abs(ex)), float(len(bolts)))
