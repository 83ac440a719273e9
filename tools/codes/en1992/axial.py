"""EN 1992-1-1 axial resistance of a column section: NRd in pure compression (6.1(5), the bars at the strain εc2),
the least eccentricity of 6.1(4) and the limits of longitudinal steel in columns (9.5.2). SI base units."""

from __future__ import annotations

LEAST_ECCENTRICITY = 0.020  # 6.1(4): e0 = h/30, at least 20 mm
MOST_RATIO = 0.04  # 9.5.2(3): As,max = 0.04 Ac outside lap locations (recommended)


def squash_resistance(eta_fcd: float, fyd: float, es: float, eps_c2: float, gross: float, steel: float) -> float:
    """NRd = η fcd (Ac − As) + As min(fyd, Es εc2): the whole section at the strain εc2 (6.1(5))."""
    return eta_fcd * (gross - steel) + min(fyd, es * eps_c2) * steel


def least_eccentricity(h: float) -> float:
    """e0 = max(h/30, 20 mm) (6.1(4))."""
    return max(h / 30, LEAST_ECCENTRICITY)


def minimum_steel(axial: float, fyd: float, gross: float) -> float:
    """As,min = max(0.10 NEd/fyd, 0.002 Ac) (9.5.2(2), eq. 9.12N)."""
    return max(0.10 * axial / fyd, 0.002 * gross)


def maximum_steel(gross: float) -> float:
    """As,max = 0.04 Ac (9.5.2(3))."""
    return MOST_RATIO * gross
