"""ACI 318-19 development of deformed bars in tension: straight bars (25.4.2.4 with Ktr = 0, Table 25.4.2.5),
standard hooks (25.4.3.1, Table 25.4.3.2) and class B lap splices (25.5.2.1). Lengths in m from SI base units;
the customary expressions are evaluated in psi and inches. λ = 1 (normalweight concrete)."""

from __future__ import annotations

import math

from tools.codes.aci318.materials import PSI

INCH = 0.0254
CONFINEMENT_CAP = 2.5  # 25.4.2.4: (cb + Ktr)/db ≤ 2.5
LEAST_STRAIGHT = 12 * INCH  # 25.4.2.1(b)
CLASS_B = 1.3  # Table 25.5.2.1


def grade_factor(fy: float) -> float:
    """ψg: 1.0 for Grade 40 and 60, 1.15 for Grade 80, 1.3 for Grade 100 (Table 25.4.2.5)."""
    ksi = fy / PSI / 1000
    return 1.0 if ksi <= 60 + 1e-6 else (1.15 if ksi <= 80 + 1e-6 else 1.3)


def coating_factor(epoxy: bool, db: float, clear_cover: float | None, clear_spacing: float | None) -> float:
    """ψe: epoxy or dual-coated bars 1.5 with clear cover under 3db or clear spacing under 6db, else 1.2; uncoated
    or zinc-coated 1.0 (Table 25.4.2.5). Without cover and spacing, the cautious 1.5."""
    if not epoxy:
        return 1.0
    if clear_cover is None or clear_spacing is None or clear_cover < 3 * db or clear_spacing < 6 * db:
        return 1.5
    return 1.2


def straight(fy: float, fc: float, db: float, factors: tuple[float, float, float, float], confinement: float) -> float:
    """ld = (3/40)(fy/(λ√f'c))(ψt ψe ψs ψg/((cb + Ktr)/db)) db ≥ 12 in, with ψt ψe ≤ 1.7 and √f'c ≤ 100 psi
    (25.4.2.4, 25.4.2.1, 25.4.1.4); `factors` are (ψt, ψe, ψs, ψg)."""
    top, coating, size, grade = factors
    root = min(math.sqrt(fc / PSI), 100.0)
    product = min(top * coating, 1.7) * size * grade
    length = 3 / 40 * (fy / PSI) / root * product / min(confinement, CONFINEMENT_CAP) * db
    return max(length, LEAST_STRAIGHT)


def hooked(fy: float, fc: float, db: float, factors: tuple[float, float, float, float]) -> float:
    """ldh = (fy ψe ψr ψo ψc/(55 λ √f'c)) db^1.5 ≥ max(8 db, 6 in), db in inches (25.4.3.1); `factors` are
    (ψe, ψr, ψo, ψc) of Table 25.4.3.2."""
    product = math.prod(factors)
    root = min(math.sqrt(fc / PSI), 100.0)
    inches = (fy / PSI) * product / (55 * root) * math.pow(db / INCH, 1.5)
    return max(inches * INCH, 8 * db, 6 * INCH)


def concrete_strength_factor(fc: float) -> float:
    """ψc = f'c/15,000 + 0.6 below 6,000 psi, else 1.0 (Table 25.4.3.2)."""
    psi = fc / PSI
    return psi / 15_000 + 0.6 if psi < 6000 else 1.0


def lap(development: float) -> float:
    """A class B tension lap: 1.3 ld, at least 12 in (25.5.2.1)."""
    return max(CLASS_B * development, LEAST_STRAIGHT)
