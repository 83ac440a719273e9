"""A rectangular beam or one-way slab to EN 1992-1-1: bending by strain compatibility with the rectangular stress
distribution (6.1, 3.1.7(3)), longitudinal steel limits (9.2.1.1, 9.3.1.1), shear without (6.2.2) and with vertical
links (6.2.3, cot θ from 1 to 2.5 chosen for the most resistance), minimum links and their spacing (9.2.2)."""

from __future__ import annotations

from tools.codes.en1992 import flexure, shear
from tools.codes.en1992.materials import GAMMA_C, MPA, Parameters, design_yield, tensile_strengths
from tools.concrete.materials import Concrete, Steel
from tools.concrete.readout import Findings, limit_check, number_check, shown
from tools.concrete.section import BeamSection
from tools.concrete.strain_compatibility import Layer, depth_for_axial


def check_beam(
    section: BeamSection, concrete: Concrete, steel: Steel, loads: tuple[float, float], variant: Parameters
) -> Findings:
    """Every check of the section under MEd and VEd (N·m, N)."""
    fck, fyk = concrete.strength, steel.yield_strength
    if fck < 12 * MPA:
        raise ValueError(f"fck = {concrete.text} is below C12/15, the least class of EN 1992-1-1 Table 3.1")
    moment, force = loads
    found = Findings(
        reference=f"{variant.name}: 3.1.7(3), 6.1, 6.2.2, 6.2.3, 9.2.1.1, 9.2.2, 9.3.1.1; γc = 1.5, γs = 1.15, "
        f"αcc = {variant.alpha_cc:g} (flexure), {variant.alpha_cc_shear:g} (shear); Es = 200 GPa"
    )
    _bending(section, fck, fyk, moment, variant, found)
    if force > 0:
        _shear(section, fck, fyk, force, variant, found)
    else:
        found.not_checked.append("shear: no shear force was given (shear = 0)")
    found.covers = f"bending, {'shear, ' if force > 0 else ''}minimum and maximum steel of the section"
    return found


def _bending(section: BeamSection, fck: float, fyk: float, moment: float, variant: Parameters, found: Findings) -> None:
    system, b, d = section.system, section.width, section.d
    layers = [Layer(d, section.tension_area)]
    if section.compression_area > 0:
        layers.append(Layer(section.compression_depth, section.compression_area))
    block = flexure.block(fck, fyk, variant.alpha_cc)
    forces = depth_for_axial(0.0, b, section.height, tuple(layers), block)
    found.checks.append(limit_check("MEd ≤ MRd", moment, forces.moment, "moment", system, "EN 1992-1-1 6.1, 3.1.7(3)"))
    fctm = tensile_strengths(fck)[0]
    least = flexure.minimum_steel(fctm, fyk, b, d)
    clause = "EN 1992-1-1 9.3.1.1(1), 9.2.1.1(1)" if section.slab else "EN 1992-1-1 9.2.1.1(1)"
    found.checks.append(limit_check("As ≥ As,min", section.tension_area, least, "area", system, clause, minimum=True))
    most = flexure.maximum_steel(b * section.height)
    for name, area in (("As", section.tension_area), ("As2", section.compression_area)):
        if area > 0:
            found.checks.append(limit_check(f"{name} ≤ As,max", area, most, "area", system, "EN 1992-1-1 9.2.1.1(3)"))
    if section.slab and section.tension.spacing is not None:
        largest = min(3 * section.height, 0.400)
        found.checks.append(
            limit_check(
                "s ≤ min(3h, 400 mm)", section.tension.spacing, largest, "length", system, "EN 1992-1-1 9.3.1.1(3)"
            )
        )
    if forces.c / d > flexure.LIMIT_DEPTH_RATIO:
        found.warnings.append(
            f"x/d = {forces.c / d:.2f} is over 0.45: without redistribution the section is less ductile than "
            "EN 1992-1-1 "
            "5.5(4) assumes (recommended k1, k2); compression steel or a deeper section would help."
        )
    found.figures.update(
        design_moment=(forces.moment, "moment"),
        neutral_axis_depth=(forces.c, "length"),
        steel_area=(section.tension_area, "area"),
        minimum_steel=(least, "area"),
    )
    found.formula = (
        "η fcd λx b + As2 (σs2 − η fcd) = As σs; MRd = η fcd λx b (d − λx/2) + As2 (σs2 − η fcd)(d − d2); "
        "VRd,c = CRd,c k (100 ρl fck)^(1/3) bw d ≥ vmin bw d; VRd,s = Asw/s z fywd cot θ, "
        "VRd,max = bw z ν1 fcd/(cot θ + tan θ)"
    )
    found.substituted.append(
        f"b = {shown(b, 'length', system)}, d = {shown(d, 'length', system)}, As = "
        f"{shown(section.tension_area, 'area', system)}, fcd = {shown(block.stress, 'stress', system)}, fyd = "
        f"{shown(design_yield(fyk), 'stress', system)}: x = {shown(forces.c, 'length', system)}, MRd = "
        f"{shown(forces.moment, 'moment', system)}"
    )


