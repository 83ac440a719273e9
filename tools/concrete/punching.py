"""`punching_shear_check`: a flat slab's punching (two-way) shear at a rectangular column without shear
reinforcement, to ACI 318-19 (22.6, 8.4.4.2) or EN 1992-1-1 (6.4). Stresses in psi or MPa as the inputs are."""

from __future__ import annotations

from typing import Any

from domain.calculations import CalcResult
from tools.catalogue import tool
from tools.codes.aci318 import two_way_shear
from tools.codes.aci318.materials import MIN_STRENGTH, PHI_SHEAR
from tools.codes.aci318.shear import size_effect
from tools.codes.en1992 import punching
from tools.codes.en1992.materials import GAMMA_C, MPA, RECOMMENDED, UK_ANNEX, Parameters
from tools.codes.en1992.shear import concrete_stress, depth_factor
from tools.concrete.materials import Concrete, read_code, read_column, read_concrete, read_ratio
from tools.concrete.readout import Findings, limit_check, result, shown
from tools.units.reading import require
from tools.units.showing import System, system_of

POSITIONS = ("interior", "edge", "corner")
INCH = 0.0254
NOT_CHECKED = [
    "shear reinforcement (none is modelled; the slab is checked without it)",
    "openings within 4h of the column, and slab edges beyond the column's faces",
    "the flexural strength for the moment transferred by flexure",
    "structural integrity reinforcement",
]


@tool("calculation", words=("punching", "two-way", "flat", "slab", "plate", "column", "shear", "concrete"))
def punching_shear_check(
    slab_thickness: str,
    column: str,
    concrete: str,
    shear: str,
    code: str = "ACI318-19",
    effective_depth: str | None = None,
    position: str = "interior",
    reinforcement_ratio: str | None = None,
    unbalanced_moment: str = "0",
) -> CalcResult:
    """Punching shear of a flat slab at a column, ACI 318-19 22.6 or EN 1992-1-1 6.4, without shear reinforcement:
    stress against strength, OK/NG. Use it whenever asked about punching at a column.

    Args:
        slab_thickness: Slab thickness h, "10 in", "250 mm".
        column: "16 in" (square) or "12 x 36 in" (c1 in the moment's direction x c2).
        concrete: "4000 psi", "C30/37".
        shear: Factored reaction Vu or VEd the slab transfers.
        code: ACI318-19, EN1992 or EN1992-UK.
        effective_depth: Mean d; default h less cover and a bar.
        position: interior, edge (slab edge at the column face) or corner.
        reinforcement_ratio: ρl each way, "0.0085, 0.0048" (EN).
        unbalanced_moment: Factored moment transferred to the column.
    """
    code_name = read_code(code)
    where = position.strip().lower()
    if where not in POSITIONS:
        raise ValueError(f"position '{position}' is not one this tool knows: give interior, edge or corner")
    slab = read_concrete(concrete)
    c1, c2, column_system = read_column(column)
    h, d, force, moment, system = _geometry(slab_thickness, effective_depth, shear, unbalanced_moment, column_system)
    found = Findings()
    if d is None:
        d = h - (1.375 * INCH if code_name == "ACI318-19" else 0.040)
        found.notes.append(
            f"No effective_depth given: d = h − {shown(h - d, 'length', system)} taken (cover and one bar); give it."
        )
    if not 0.3 * h < d < h:
        raise ValueError("effective_depth must be less than the slab thickness and more than a third of it")
    if code_name == "ACI318-19":
        _aci(slab, (c1, c2), (d, force, moment), where, found, system)
        if reinforcement_ratio is not None:
            found.notes.append("ACI 318-19 22.6.5.2 does not use the reinforcement ratio; it is not used.")
    else:
        variant = UK_ANNEX if code_name == "EN1992-UK" else RECOMMENDED
        ratio = read_ratio(reinforcement_ratio) if reinforcement_ratio else None
        _eurocode(slab, (c1, c2), (d, force, moment), (where, ratio), variant, found, system)
    found.not_checked += NOT_CHECKED
    found.covers = "punching shear of the slab without shear reinforcement"
    found.text.update(position=where)
    return result(found, system)


def _geometry(
    thickness: str, depth: str | None, shear: str, moment: str, column_system: System
) -> tuple[float, float | None, float, float, System]:
    h = require(thickness, "slab_thickness", "length")
    v = require(shear, "shear", "force")
    given: list[Any] = [h, v]
    m = 0.0
    if moment.strip() not in ("0", "0.0"):
        quantity = require(moment, "unbalanced_moment", "moment (force × length)", positive=False)
        given.append(quantity)
        m = abs(float(quantity.to("N*m").magnitude))
    d = float(require(depth, "effective_depth", "length").to("m").magnitude) if depth else None
    thickness_m = float(h.to("m").magnitude)
    if not 0.075 <= thickness_m <= 2.0:
        raise ValueError(f"slab_thickness '{thickness}' is not a slab's (75 mm to 2 m)")
    system: System = "US" if system_of(*given) == "US" and column_system == "US" else "SI"
    return thickness_m, d, float(v.to("N").magnitude), m, system


