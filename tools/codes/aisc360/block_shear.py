"""AISC 360-22 J4.3 block shear rupture, with the net areas of B4.3b. SI base units (m, Pa, N)."""

from __future__ import annotations

from tools.codes.aisc360.strength import Strength

PHI_BLOCK, OMEGA_BLOCK = 0.75, 2.00  # J4.3


def net_hole_width(hole: float, metric: bool) -> float:
    """B4.3b: the width of a bolt hole taken 1/16 in (2 mm) greater than its nominal dimension."""
    return hole + (0.002 if metric else 0.0254 / 16)


def tension_stress_factor(lines: int) -> float:
    """J4.3 User Note: Ubs = 1 where the tension stress is uniform (one line of bolts), 0.5 where it is not."""
    return 1.0 if lines == 1 else 0.5


def block_shear(areas: tuple[float, float, float], fy: float, fu: float, ubs: float) -> Strength:
    """J4.3 eq. J4-5: Rn = 0.60 Fu Anv + Ubs Fu Ant ≤ 0.60 Fy Agv + Ubs Fu Ant, with (Agv, Anv, Ant)."""
    gross_shear, net_shear, net_tension = areas
    rupture = 0.60 * fu * net_shear + ubs * fu * net_tension
    yielding = 0.60 * fy * gross_shear + ubs * fu * net_tension
    governs = "shear yielding on the gross area" if yielding < rupture else "shear rupture on the net area"
    return Strength(min(rupture, yielding), PHI_BLOCK, OMEGA_BLOCK, "AISC 360-22 J4.3 eq. J4-5", "block shear",
                    governs)  # fmt: skip
