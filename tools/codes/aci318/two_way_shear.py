"""ACI 318-19 two-way shear of a slab at a rectangular column without shear reinforcement: the critical section at
d/2 (22.6.4), vc of Table 22.6.5.2 with λs, the share of unbalanced moment transferred by shear (8.4.2.2,
8.4.4.2) and the stress it adds (R8.4.4.2.3). SI base units; √f'c ≤ 100 psi (22.6.3.1).

Positions: "interior"; "edge" with the slab edge at the column's outer face, parallel to c2 (moment about an axis
parallel to the edge); "corner" with both slab edges at the column's faces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.codes.aci318.materials import root_fc
from tools.codes.aci318.shear import size_effect

ALPHA_S = {"interior": 40, "edge": 30, "corner": 20}  # 22.6.5.3


@dataclass(frozen=True)
class CriticalSection:
    """The critical section: b1 (in the moment's direction), b2, b0, and its properties for moment transfer."""

    b1: float
    b2: float
    perimeter: float
    centroid_to_inner_face: float  # c_AB: from the centroid to the face where the stresses add
    polar: float  # Jc
    offset: float  # from the column's centroid to the section's, toward the interior


def critical_section(c1: float, c2: float, d: float, position: str) -> CriticalSection:
    """b0 at d/2 from the column faces (22.6.4.1) and Jc of R8.4.4.2.3 for each position."""
    if position == "interior":
        b1, b2 = c1 + d, c2 + d
        polar = d * b1**3 / 6 + b1 * d**3 / 6 + d * b2 * b1**2 / 2
        return CriticalSection(b1, b2, 2 * (b1 + b2), b1 / 2, polar, 0.0)
    b1 = c1 + d / 2
    b2 = c2 + (d if position == "edge" else d / 2)
    sides = 2 if position == "edge" else 1
    perimeter = sides * b1 + b2
    c_ab = sides * b1**2 / 2 / perimeter  # from the inner face (the b2 side) to the centroid
    polar = sides * (d * b1**3 / 12 + b1 * d**3 / 12 + b1 * d * (b1 / 2 - c_ab) ** 2) + b2 * d * c_ab**2
    return CriticalSection(b1, b2, perimeter, c_ab, polar, (b1 - c_ab) - c1 / 2)


def concrete_stress(fc: float, d: float, perimeter: float, beta: float, position: str, lam: float = 1.0) -> float:
    """vc: the least of 4, (2 + 4/β) and (2 + αs d/b0), times λs λ √f'c (Table 22.6.5.2)."""
    factor = min(4.0, 2 + 4 / beta, 2 + ALPHA_S[position] * d / perimeter)
    return factor * size_effect(d) * lam * root_fc(fc)


def shear_share(b1: float, b2: float) -> float:
    """γv = 1 − γf, γf = 1/(1 + (2/3)√(b1/b2)) (8.4.2.2.2, 8.4.4.2.2)."""
    return 1 - 1 / (1 + 2 / 3 * math.sqrt(b1 / b2))


def stress(force: float, moment: float, section: CriticalSection, d: float) -> float:
    """vu = Vu/(b0 d) + γv Munb c_AB / Jc, Munb = Mu − Vu e about the section's centroid (8.4.4.2.3, R8.4.4.2.3)."""
    unbalanced = abs(moment - force * section.offset) if moment else 0.0
    direct = force / (section.perimeter * d)
    return direct + shear_share(section.b1, section.b2) * unbalanced * section.centroid_to_inner_face / section.polar