def _aci(
    slab: Concrete,
    column: tuple[float, float],
    loads: tuple[float, float, float],
    where: str,
    found: Findings,
    system: System,
) -> None:
    if slab.strength < MIN_STRENGTH:
        raise ValueError(f"f'c = {slab.text} is below 2,500 psi, the least ACI 318-19 19.2.1.1 allows")
    (c1, c2), (d, force, moment) = column, loads
    section = two_way_shear.critical_section(c1, c2, d, where)
    beta = max(c1, c2) / min(c1, c2)
    strength = PHI_SHEAR * two_way_shear.concrete_stress(slab.strength, d, section.perimeter, beta, where)
    demand = two_way_shear.stress(force, moment, section, d)
    found.checks.append(
        limit_check("vu ≤ φvc", demand, strength, "concrete_stress", system, "ACI 318-19 22.6.1.2, 22.6.5.2, 8.4.4.2")
    )
    found.figures.update(
        critical_perimeter=(section.perimeter, "length"),
        design_stress=(strength, "concrete_stress"),
        required_stress=(demand, "concrete_stress"),
    )
    gamma = two_way_shear.shear_share(section.b1, section.b2)
    found.formula = (
        "b0 at d/2; vc = min(4, 2 + 4/β, 2 + αs d/b0) λs λ √f'c; vu = Vu/(b0 d) + γv Munb cAB/Jc, "
        "γv = 1 − 1/(1 + (2/3)√(b1/b2)), Munb = Mu − Vu e; φ = 0.75"
    )
    found.substituted.append(
        f"d = {shown(d, 'length', system)}, b1 = {shown(section.b1, 'length', system)}, b2 = "
        f"{shown(section.b2, 'length', system)}, b0 = {shown(section.perimeter, 'length', system)}, β = {beta:.2f}, "
        f"λs = {size_effect(d):.3f}, γv = {gamma:.3f}: "
        f"φvc = {shown(strength, 'concrete_stress', system)}, "
        f"vu = {shown(demand, 'concrete_stress', system)}"
    )
    found.reference = "ACI 318-19 22.6.4, 22.6.5, 8.4.2.2, 8.4.4.2, R8.4.4.2.3"
    found.notes.append("Normalweight concrete taken (λ = 1); lightweight concrete is not covered.")
    if moment:
        found.notes.append(
            f"Munb about the critical section's centroid: Mu − Vu e, e = {shown(section.offset, 'length', system)}; "
            "γf not increased by 8.4.2.2.4."
        )


def _eurocode(
    slab: Concrete,
    column: tuple[float, float],
    loads: tuple[float, float, float],
    place: tuple[str, tuple[float, float] | None],
    variant: Parameters,
    found: Findings,
    system: System,
) -> None:
    (c1, c2), (d, force, moment), (where, ratio) = column, loads, place
    fck = slab.strength
    if fck < 12 * MPA:
        raise ValueError(f"fck = {slab.text} is below C12/15, the least class of EN 1992-1-1 Table 3.1")
    if moment and where != "interior":
        raise ValueError(
            "EN 1992-1-1 edge and corner connections with an unbalanced moment need β from 6.4.3(4), (5), which this "
            "tool does not model; omit unbalanced_moment to use β of 6.4.3(6) where it applies"
        )
    beta = punching.interior_beta(force, moment, c1, c2, d) if moment else punching.APPROXIMATE_BETA[where]
    u1 = punching.control_perimeter(c1, c2, d, where)
    rho = (ratio[0] * ratio[1]) ** 0.5 if ratio else 0.0
    strength = concrete_stress(fck, d, rho)
    demand = beta * force / (u1 * d)
    fcd = variant.alpha_cc_shear * fck / GAMMA_C
    u0 = punching.column_perimeter(c1, c2, d, where)
    face, face_limit = beta * force / (u0 * d), punching.face_resistance(fck, fcd, variant.punching_max)
    found.checks += [
        limit_check("vEd ≤ vRd,c at u1", demand, strength, "concrete_stress", system, "EN 1992-1-1 6.4.3(2), 6.4.4(1)"),
        limit_check("vEd ≤ vRd,max at u0", face, face_limit, "concrete_stress", system, "EN 1992-1-1 6.4.5(3)"),
    ]
    found.figures.update(
        critical_perimeter=(u1, "length"),
        design_stress=(strength, "concrete_stress"),
        required_stress=(demand, "concrete_stress"),
    )
    found.text["beta"] = f"{beta:.3f}"
    found.formula = (
        "u1 at 2d; vEd = β VEd/(u1 d); vRd,c = 0.18/γc k (100 ρl fck)^(1/3) ≥ 0.035 k^1.5 fck^0.5, k = 1 + √(200/d) "
        "≤ 2, ρl = √(ρly ρlz) ≤ 0.02; vEd,0 = β VEd/(u0 d) ≤ vRd,max"
    )
    found.substituted.append(
        f"d = {shown(d, 'length', system)}, u1 = {shown(u1, 'length', system)}, k = {depth_factor(d):.3f}, ρl = "
        f"{min(rho, 0.02):.5f}, β = {beta:.3f}: vRd,c = {shown(strength, 'concrete_stress', system)}, vEd = "
        f"{shown(demand, 'concrete_stress', system)}; u0 = {shown(u0, 'length', system)}, vEd,0 = "
        f"{shown(face, 'concrete_stress', system)} ≤ {shown(face_limit, 'concrete_stress', system)}"
    )
    found.reference = f"{variant.name}: 6.4.2, 6.4.3, 6.4.4, 6.4.5; γc = 1.5"
    if ratio is None:
        found.notes.append("No reinforcement_ratio given: vRd,c is taken as vmin (6.3N), its least value; give ρl.")
    if not moment:
        found.notes.append(
            f"β = {beta} of 6.4.3(6): for braced structures whose adjacent spans differ by at most 25 %."
        )
