"""A rectangular beam or one-way slab to ACI 318-19: flexure by strain compatibility (22.2, φ from εt by 21.2.2),
minimum and maximum steel (9.6.1.2 or Table 7.6.1.1; 9.3.3.1), shear (22.5, Table 22.5.5.1, 9.6.3, 9.7.6.2.2)."""

from __future__ import annotations

from tools.codes.aci318 import flexure, shear
from tools.codes.aci318.materials import MIN_STRENGTH, PHI_SHEAR, PSI, strength_reduction, yield_strain
from tools.concrete.materials import Concrete, Steel
from tools.concrete.readout import Findings, limit_check, number_check, shown
from tools.concrete.section import BeamSection
from tools.concrete.strain_compatibility import Layer, depth_for_axial

REFERENCE = "ACI 318-19 22.2, 21.2.2, 22.5, 9.3.3.1, 9.6.1, 9.6.3, 9.7.6.2.2, 7.6.1.1, 7.7.2.3; Es = 29,000 ksi"


def check_beam(section: BeamSection, concrete: Concrete, steel: Steel, moment: float, force: float) -> Findings:
    """Every check of the section under Mu and Vu (N·m, N), in the units of `section.system`."""
    fc, fy = concrete.strength, steel.yield_strength
    if fc < MIN_STRENGTH:
        raise ValueError(f"f'c = {concrete.text} is below 2,500 psi, the least ACI 318-19 19.2.1.1 allows")
    found = Findings(reference=REFERENCE)
    _flexure(section, fc, fy, moment, found)
    if force > 0:
        _shear(section, fc, fy, force, found)
    else:
        found.not_checked.append("shear: no shear force was given (shear = 0)")
    found.covers = f"flexure, {'shear, ' if force > 0 else ''}minimum and maximum steel of the section"
    found.notes.append("Normalweight concrete taken (λ = 1); lightweight concrete is not covered.")
    if fc > 10_000 * PSI:
        found.notes.append("f'c above 10,000 psi: √f'c is taken as 100 psi in shear (22.5.3.1).")
    return found


def _flexure(section: BeamSection, fc: float, fy: float, moment: float, found: Findings) -> None:
    system, b, d = section.system, section.width, section.d
    layers = [Layer(d, section.tension_area)]
    if section.compression_area > 0:
        layers.append(Layer(section.compression_depth, section.compression_area))
    block = flexure.block(fc, fy)
    forces = depth_for_axial(0.0, b, section.height, tuple(layers), block)
    eps_t = forces.extreme_strain
    phi = strength_reduction(eps_t, fy)
    design = phi * forces.moment
    zone = _zone(eps_t, fy)
    found.checks.append(
        limit_check(f"Mu ≤ φMn ({zone}, φ = {phi:.3f})", moment, design, "moment", system, "ACI 318-19 22.2, 21.2.2")
    )
    found.checks.append(
        number_check("εt ≥ 0.004", eps_t, flexure.MIN_NET_TENSILE_STRAIN, _strain_clause(section), minimum=True)
    )
    least, clause = _minimum_steel(section, fc, fy, moment / design if design else 1.0)
    found.checks.append(limit_check("As ≥ As,min", section.tension_area, least, "area", system, clause, minimum=True))
    if section.slab:
        _slab_spacing(section, found)
    found.figures.update(
        design_moment=(design, "moment"),
        neutral_axis_depth=(forces.c, "length"),
        steel_area=(section.tension_area, "area"),
        minimum_steel=(least, "area"),
    )
    found.text.update(tensile_strain=f"{eps_t:.5f}", phi=f"{phi:.3f}")
    if section.compression_area > 0:
        stress = forces.stresses[1]
        found.notes.append(
            f"Compression steel at d' = {shown(section.compression_depth, 'length', system)}: f's = "
            f"{shown(stress, 'stress', system)} by strain compatibility, 0.85f'c deducted for the concrete it "
            "displaces."
        )
    found.formula = (
        "a = β1 c; 0.85 f'c a b + A's (f's − 0.85 f'c) = As fs; Mn = 0.85 f'c a b (d − a/2) + A's (f's − 0.85 f'c)"
        "(d − d'); εt = 0.003 (d − c)/c; φ by Table 21.2.2; Vc (Table 22.5.5.1), Vs = Av fyt d/s, φ = 0.75"
    )
    found.substituted.append(
        f"b = {shown(b, 'length', system)}, d = {shown(d, 'length', system)}, As = "
        f"{shown(section.tension_area, 'area', system)}, f'c = {shown(fc, 'concrete_stress', system)}, fy = "
        f"{shown(fy, 'stress', system)}: c = {shown(forces.c, 'length', system)}, a = "
        f"{shown(block.depth_factor * forces.c, 'length', system)}, εt = {eps_t:.5f}, φ = {phi:.3f}, "
        f"φMn = {shown(design, 'moment', system)}"
    )


def _zone(eps_t: float, fy: float) -> str:
    if eps_t >= yield_strain(fy) + 0.003:
        return "tension-controlled"
    return "compression-controlled" if eps_t <= yield_strain(fy) else "transition zone"


