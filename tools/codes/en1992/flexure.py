"""EN 1992-1-1 bending of a rectangular section: the rectangular stress distribution (3.1.7(3)) with the strain
limits of 6.1, and the limits of longitudinal steel in beams (9.2.1.1) and slabs (9.3.1.1). SI base units."""

from __future__ import annotations

from tools.codes.en1992.materials import ES, design_compressive, design_yield, strain_limits, stress_block
from tools.concrete.strain_compatibility import Block

LIMIT_DEPTH_RATIO = 0.448  # 5.5(4) with the recommended k1 = 0.44, k2 = 1.25: xu/d for δ = 1 (no redistribution)


def block(fck: float, fyk: float, alpha_cc: float, pivot: bool = False) -> Block:
    """η fcd over λ x with εcu3 at the compression face (3.1.7(3), 6.1(3)); bars at Es ε ≤ fyd (3.2.7(2)b); with
    `pivot`, a section wholly in compression turns about εc2 at (1 − εc2/εcu2) h (6.1(5), Figure 6.1)."""
    lam, eta, eps_cu3 = stress_block(fck)
    eps_c2 = strain_limits(fck)[0] if pivot else None
    return Block(eta * design_compressive(fck, alpha_cc), lam, eps_cu3, design_yield(fyk), ES, eps_c2)


def minimum_steel(fctm: float, fyk: float, width: float, d: float) -> float:
    """As,min = 0.26 fctm/fyk bt d, at least 0.0013 bt d (9.2.1.1(1), eq. 9.1N; slabs by 9.3.1.1(1))."""
    return max(0.26 * fctm / fyk, 0.0013) * width * d


def maximum_steel(gross_area: float) -> float:
    """As,max = 0.04 Ac outside lap locations (9.2.1.1(3), recommended value)."""
    return 0.04 * gross_area
