"""EN 1993-1-8 Table 3.4 bearing resistance Fb,Rd (k1, αb), the clearance holes of EN 1090-2 Table 11 that it takes,
and 3.10.2 block tearing. SI base units (m, Pa, N); recommended γM0 = 1.0, γM2 = 1.25."""

from __future__ import annotations

import math

GAMMA_M0, GAMMA_M2 = 1.0, 1.25


def hole_diameter(diameter: float) -> float:
    """Normal clearance holes: d0 = d + 2 mm up to M24, d + 3 mm from M27 (EN 1090-2 Table 11, P358)."""
    return diameter + (0.002 if diameter <= 0.0241 else 0.003)


def k1_edge(edge: float, gauge: float | None, hole: float) -> float:
    """Table 3.4: k1 for edge bolts = min(2.8 e2/d0 − 1.7, 1.4 p2/d0 − 1.7, 2.5) (the p2 term with a second line)."""
    terms = [2.8 * edge / hole - 1.7, 2.5] + ([1.4 * gauge / hole - 1.7] if gauge else [])
    return max(min(terms), 0.0)


def k1_inner(gauge: float, hole: float) -> float:
    """Table 3.4: k1 for inner bolts = min(1.4 p2/d0 − 1.7, 2.5)."""
    return max(min(1.4 * gauge / hole - 1.7, 2.5), 0.0)


def alpha_end(end: float, hole: float, fub: float, fu: float) -> float:
    """Table 3.4: αb for end bolts = min(e1/(3d0), fub/fu, 1.0)."""
    return min(end / (3 * hole), fub / fu, 1.0)


def alpha_inner(spacing: float, hole: float, fub: float, fu: float) -> float:
    """Table 3.4: αb for inner bolts = min(p1/(3d0) − 1/4, fub/fu, 1.0)."""
    return max(min(spacing / (3 * hole) - 0.25, fub / fu, 1.0), 0.0)


def bearing_resistance(k1: float, alpha_b: float, fu: float, diameter: float, thickness: float) -> float:
    """Table 3.4: Fb,Rd = k1 αb fu d t / γM2."""
    return k1 * alpha_b * fu * diameter * thickness / GAMMA_M2


def block_tearing(fu: float, fy: float, net_tension: float, net_shear: float, eccentric: bool) -> float:
    """3.10.2 eq. 3.9, Veff,1,Rd = fu Ant/γM2 + (1/√3) fy Anv/γM0, for a concentric group; eq. 3.10, Veff,2,Rd =
    0.5 fu Ant/γM2 + (1/√3) fy Anv/γM0, where the block's tension face takes the load unevenly (one shear face, as
    at a fin plate or a beam's web)."""
    share = 0.5 if eccentric else 1.0
    return share * fu * net_tension / GAMMA_M2 + fy * net_shear / (math.sqrt(3) * GAMMA_M0)
