"""ACI 318-19 axial strength of a tied column: 22.4.2.2 (Po), 22.4.2.1 (Pn,max), 22.4.3 (pure tension) and the
limits of longitudinal steel (10.6.1.1). SI base units (Pa, m², N)."""

from __future__ import annotations

TIED_CAP = 0.80  # Table 22.4.2.1(a): Pn,max = 0.80 Po for tied columns
LEAST_RATIO, MOST_RATIO = 0.01, 0.08  # 10.6.1.1: 0.01 Ag ≤ Ast ≤ 0.08 Ag
PHI_TENSION = 0.90  # Table 21.2.2: tension-controlled


def squash_load(fc: float, fy: float, gross: float, steel: float) -> float:
    """Po = 0.85 f'c (Ag − Ast) + fy Ast (22.4.2.2)."""
    return 0.85 * fc * (gross - steel) + fy * steel


def maximum_axial(fc: float, fy: float, gross: float, steel: float) -> float:
    """Pn,max = 0.80 Po for a tied column (22.4.2.1, Table 22.4.2.1(a))."""
    return TIED_CAP * squash_load(fc, fy, gross, steel)


def tension_strength(fy: float, steel: float) -> float:
    """Pnt = fy Ast (22.4.3.1)."""
    return fy * steel
