"""EN 1992-1-1 shear of a rectangular section without axial load: 6.2.2(1) without and 6.2.3(3) with vertical
links (the strut angle cot θ from 1 to 2.5 chosen to give the most resistance, z = 0.9 d, ν1 = 0.6(1 − fck/250)),
and the minimum and spacing of links (9.2.2(5), (6)). SI base units; recommended values of the notes."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.codes.en1992.materials import GAMMA_C, MPA

COT_LIMITS = (1.0, 2.5)  # 6.2.3(2) eq. 6.7N, recommended


def depth_factor(d: float) -> float:
    """k = 1 + √(200/d) ≤ 2.0, d in mm (6.2.2(1))."""
    return min(2.0, 1 + math.sqrt(200 / (d * 1000)))


def minimum_stress(fck: float, d: float) -> float:
    """vmin = 0.035 k^1.5 fck^0.5 (6.3N), in Pa."""
    return 0.035 * math.pow(depth_factor(d), 1.5) * math.sqrt(fck / MPA) * MPA


def concrete_stress(fck: float, d: float, rho_l: float) -> float:
    """vRd,c = CRd,c k (100 ρl fck)^(1/3) ≥ vmin, CRd,c = 0.18/γc, ρl ≤ 0.02 (6.2.2(1) eq. 6.2a, 6.2b; 6.4.4(1)
    eq. 6.47 for punching), in Pa."""
    rho = min(rho_l, 0.02)
    formula = 0.18 / GAMMA_C * depth_factor(d) * math.cbrt(100 * rho * fck / MPA) * MPA
    return max(formula, minimum_stress(fck, d))


def strut_reduction(fck: float) -> float:
    """ν1 = 0.6 (1 − fck/250), fck in MPa (6.6N; 6.2.3(3) note 1)."""
    return 0.6 * (1 - fck / MPA / 250)


def unreinforced_limit(fck: float, fcd: float, width: float, d: float) -> float:
    """VEd ≤ 0.5 bw d ν fcd for members without shear reinforcement, ν = 0.6 (1 − fck/250) (6.2.2(6), 6.6N)."""
    return 0.5 * width * d * strut_reduction(fck) * fcd


@dataclass(frozen=True)
class LinkResistance:
    """VRd = min(VRd,s, VRd,max) at the strut angle chosen."""

    cot_theta: float
    steel: float
    crushing: float

    @property
    def resistance(self) -> float:
        return min(self.steel, self.crushing)


def with_links(asw_over_s: float, fywd: float, fcd: float, width: float, d: float, fck: float) -> LinkResistance:
    """VRd,s = Asw/s z fywd cot θ (6.8) and VRd,max = αcw bw z ν1 fcd/(cot θ + tan θ) (6.9), αcw = 1, z = 0.9 d, with
    cot θ in [1, 2.5] where the lesser of the two is greatest."""
    z = 0.9 * d
    unit_steel = asw_over_s * z * fywd
    crushing_factor = width * z * strut_reduction(fck) * fcd
    low, high = COT_LIMITS

    def resistance(cot: float) -> LinkResistance:
        return LinkResistance(cot, unit_steel * cot, crushing_factor / (cot + 1 / cot))

    if resistance(high).steel <= resistance(high).crushing:
        return resistance(high)
    if resistance(low).steel >= resistance(low).crushing:
        return resistance(low)
    # VRd,s = VRd,max: k cot = C cot/(1 + cot²)  →  cot² = C/k − 1
    return resistance(math.sqrt(crushing_factor / unit_steel - 1))


def minimum_link_ratio(fck: float, fyk: float) -> float:
    """ρw,min = 0.08 √fck / fyk (9.5N)."""
    return 0.08 * math.sqrt(fck / MPA) / (fyk / MPA)


def largest_link_spacing(d: float) -> float:
    """sl,max = 0.75 d for vertical links (9.6N)."""
    return 0.75 * d