def _strain_clause(section: BeamSection) -> str:
    return "ACI 318-19 7.3.3.1" if section.slab else "ACI 318-19 9.3.3.1"


def _minimum_steel(section: BeamSection, fc: float, fy: float, share: float) -> tuple[float, str]:
    if section.slab:
        return flexure.slab_minimum_steel(fy, section.width * section.height), "ACI 318-19 Table 7.6.1.1"
    least = flexure.beam_minimum_steel(fc, fy, section.width, section.d)
    relief = 4 / 3 * section.tension_area * min(share, 1.0)  # 9.6.1.3: As ≥ 4/3 of the steel Mu needs
    if relief < least:
        return relief, "ACI 318-19 9.6.1.3 (4/3 of As required, As·Mu/φMn bounding it)"
    return least, "ACI 318-19 9.6.1.2"


def _slab_spacing(section: BeamSection, found: Findings) -> None:
    spacing = section.tension.spacing
    if spacing is None:
        return
    largest = min(3 * section.height, 18 * 0.0254)
    found.checks.append(
        limit_check("s ≤ min(3h, 18 in)", spacing, largest, "length", section.system, "ACI 318-19 7.7.2.3")
    )


def _shear(section: BeamSection, fc: float, fy: float, force: float, found: Findings) -> None:
    system, b, d = section.system, section.width, section.d
    rho_w = section.tension_area / (b * d)
    vs, with_minimum, clause = 0.0, False, "ACI 318-19 22.5.5.1, Table 22.5.5.1(c)"
    stirrups = section.stirrups
    if stirrups is not None:
        least = shear.minimum_stirrups(fc, fy, b, stirrups.spacing)
        with_minimum = stirrups.area >= least
        vs = shear.stirrups(stirrups.area, fy, d, stirrups.spacing)
    if with_minimum:
        vc, clause = shear.concrete_with_minimum_stirrups(fc, b, d), "ACI 318-19 22.5.5.1, Table 22.5.5.1(a)"
    else:
        vc = shear.concrete_without_minimum_stirrups(fc, b, d, rho_w)
    vc = min(vc, shear.concrete_limit(fc, b, d))
    steel_part = min(vs, shear.stirrup_limit(fc, b, d))
    design = PHI_SHEAR * (vc + steel_part)
    name = "Vu ≤ φ(Vc + Vs)" if stirrups else "Vu ≤ φVc"
    found.checks.append(limit_check(name, force, design, "force", system, f"ACI 318-19 22.5.1.1; {clause}"))
    if stirrups is not None:
        _stirrup_checks(section, fc, fy, force, vc, vs, found)
    elif not section.slab and section.height > 10 * 0.0254:
        threshold = shear.minimum_stirrups_threshold(fc, b, d)
        found.checks.append(
            limit_check("Vu ≤ φλ√f'c bw d (no stirrups)", force, threshold, "force", system, "ACI 318-19 9.6.3.1")
        )
    found.figures.update(design_shear=(design, "force"), concrete_shear=(PHI_SHEAR * vc, "force"))
    lam_s = "" if with_minimum else f", λs = {shear.size_effect(d):.3f}, ρw = {rho_w:.5f}"
    found.substituted.append(
        f"Vc = {shown(vc, 'force', system)}{lam_s}, Vs = {shown(vs, 'force', system)}: φVn = "
        f"{shown(design, 'force', system)}"
    )


def _stirrup_checks(
    section: BeamSection, fc: float, fy: float, force: float, vc: float, vs: float, found: Findings
) -> None:
    assert section.stirrups is not None
    system, b, d, stirrups = section.system, section.width, section.d, section.stirrups
    limit = PHI_SHEAR * (vc + shear.stirrup_limit(fc, b, d))
    found.checks.append(
        limit_check("Vu ≤ φ(Vc + 8√f'c bw d) (section size)", force, limit, "force", system, "ACI 318-19 22.5.1.2")
    )
    largest = shear.largest_spacing(fc, b, d, vs)
    found.checks.append(limit_check("s ≤ s,max", stirrups.spacing, largest, "length", system, "ACI 318-19 9.7.6.2.2"))
    if force > shear.minimum_stirrups_threshold(fc, b, d):
        least = shear.minimum_stirrups(fc, fy, b, stirrups.spacing)
        found.checks.append(
            limit_check("Av ≥ Av,min", stirrups.area, least, "area", system, "ACI 318-19 9.6.3.4", True)
        )
    if fy > shear.MAX_STIRRUP_YIELD:
        found.notes.append("The stirrups' fyt is taken as 60 ksi, the most Table 20.2.2.4(a) allows for shear.")
    found.notes.append(
        f"Stirrups {stirrups.text}: Av = {shown(stirrups.area, 'area', system)} ({stirrups.legs} legs) of the same "
        f"steel as the bars; Vs = {shown(vs, 'force', system)} ≤ 8√f'c bw d = "
        f"{shown(shear.stirrup_limit(fc, b, d), 'force', system)} counted."
    )
