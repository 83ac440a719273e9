"""EN 1992-1-1 anchorage and laps of ribbed bars in tension: the ultimate bond stress (8.4.2), the basic required
anchorage length (8.4.3), the design anchorage length with α1 and α2 of Table 8.2 (α3 = α4 = α5 = 1, 8.4.4) and
the design lap length with α6 = 1.5 (8.7.3). SI base units; the bar fully stressed, σsd = fyd."""

from __future__ import annotations

from tools.codes.en1992.materials import GAMMA_C

LAP_FACTOR = 1.5  # 8.7.3 Table 8.3: α6 for more than 50 % of the bars lapped at one section


def bond_stress(fctk005: float, diameter: float, good: bool) -> float:
    """fbd = 2.25 η1 η2 fctd, fctd = αct fctk,0.05/γc (αct = 1), η1 = 1.0 good or 0.7 poor bond, η2 = 1 up to
    32 mm, else (132 − φ)/100 (8.4.2(2), eq. 8.2)."""
    eta1 = 1.0 if good else 0.7
    mm = diameter * 1000
    eta2 = 1.0 if mm <= 32 else (132 - mm) / 100
    return 2.25 * eta1 * eta2 * fctk005 / GAMMA_C


def basic_length(diameter: float, stress: float, bond: float) -> float:
    """lb,rqd = (φ/4)(σsd/fbd) (8.4.3(2), eq. 8.3)."""
    return diameter / 4 * stress / bond


def shape_factors(diameter: float, cd: float | None, bent: bool) -> tuple[float, float]:
    """(α1, α2) of Table 8.2 in tension: straight 1.0 and 1 − 0.15(cd − φ)/φ; other shapes 0.7 where cd > 3φ (else
    1.0) and 1 − 0.15(cd − 3φ)/φ; α2 within 0.7 and 1.0; without cd, 1.0 for both."""
    if cd is None:
        return 1.0, 1.0
    if bent:
        return (0.7 if cd > 3 * diameter else 1.0), min(1.0, max(0.7, 1 - 0.15 * (cd - 3 * diameter) / diameter))
    return 1.0, min(1.0, max(0.7, 1 - 0.15 * (cd - diameter) / diameter))


def design_length(basic: float, alpha1: float, alpha2: float, diameter: float) -> float:
    """lbd = α1 α2 lb,rqd ≥ lb,min = max(0.3 lb,rqd, 10φ, 100 mm) (8.4.4(1), eq. 8.4, 8.6)."""
    return max(alpha1 * alpha2 * basic, 0.3 * basic, 10 * diameter, 0.100)


def lap_length(basic: float, alpha1: float, alpha2: float, diameter: float) -> float:
    """l0 = α1 α2 α6 lb,rqd ≥ l0,min = max(0.3 α6 lb,rqd, 15φ, 200 mm), α6 = 1.5 (8.7.3(1), eq. 8.10, 8.11)."""
    return max(alpha1 * alpha2 * LAP_FACTOR * basic, 0.3 * LAP_FACTOR * basic, 15 * diameter, 0.200)
