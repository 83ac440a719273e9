"""EN 1990:2002 Annex A1 for buildings: the fundamental combinations of 6.4.3.2, eq. 6.10, or the less favourable of
6.10a and 6.10b, with Table A1.2(B)'s partial factors and Table A1.1's ψ0, recommended or the UK National Annex's
(NA to BS EN 1990:2002+A1:2005, Tables NA.A1.1 and NA.A1.2(B): ξ = 0.925, ψ0 = 0.5 for wind)."""

from __future__ import annotations

Combination = tuple[str, dict[str, float]]
GAMMA_G_SUP, GAMMA_G_INF, GAMMA_Q = 1.35, 1.0, 1.5  # Table A1.2(B), recommended and UK
XI = 0.925  # 6.10b's reduction factor for unfavourable permanent actions (recommended 0.85; the UK NA 0.925)
PSI0 = {  # imposed (categories A to D), snow (sites up to 1000 m), wind
    None: {"Q": 0.7, "S": 0.5, "W": 0.6},
    "UK": {"Q": 0.7, "S": 0.5, "W": 0.5},
}


def name(factors: dict[str, float]) -> str:
    """ "1.35G + 1.5S + 1.05Q", "1.0G + 1.5W", "1.25G + 1.5Q" (ξ × 1.35 = 1.249, written as the UK NA writes it): 1
    is written 1.0, as EN 1990 writes it."""
    return " + ".join(f"{f:.1f}{s}" if f == 1 else f"{round(f, 2 if s == 'G' else 3):g}{s}" for s, f in factors.items())


def eq_6_10(unfavourable: list[str], gamma_g: float, annex: str | None) -> list[Combination]:
    """Eq. 6.10: γG G + γQ Qk,1 + Σ γQ ψ0,i Qk,i, each unfavourable variable action leading in turn."""
    psi = PSI0[annex]
    found = []
    for leading in unfavourable:
        factors = {"G": gamma_g, leading: GAMMA_Q}
        factors.update({other: round(GAMMA_Q * psi[other], 3) for other in unfavourable if other != leading})
        found.append((name(factors), factors))
    return found


def eq_6_10a(unfavourable: list[str], annex: str | None) -> Combination:
    """Eq. 6.10a: γG,sup G + Σ γQ ψ0,i Qk,i, every variable action at its combination value."""
    factors = {"G": GAMMA_G_SUP, **{s: round(GAMMA_Q * PSI0[annex][s], 3) for s in unfavourable}}
    return name(factors), factors


def eq_6_10b(unfavourable: list[str], annex: str | None) -> list[Combination]:
    """Eq. 6.10b: ξ γG,sup G + γQ Qk,1 + Σ γQ ψ0,i Qk,i, each unfavourable variable action leading in turn."""
    return [(name(f), f) for _, f in ((n, {**f, "G": XI * GAMMA_G_SUP}) for n, f in eq_6_10(unfavourable, GAMMA_G_SUP,
                                                                                               annex))]  # fmt: skip
