"""The column checks of each code on the design interaction curve (`tools.concrete.interaction`): ACI 318-19
(22.4.2.1, 22.4.2.2, 21.2.2, 10.6.1.1, 25.7.2.1) and EN 1992-1-1 (6.1, 6.1(4), 9.5.2, 9.5.3)."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.calculations import Check
from tools.codes.aci318 import axial as aci_axial
from tools.codes.aci318 import flexure as aci_flexure
from tools.codes.aci318.materials import EPS_CU, MIN_STRENGTH, strength_reduction, yield_strain
from tools.codes.en1992 import axial as en_axial
from tools.codes.en1992 import flexure as en_flexure
from tools.codes.en1992.materials import ES, MPA, RECOMMENDED, UK_ANNEX, Parameters, design_yield, strain_limits
from tools.concrete.column_layout import ColumnBars
from tools.concrete.interaction import Point, Section, curve, moment_at_axial, point, radial_ratio
from tools.concrete.materials import Concrete, Steel
from tools.concrete.readout import Findings, limit_check, number_check, shown
from tools.units.showing import System

EN, UK = RECOMMENDED, UK_ANNEX


@dataclass
class ColumnCheck:
    """The design curve, its named points and the load as checked (axial, moment) in SI base units."""

    code: str
    points: list[Point]
    applied: tuple[float, float]
    cap: float
    at_axial: Point | None
    balanced: Point
    pure_bending: Point
    symbols: tuple[str, str]  # ("φPn", "φMn") or ("NRd", "MRd")
    system: System
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    formula: str = ""
    reference: str = ""


def aci(
    width: float,
    height: float,
    bars: ColumnBars,
    materials: tuple[Concrete, Steel],
    loads: tuple[float, float],
    system: System,
) -> ColumnCheck:
    """ACI 318-19: φPn,max = 0.80 φ Po (tied), φ from εt (Table 21.2.2), balanced at εt = εty."""
    (concrete, steel), gross = materials, width * height
    fc, fy = concrete.strength, steel.yield_strength
    if fc < MIN_STRENGTH:
        raise ValueError(f"f'c = {concrete.text} is below 2,500 psi, the least ACI 318-19 19.2.1.1 allows")
    cap = 0.65 * aci_axial.maximum_axial(fc, fy, gross, bars.area)
    section = Section(
        width, height, bars.layers, aci_flexure.block(fc, fy), lambda eps: strength_reduction(eps, fy), 0.90, cap
    )
    deepest = max(depth for depth, _ in bars.rows)
    balanced = point(section, EPS_CU * deepest / (EPS_CU + yield_strain(fy)))
    check = _on_curve("ACI 318-19", section, loads, balanced, ("φPn", "φMn"), system)
    check.formula = (
        "Po = 0.85 f'c (Ag − Ast) + fy Ast; φPn,max = 0.80 φ Po (φ = 0.65, tied); Pn, Mn by strain compatibility "
        "(εcu = 0.003, a = β1 c, 0.85 f'c); φ = 0.65 + 0.25 (εt − εty)/0.003 between εty and εty + 0.003"
    )
    check.reference = "ACI 318-19 22.2, 22.4.2.1, 22.4.2.2, 21.2.2, 10.6.1.1; Es = 29,000 ksi"
    check.checks.insert(0, _axial_cap_check(check, "φPn,max = 0.80 φ Po", "ACI 318-19 22.4.2.1", system))
    ratio = bars.area / gross
    check.checks.append(number_check("ρg ≥ 0.01", ratio, aci_axial.LEAST_RATIO, "ACI 318-19 10.6.1.1", minimum=True))
    check.checks.append(number_check("ρg ≤ 0.08", ratio, aci_axial.MOST_RATIO, "ACI 318-19 10.6.1.1"))
    if ratio > aci_axial.MOST_RATIO:
        check.warnings.append(
            f"ρg = {ratio:.1%} is over the 8 % ACI 318-19 10.6.1.1 allows (4 % is the practical most, with laps): "
            "the bars will not fit with their splices; check the bars and the section."
        )
    return check


def eurocode(
    width: float,
    height: float,
    bars: ColumnBars,
    materials: tuple[Concrete, Steel],
    loads: tuple[float, float],
    variant: Parameters,
    system: System,
) -> ColumnCheck:
    """EN 1992-1-1: NRd,max with the bars at min(fyd, Es εc2); MEd at least NEd e0 (6.1(4)); As limits of 9.5.2."""
    (concrete, steel), gross = materials, width * height
    fck, fyk = concrete.strength, steel.yield_strength
    if fck < 12 * MPA:
        raise ValueError(f"fck = {concrete.text} is below C12/15, the least class of EN 1992-1-1 Table 3.1")
    block = en_flexure.block(fck, fyk, variant.alpha_cc, pivot=True)
    cap = en_axial.squash_resistance(block.stress, design_yield(fyk), ES, strain_limits(fck)[0], gross, bars.area)
    section = Section(width, height, bars.layers, block, lambda _: 1.0, 1.0, cap)
    axial, moment = loads
    eccentric = axial * en_axial.least_eccentricity(height) if axial > 0 else 0.0
    notes = []
    if eccentric > moment:
        notes.append(f"MEd taken as NEd e0 = {eccentric / 1000:.4g} kN·m, e0 = max(h/30, 20 mm) (EN 1992-1-1 6.1(4)).")
    deepest = max(depth for depth, _ in bars.rows)
    balanced = point(section, block.ultimate_strain * deepest / (block.ultimate_strain + design_yield(fyk) / ES))
    check = _on_curve(variant.name, section, (axial, max(moment, eccentric)), balanced, ("NRd", "MRd"), system)
    check.notes += notes
    check.formula = (
        "NRd,max = η fcd (Ac − As) + As min(fyd, Es εc2); NRd, MRd by strain compatibility (εcu3 at the face, "
        "λx, η fcd; pivot εc2 at (1 − εc2/εcu2) h when wholly compressed); MEd ≥ NEd e0"
    )
    check.reference = f"{variant.name}: 3.1.7(3), 6.1, 9.5.2; γc = 1.5, γs = 1.15, αcc = {variant.alpha_cc:g}"
    check.checks.insert(0, _axial_cap_check(check, "NRd,max", "EN 1992-1-1 6.1(5)", system))
    least = en_axial.minimum_steel(max(axial, 0.0), design_yield(fyk), gross)
    check.checks.append(limit_check("As ≥ As,min", bars.area, least, "area", system, "EN 1992-1-1 9.5.2(2)", True))
    most = en_axial.maximum_steel(gross)
    check.checks.append(limit_check("As ≤ As,max", bars.area, most, "area", system, "EN 1992-1-1 9.5.2(3)"))
    if bars.area > 2 * most:
        check.warnings.append(
            f"As = {bars.area / gross:.1%} of Ac, over the 8 % EN 1992-1-1 9.5.2(3) allows even at laps: check the "
            "bars and the section."
        )
    return check


def _on_curve(
    code: str, section: Section, loads: tuple[float, float], balanced: Point, symbols: tuple[str, str], system: System
) -> ColumnCheck:
    points = curve(section)
    axial, moment = loads
    at_axial = moment_at_axial(section, points, axial)
    bending = moment_at_axial(section, points, 0.0)
    assert bending is not None
    check = ColumnCheck(code, points, loads, section.cap, at_axial, balanced, bending, symbols, system)
    ratio = radial_ratio(points, axial, moment)
    p, m = symbols
    check.checks.append(_ratio_check(f"(Pu, Mu) inside ({p}, {m}) at the same eccentricity", ratio, code))
    return check


def _ratio_check(name: str, ratio: float, code: str) -> Check:
    clause = "ACI 318-19 22.4, 21.2.2" if code.startswith("ACI") else "EN 1992-1-1 6.1"
    return number_check(name, ratio, 1.0, clause)


def _axial_cap_check(check: ColumnCheck, name: str, clause: str, system: System) -> Check:
    return limit_check(f"Pu ≤ {name}", max(check.applied[0], 0.0), check.cap, "force", system, clause)


def findings(check: ColumnCheck, found: Findings) -> Findings:
    """The result's figures, checks (in `system`'s units) and words."""
    p, m = check.symbols
    system = check.system
    moment_there = check.at_axial.moment if check.at_axial else 0.0
    found.checks += check.checks
    found.figures.update(
        design_axial_max=(check.cap, "force"),
        design_moment_at_axial=(moment_there, "moment"),
        balanced_axial=(check.balanced.axial, "force"),
        balanced_moment=(check.balanced.moment, "moment"),
        pure_bending=(check.pure_bending.moment, "moment"),
    )
    ratio = next(c.ratio for c in check.checks if "eccentricity" in c.name)
    found.text["interaction_ratio"] = f"{ratio:.3f}"
    if check.at_axial is None:
        found.notes.append(f"The axial load lies outside the curve: {m} at it does not exist (0 shown).")
    elif check.symbols[0] == "φPn":
        found.text["phi"] = f"{check.at_axial.phi:.3f}"
    found.notes = found.notes + check.notes
    found.warnings += check.warnings
    found.formula, found.reference = check.formula, check.reference
    found.substituted.append(
        f"{p},max = {shown(check.cap, 'force', system)}; at {p} = {shown(check.applied[0], 'force', system)}: "
        f"{m} = {shown(moment_there, 'moment', system)}; balanced {shown(check.balanced.axial, 'force', system)}, "
        f"{shown(check.balanced.moment, 'moment', system)}; pure bending "
        f"{shown(check.pure_bending.moment, 'moment', system)}"
    )
    found.covers = "axial load with uniaxial bending of the section, and its longitudinal steel"
    return found


def tie_checks(
    bars: ColumnBars, spacing: float | None, least_side: float, aci: bool, found: Findings, system: System
) -> None:
    """Tie spacing: ACI 318-19 25.7.2.1 min(16 db, 48 dtie, least side); EN 1992-1-1 9.5.3(3) min(20 φ, b, 400 mm)."""
    if spacing is None:
        found.not_checked.append("tie spacing (no spacing was given)")
        return
    if aci:
        largest = min(16 * bars.bar.diameter, 48 * bars.tie, least_side)
        found.checks.append(
            limit_check("s ≤ min(16 db, 48 dtie, b)", spacing, largest, "length", system, "ACI 318-19 25.7.2.1")
        )
    else:
        largest = min(20 * bars.bar.diameter, least_side, 0.400)
        found.checks.append(
            limit_check("scl ≤ min(20 φ, b, 400 mm)", spacing, largest, "length", system, "EN 1992-1-1 9.5.3(3)")
        )
