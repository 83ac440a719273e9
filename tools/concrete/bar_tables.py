"""The reinforcing bars the concrete tools read, with their sources.

ASTM A615/A615M-22, Table 1 "Deformed Bar Designations, Nominal Weights [Masses], Nominal Dimensions, and
Deformation Requirements": the inch-pound bar designations #3 to #18 with their nominal diameter (in) and
nominal cross-sectional area (in²), the figures ACI 318-19 and its worked examples use (#8: 1.000 in, 0.79 in²).

EN 10080:2005 and BS 4449:2005+A3:2016, Table 5 "Nominal diameters and cross-sectional areas": the nominal
diameters of ribbed weldable bars (6 to 50 mm) with cross-sectional areas π d²/4 (the tabulated areas are
these, rounded: 20 mm is 314.2 mm²). Bars 6 and 50 mm are BS 4449's smallest and largest.
"""

from __future__ import annotations

import math

INCH = 0.0254  # m

# designation: (nominal diameter in, nominal area in²), ASTM A615/A615M-22 Table 1
ASTM_A615: dict[int, tuple[float, float]] = {
    3: (0.375, 0.11),
    4: (0.500, 0.20),
    5: (0.625, 0.31),
    6: (0.750, 0.44),
    7: (0.875, 0.60),
    8: (1.000, 0.79),
    9: (1.128, 1.00),
    10: (1.270, 1.27),
    11: (1.410, 1.56),
    14: (1.693, 2.25),
    18: (2.257, 4.00),
}

# nominal diameters in mm, EN 10080 and BS 4449 Table 5
EN_DIAMETERS: tuple[int, ...] = (6, 8, 10, 12, 16, 20, 25, 32, 40, 50)


def astm_bar(size: int) -> tuple[float, float]:
    """(diameter m, area m²) of ASTM bar #size; ValueError naming the sizes that exist."""
    if size not in ASTM_A615:
        sizes = ", ".join(f"#{s}" for s in ASTM_A615)
        raise ValueError(f"#{size} is not an ASTM A615 bar size; the sizes are {sizes}")
    diameter, area = ASTM_A615[size]
    return diameter * INCH, area * INCH**2


def en_bar(diameter_mm: float) -> tuple[float, float]:
    """(diameter m, area m²) of a metric bar of `diameter_mm`; ValueError naming the diameters that exist."""
    if diameter_mm not in EN_DIAMETERS:
        sizes = ", ".join(str(d) for d in EN_DIAMETERS)
        raise ValueError(f"a {diameter_mm:g} mm bar is not a standard size; EN 10080 and BS 4449 bars are {sizes} mm")
    diameter = diameter_mm / 1000
    return diameter, math.pi * diameter**2 / 4
