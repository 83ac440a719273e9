"""AISC 360-22 Chapter E for rolled I shapes, channels, HSS and pipe: E3, E4 and E7.

Flexural buckling about each axis (E3), torsional buckling of doubly symmetric I shapes
(E4-2) and flexural-torsional buckling of channels about their axis of symmetry (E4-3, with
r̄o and H as the Shapes Database publishes them), then the effective area of slender
elements (E7.1 with Table E7.1, E7.2 for round HSS). SI base units (Pa, m, N).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.codes.aisc360.flexure import E_STEEL
from tools.shapes.column_section import ColumnSection, Element

G_STEEL = 11_200 * 6.894757293168361e6  # 11,200 ksi in Pa (AISC 360-22 E4)
PHI_COMPRESSION, OMEGA_COMPRESSION = 0.90, 1.67  # AISC 360-22 E1
# Table E7.1: effective width imperfection adjustment factors (c1, c2)
STIFFENED, HSS_WALLS, UNSTIFFENED = (0.18, 1.31), (0.20, 1.38), (0.22, 1.49)


@dataclass(frozen=True)
class Mode:
    """One elastic buckling mode: its stress Fe, the slenderness it corresponds to, and where Fe comes from."""

    name: str
    axis: str
    fe: float
    slenderness: float
    equation: str


@dataclass(frozen=True)
class Reduction:
    """How much of one kind of element E7 leaves effective."""

    element: Element
    limit: float
    effective_width: float
    local_stress: float


@dataclass(frozen=True)
class AxialStrength:
    """Pn = Fn Ae with the mode that gives Fn and every mode considered."""

    nominal: float
    fn: float
    governing: Mode
    modes: tuple[Mode, ...]
    effective_area: float
    reductions: tuple[Reduction, ...]
    slender: tuple[str, ...]

    def design(self, method: str) -> float:
        """φcPn for LRFD, Pn/Ωc for ASD."""
        return self.nominal * PHI_COMPRESSION if method == "LRFD" else self.nominal / OMEGA_COMPRESSION

    @property
    def clause(self) -> str:
        section = "E7" if self.slender else ("E4" if self.governing.equation.startswith("E4") else "E3")
        return f"AISC 360-22 {section}"


def nominal_stress(fe: float, fy: float) -> tuple[float, str]:
    """Fn = 0.658^(Fy/Fe) Fy when Fy/Fe ≤ 2.25 (E3-2), else 0.877 Fe (E3-3)."""
    if fy / fe <= 2.25:
        return 0.658 ** (fy / fe) * fy, "E3-2"
    return 0.877 * fe, "E3-3"


def euler(slenderness: float) -> float:
    """Fe = π²E / (Lc/r)²  (E3-4)."""
    return math.pi**2 * E_STEEL / slenderness**2


def elastic_modes(section: ColumnSection, lcx: float, lcy: float, lcz: float) -> tuple[Mode, ...]:
    """Flexural buckling about x and y; torsional (I shapes, E4-2) or flexural-torsional (channels, E4-3)."""
    about_x, about_y = lcx / section.r_x, lcy / section.r_y
    modes = [
        Mode("flexural buckling about the major axis", "x-x", euler(about_x), about_x, "E3-4"),
        Mode("flexural buckling about the minor axis", "y-y", euler(about_y), about_y, "E3-4"),
    ]
    twist = math.pi**2 * E_STEEL * section.warping / lcz**2 + G_STEEL * section.J
    if section.kind == "I":
        fe = twist / (section.I_x + section.I_y)  # E4-2
        modes.append(Mode("torsional buckling", "torsional", fe, _equivalent(fe), "E4-2"))
    elif section.kind == "channel":
        fez = twist / (section.area * section.r_o**2)  # E4-7
        fex, h = modes[0].fe, section.H  # a channel is symmetric about x: Fex takes the place of Fey
        fe = (fex + fez) / (2 * h) * (1 - math.sqrt(1 - 4 * fex * fez * h / (fex + fez) ** 2))  # E4-3
        modes.append(Mode("flexural-torsional buckling", "flexural-torsional", fe, _equivalent(fe), "E4-3"))
    return tuple(modes)


def _equivalent(fe: float) -> float:
    """The Lc/r that E3-4 would give this Fe (the E3 user note's equivalent slenderness)."""
    return math.pi * math.sqrt(E_STEEL / fe)


def limiting_ratio(section: ColumnSection, element: Element, fy: float) -> float:
    """λr for members in axial compression (Table B4.1a, cases 1, 5 and 6)."""
    root = math.sqrt(E_STEEL / fy)
    if element.hss_wall:
        return 1.40 * root
    return 1.49 * root if element.stiffened else 0.56 * root


def effective_width(element: Element, limit: float, fy: float, fn: float) -> Reduction:
    """be = b when λ ≤ λr √(Fy/Fn) (E7-2); else b (1 − c1 √(Fel/Fn)) √(Fel/Fn) with Fel = (c2 λr/λ)² Fy."""
    bound = limit * math.sqrt(fy / fn)
    if element.ratio <= bound:
        return Reduction(element, bound, element.width, 0.0)
    c1, c2 = HSS_WALLS if element.hss_wall else (STIFFENED if element.stiffened else UNSTIFFENED)
    fel = (c2 * limit / element.ratio) ** 2 * fy  # E7-5
    root = math.sqrt(fel / fn)
    return Reduction(element, bound, element.width * (1 - c1 * root) * root, fel)  # E7-3


def round_effective_area(section: ColumnSection, fy: float) -> float:
    """E7.2: Ae = Ag for D/t ≤ 0.11 E/Fy; [0.038 E/(Fy D/t) + 2/3] Ag up to 0.45 E/Fy (E7-7)."""
    ratio = section.diameter / section.wall
    if ratio <= 0.11 * E_STEEL / fy:
        return section.area
    if ratio >= 0.45 * E_STEEL / fy:
        raise ValueError(
            f"{section.designation} has D/t = {ratio:.0f}, beyond 0.45 E/Fy = {0.45 * E_STEEL / fy:.0f}, "
            "where AISC 360-22 E7.2 stops; choose a thicker wall"
        )
    return (0.038 * E_STEEL / (fy * ratio) + 2 / 3) * section.area


def slender_elements(section: ColumnSection, fy: float) -> tuple[str, ...]:
    """The elements whose width-to-thickness ratio exceeds λr (Table B4.1a): E7 applies to them."""
    if section.kind == "round":
        ratio = section.diameter / section.wall
        return (f"wall D/t = {ratio:.1f} > {0.11 * E_STEEL / fy:.1f}",) if ratio > 0.11 * E_STEEL / fy else ()
    return tuple(
        f"{e.name} = {e.ratio:.1f} > λr = {limiting_ratio(section, e, fy):.1f}"
        for e in section.elements
        if e.ratio > limiting_ratio(section, e, fy)
    )


def compressive_strength(section: ColumnSection, fy: float, lcx: float, lcy: float, lcz: float) -> AxialStrength:
    """Pn (E3-1, E4-1 or E7-1) of the governing mode: the least of every mode's strength."""
    return min(mode_strengths(section, fy, lcx, lcy, lcz), key=lambda strength: strength.nominal)


def mode_strengths(section: ColumnSection, fy: float, lcx: float, lcy: float, lcz: float) -> list[AxialStrength]:
    """Pn = Fn Ae for each elastic buckling mode, Fn from its Fe and Ae from E7 at that Fn."""
    modes = elastic_modes(section, lcx, lcy, lcz)
    slender = slender_elements(section, fy)
    return [_strength(section, fy, mode, modes, slender) for mode in modes]


def _strength(
    section: ColumnSection, fy: float, mode: Mode, modes: tuple[Mode, ...], slender: tuple[str, ...]
) -> AxialStrength:
    fn, _ = nominal_stress(mode.fe, fy)
    reductions: tuple[Reduction, ...] = ()
    area = section.area
    if section.kind == "round":
        area = round_effective_area(section, fy)
    elif slender:
        reductions = tuple(effective_width(e, limiting_ratio(section, e, fy), fy, fn) for e in section.elements)
        area -= sum((r.element.width - r.effective_width) * r.element.thickness * r.element.count for r in reductions)
    return AxialStrength(fn * area, fn, mode, modes, area, reductions, slender)
