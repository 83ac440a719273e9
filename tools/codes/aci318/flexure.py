"""ACI 318-19 flexure of a rectangular section: the stress block (22.2.2), minimum steel (9.6.1.2 beams, Table
7.6.1.1 one-way slabs) and the strain limit on beams and slabs (9.3.3.1, 7.3.3.1). SI base units (Pa, m)."""

from __future__ import annotations

import math

from tools.codes.aci318.materials import EPS_CU, ES, PSI, beta1
from tools.concrete.strain_compatibility import Block

MIN_NET_TENSILE_STRAIN = 0.004  # 9.3.3.1 and 7.3.3.1: εt ≥ 0.004 when Pu < 0.10 f'c Ag


def block(fc: float, fy: float) -> Block:
    """0.85 f'c uniform over a = β1 c, εcu = 0.003 (22.2.2.4.1, 22.2.2.1), bars at Es ε ≤ fy (20.2.2.1)."""
    return Block(0.85 * fc, beta1(fc), EPS_CU, fy, ES)


def beam_minimum_steel(fc: float, fy: float, width: float, d: float) -> float:
    """As,min = max(3√f'c, 200) bw d / fy, in psi (9.6.1.2(a), (b))."""
    return max(3 * math.sqrt(fc / PSI), 200.0) * PSI * width * d / fy


def slab_minimum_steel(fy: float, gross_area: float) -> float:
    """As,min of Table 7.6.1.1 for deformed bars: 0.0020 Ag below Grade 60, else the greater of
    0.0018 × 60,000/fy Ag and 0.0014 Ag."""
    psi = round(fy / PSI, 6)
    if psi < 60_000:
        return 0.0020 * gross_area
    return max(0.0018 * 60_000 / psi, 0.0014) * gross_area