def _shear(section: BeamSection, fck: float, fyk: float, force: float, variant: Parameters, found: Findings) -> None:
    system, b, d = section.system, section.width, section.d
    rho_l = section.tension_area / (b * d)
    concrete = shear.concrete_stress(fck, d, rho_l) * b * d
    design, detail = concrete, f"k = {shear.depth_factor(d):.3f}, ρl = {min(rho_l, 0.02):.5f}"
    links = section.stirrups
    if links is None:
        found.checks.append(limit_check("VEd ≤ VRd,c", force, design, "force", system, "EN 1992-1-1 6.2.2(1)"))
        most = shear.unreinforced_limit(fck, variant.alpha_cc_shear * fck / GAMMA_C, b, d)
        found.checks.append(limit_check("VEd ≤ 0.5 bw d ν fcd", force, most, "force", system, "EN 1992-1-1 6.2.2(6)"))
        if not section.slab:
            least = shear.minimum_link_ratio(fck, fyk)
            found.checks.append(
                number_check("ρw ≥ ρw,min (no links given)", 0.0, least, "EN 1992-1-1 6.2.1(4), 9.2.2(5)", True)
            )
    else:
        fcd = variant.alpha_cc_shear * fck / GAMMA_C
        resisted = shear.with_links(links.area / links.spacing, design_yield(fyk), fcd, b, d, fck)
        design = max(concrete, resisted.resistance)
        detail += (
            f"; cot θ = {resisted.cot_theta:.2f}, VRd,s = {shown(resisted.steel, 'force', system)}, "
            f"VRd,max = {shown(resisted.crushing, 'force', system)}"
        )
        found.checks += [
            limit_check("VEd ≤ VRd", force, design, "force", system, "EN 1992-1-1 6.2.2(1), 6.2.3(3) eq. 6.8"),
            limit_check("VEd ≤ VRd,max", force, resisted.crushing, "force", system, "EN 1992-1-1 6.2.3(3) eq. 6.9"),
        ]
        _link_checks(section, fck, fyk, found)
    found.figures.update(design_shear=(design, "force"), concrete_shear=(concrete, "force"))
    found.substituted.append(
        f"VRd,c = {shown(concrete, 'force', system)} ({detail}): VRd = {shown(design, 'force', system)}"
    )


def _link_checks(section: BeamSection, fck: float, fyk: float, found: Findings) -> None:
    assert section.stirrups is not None
    links, system = section.stirrups, section.system
    ratio = links.area / (links.spacing * section.width)
    least = shear.minimum_link_ratio(fck, fyk)
    found.checks.append(number_check("ρw = Asw/(s bw) ≥ ρw,min", ratio, least, "EN 1992-1-1 9.2.2(5) eq. 9.5N", True))
    largest = shear.largest_link_spacing(section.d)
    found.checks.append(limit_check("s ≤ 0.75 d", links.spacing, largest, "length", system, "EN 1992-1-1 9.2.2(6)"))
