"""EN 1992-1-1:2004+A1:2014 Section 3: concrete and reinforcing steel for design. SI base units (Pa, m).

`CLASSES` is Table 3.1's strength classes with fck, fck,cube, fctm and fctk,0.05 as tabulated; `Parameters` the
values a code variant uses: γc = 1.5, γs = 1.15 (2.4.2.4, Table 2.1N), αcc 1.0 (recommended, 3.1.6(1)) or 0.85
(UK National Annex, flexure and axial load; 1.0 in shear).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MPA = 1e6
GAMMA_C, GAMMA_S = 1.5, 1.15  # EN 1992-1-1 Table 2.1N, persistent and transient situations
ES = 200e9  # EN 1992-1-1 3.2.7(4)
EPS_C2 = 0.002  # EN 1992-1-1 Table 3.1, fck ≤ 50 MPa
# class: (fck MPa, fck,cube MPa, fctm MPa, fctk,0.05 MPa), EN 1992-1-1 Table 3.1
CLASSES: dict[str, tuple[float, int, float, float]] = {
    "C12": (12, 15, 1.6, 1.1),
    "C16": (16, 20, 1.9, 1.3),
    "C20": (20, 25, 2.2, 1.5),
    "C25": (25, 30, 2.6, 1.8),
    "C30": (30, 37, 2.9, 2.0),
    "C35": (35, 45, 3.2, 2.2),
    "C40": (40, 50, 3.5, 2.5),
    "C45": (45, 55, 3.8, 2.7),
    "C50": (50, 60, 4.1, 2.9),
    "C55": (55, 67, 4.2, 3.0),
    "C60": (60, 75, 4.4, 3.1),
    "C70": (70, 85, 4.6, 3.2),
    "C80": (80, 95, 4.8, 3.4),
    "C90": (90, 105, 5.0, 3.5),
}


@dataclass(frozen=True)
class Parameters:
    """A variant's coefficients: αcc in flexure and axial load, αcc in shear, vRd,max's coefficient at u0."""

    name: str
    alpha_cc: float
    alpha_cc_shear: float
    punching_max: float


RECOMMENDED = Parameters("EN 1992-1-1 (recommended values)", 1.0, 1.0, 0.4)
UK_ANNEX = Parameters("EN 1992-1-1 with the UK National Annex", 0.85, 1.0, 0.5)


def tensile_strengths(fck: float) -> tuple[float, float]:
    """(fctm, fctk,0.05) in Pa: Table 3.1's figures for its classes, else its formulas (0.30 fck^(2/3) up to C50/60,
    2.12 ln(1 + fcm/10) above; fctk,0.05 = 0.7 fctm)."""
    for row in CLASSES.values():
        if abs(row[0] - fck / MPA) < 1e-6:
            return row[2] * MPA, row[3] * MPA
    mpa = fck / MPA
    fctm = 0.30 * mpa ** (2 / 3) if mpa <= 50 else 2.12 * math.log(1 + (mpa + 8) / 10)
    return fctm * MPA, 0.7 * fctm * MPA


def design_compressive(fck: float, alpha_cc: float) -> float:
    """fcd = αcc fck / γc (3.15)."""
    return alpha_cc * fck / GAMMA_C


def design_yield(fyk: float) -> float:
    """fyd = fyk / γs (3.2.7(2), Figure 3.8, horizontal top branch)."""
    return fyk / GAMMA_S


def stress_block(fck: float) -> tuple[float, float, float]:
    """(λ, η, εcu3) of the rectangular stress distribution, 3.1.7(3) eq. 3.19 to 3.22 and Table 3.1."""
    mpa = fck / MPA
    if mpa <= 50:
        return 0.8, 1.0, 0.0035
    return 0.8 - (mpa - 50) / 400, 1.0 - (mpa - 50) / 200, (2.6 + 35 * ((90 - mpa) / 100) ** 4) / 1000


def strain_limits(fck: float) -> tuple[float, float]:
    """(εc2, εcu2) of Table 3.1: the strain at the pivot of a section wholly in compression (6.1(5), Figure 6.1)."""
    mpa = fck / MPA
    if mpa <= 50:
        return EPS_C2, 0.0035
    return (2.0 + 0.085 * (mpa - 50) ** 0.53) / 1000, (2.6 + 35 * ((90 - mpa) / 100) ** 4) / 1000
