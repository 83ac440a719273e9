"""BS EN 10025-2:2019 Tables 7 and 8 (hot-rolled non-alloy structural steels): the minimum yield strength by nominal
thickness and the minimum tensile strength, which the UK National Annex to EN 1993-1-1 (NA.2.4) takes for fy and fu
in place of EN 1993-1-1 Table 3.1. SI base units (m, Pa)."""

from __future__ import annotations

# ReH in N/mm² for t ≤ 16, 16 < t ≤ 40, 40 < t ≤ 63, 63 < t ≤ 80, 80 < t ≤ 100 mm; Rm for 3 < t ≤ 100 mm
YIELD = {"S235": (235, 225, 215, 215, 215), "S275": (275, 265, 255, 245, 235), "S355": (355, 345, 335, 325, 315)}
TENSILE = {"S235": 360, "S275": 410, "S355": 470}
LIMITS_MM = (16, 40, 63, 80, 100)


def yield_strength(grade: str, thickness: float) -> float:
    """Table 7: ReH for the grade and the nominal thickness (m), in Pa."""
    mm = thickness * 1000
    for limit, value in zip(LIMITS_MM, YIELD[grade], strict=True):
        if mm <= limit + 1e-9:
            return value * 1e6
    raise ValueError(f"{mm:g} mm is thicker than BS EN 10025-2's tables for {grade} here (100 mm)")


def tensile_strength(grade: str) -> float:
    """Table 8: the least Rm for 3 < t ≤ 100 mm, in Pa."""
    return TENSILE[grade] * 1e6
