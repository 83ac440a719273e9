"""ACI 318-19 one-way shear of a rectangular section without axial load: 22.5 with Table 22.5.5.1, minimum shear
reinforcement (9.6.3.1, 9.6.3.4) and stirrup spacing (9.7.6.2.2). SI base units; √f'c ≤ 100 psi (22.5.3.1)."""

from __future__ import annotations

import math

from tools.codes.aci318.materials import PSI, root_fc

INCH = 0.0254
MAX_STIRRUP_YIELD = 60_000 * PSI  # Table 20.2.2.4(a): fyt for shear at most 60,000 psi


def size_effect(d: float) -> float:
    """λs = √(2 / (1 + d/10)) ≤ 1, d in inches (22.5.5.1.3)."""
    return min(1.0, math.sqrt(2 / (1 + d / INCH / 10)))


def concrete_with_minimum_stirrups(fc: float, width: float, d: float, lam: float = 1.0) -> float:
    """Vc = 2λ√f'c bw d (Table 22.5.5.1(a), Nu = 0), permitted where Av ≥ Av,min."""
    return 2 * lam * root_fc(fc) * width * d


def concrete_without_minimum_stirrups(fc: float, width: float, d: float, rho_w: float, lam: float = 1.0) -> float:
    """Vc = 8λs λ ρw^(1/3) √f'c bw d (Table 22.5.5.1(c), Nu = 0), where Av < Av,min."""
    return 8 * size_effect(d) * lam * math.cbrt(rho_w) * root_fc(fc) * width * d


def concrete_limit(fc: float, width: float, d: float, lam: float = 1.0) -> float:
    """Vc ≤ 5λ√f'c bw d (22.5.5.1.1)."""
    return 5 * lam * root_fc(fc) * width * d


def stirrups(area: float, fyt: float, d: float, spacing: float) -> float:
    """Vs = Av fyt d / s for stirrups perpendicular to the axis (22.5.8.5.3), fyt ≤ 60,000 psi."""
    return area * min(fyt, MAX_STIRRUP_YIELD) * d / spacing


def stirrup_limit(fc: float, width: float, d: float) -> float:
    """The largest Vs the section's size permits: 8√f'c bw d (22.5.1.2)."""
    return 8 * root_fc(fc) * width * d


def minimum_stirrups(fc: float, fyt: float, width: float, spacing: float) -> float:
    """Av,min = max(0.75√f'c, 50) bw s / fyt, in psi (Table 9.6.3.4(a), (b))."""
    return max(0.75 * math.sqrt(fc / PSI), 50.0) * PSI * width * spacing / min(fyt, MAX_STIRRUP_YIELD)


def minimum_stirrups_threshold(fc: float, width: float, d: float, lam: float = 1.0, phi: float = 0.75) -> float:
    """The Vu above which a beam needs Av,min: φλ√f'c bw d (9.6.3.1)."""
    return phi * lam * root_fc(fc) * width * d


def largest_spacing(fc: float, width: float, d: float, vs: float) -> float:
    """The largest stirrup spacing: d/2 and 24 in, halved where Vs > 4√f'c bw d (Table 9.7.6.2.2)."""
    if vs > 4 * root_fc(fc) * width * d:
        return min(d / 4, 12 * INCH)
    return min(d / 2, 24 * INCH)
