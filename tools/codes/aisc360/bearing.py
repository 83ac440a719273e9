"""AISC 360-22 J3.11 bearing and tear-out at bolt holes, and the hole sizes of Table J3.3. SI base units (m, Pa, N).

Deformation at the bolt hole at service load is a design consideration (J3.11(a)(1)), the Manual's basis."""

from __future__ import annotations

from tools.codes.aisc360.strength import Strength

PHI_BEARING, OMEGA_BEARING = 0.75, 2.00  # J3.11
INCH = 0.0254
SIXTEENTH = INCH / 16
# Table J3.3M, standard and oversized hole diameters by bolt diameter in mm
METRIC_HOLES = {16: (18, 20), 20: (22, 24), 22: (24, 28), 24: (27, 30), 27: (30, 35), 30: (33, 38)}


def hole_diameter(diameter: float, metric: bool, oversized: bool = False) -> float:
    """Table J3.3 (J3.3M): the nominal diameter of a standard (or oversized) hole, in m.

    Inch: standard d + 1/16 in up to 7/8 in, d + 1/8 in from 1 in; oversized d + 3/16 in up to 7/8 in, 1-1/4 in for
    1 in, d + 5/16 in from 1-1/8 in. Metric: the table, or d + 3 mm (d + 8 mm oversized) from M36."""
    if metric:
        mm = round(diameter * 1000)
        standard, over = METRIC_HOLES.get(mm, (mm + 3, mm + 8))
        return (over if oversized else standard) / 1000
    if not oversized:
        return diameter + (SIXTEENTH if diameter <= 0.875 * INCH + 1e-9 else 2 * SIXTEENTH)
    if diameter <= 0.875 * INCH + 1e-9:
        return diameter + 3 * SIXTEENTH
    return 1.25 * INCH if abs(diameter - INCH) < 1e-9 else diameter + 5 * SIXTEENTH


def clear_distance(centre_distance: float, hole: float, to_edge: bool) -> float:
    """J3.11: lc, the clear distance in the direction of the force between the hole's edge and the edge of the
    material (half a hole from the edge distance) or of the next hole (a whole hole from the spacing)."""
    return centre_distance - (hole / 2 if to_edge else hole)


def bearing(diameter: float, thickness: float, fu: float) -> Strength:
    """J3.11(a)(1) eq. J3-6a: Rn = 2.4 d t Fu, bearing of one bolt on one ply."""
    return Strength(2.4 * diameter * thickness * fu, PHI_BEARING, OMEGA_BEARING, "AISC 360-22 J3.11(a) eq. J3-6a",
                    "bearing")  # fmt: skip


def tear_out(clear: float, thickness: float, fu: float) -> Strength:
    """J3.11(a)(2) eq. J3-6c: Rn = 1.2 lc t Fu, tear-out of one bolt through a ply."""
    return Strength(1.2 * max(clear, 0.0) * thickness * fu, PHI_BEARING, OMEGA_BEARING,
                    "AISC 360-22 J3.11(a) eq. J3-6c", "tear-out")  # fmt: skip
