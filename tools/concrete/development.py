"""`development_length`: the tension development, hook and lap length of a deformed bar, to ACI 318-19 (25.4.2.4,
25.4.3.1, 25.5.2.1) or EN 1992-1-1 (8.4, 8.7.3). Lengths in inches or millimetres as the bar and the inputs are.

`cover` is the clear cover to the bar, `spacing` the bars' centre-to-centre spacing. ACI: cb = min(cover + db/2,
spacing/2), Ktr = 0. EN: cd = min(cover, clear spacing/2). Without them the cautious values are taken and said so:
(cb + Ktr)/db = 1.0 (ACI), α2 = 1.0 (EN).
"""

from __future__ import annotations

from typing import Literal

from domain.calculations import CalcResult
from tools.catalogue import tool
from tools.codes.aci318 import development as aci
from tools.codes.aci318.materials import MIN_STRENGTH
from tools.codes.en1992 import anchorage
from tools.codes.en1992.materials import design_yield, tensile_strengths
from tools.concrete.bars import Bar, read_bar
from tools.concrete.materials import Concrete, Steel, read_code, read_concrete, read_steel
from tools.concrete.readout import Findings, result, shown
from tools.units.reading import require
from tools.units.showing import System, system_of

INCH = 0.0254
Coating = Literal["uncoated", "epoxy", "galvanized"]
Position = Literal["top", "other"]


@tool("calculation", words=("lap", "splice", "anchorage", "development", "hook", "rebar", "bond", "embedment"))
def development_length(
    bar: str,
    concrete: str,
    steel: str,
    code: str = "ACI318-19",
    cover: str | None = None,
    spacing: str | None = None,
    position: Position = "other",
    coating: Coating = "uncoated",
    hooked: bool = False,
    lap: bool = False,
) -> CalcResult:
    """Tension development, hook and lap length of a deformed bar, ACI 318-19 25.4/25.5 or EN 1992-1-1 8.4/8.7.
    Use it whenever asked for a development, anchorage, hook or lap length.

    Args:
        bar: Bar size, "#8", "H20", "20 mm".
        concrete: "4000 psi", "C30/37".
        steel: "Grade 60", "B500B".
        code: ACI318-19, EN1992 or EN1992-UK.
        cover: Clear cover to the bar, "2 in", "35 mm".
        spacing: Centre-to-centre spacing of the bars.
        position: top (over 12 in of fresh concrete below, or poor bond) or other.
        coating: uncoated, epoxy or galvanized.
        hooked: Also give the standard hook's length.
        lap: Also give the tension lap length.
    """
    code_name = read_code(code)
    size = read_bar(bar, "bar")
    materials = read_concrete(concrete), read_steel(steel)
    given = [require(text, name, "length") for text, name in ((cover, "cover"), (spacing, "spacing")) if text]
    clear = float(given[0].to("m").magnitude) if cover else None
    centres = float(given[-1].to("m").magnitude) if spacing else None
    if centres is not None and centres <= size.diameter:
        raise ValueError(f"spacing {spacing} is not more than the bar's diameter: give the centre-to-centre spacing")
    system: System = "SI" if size.metric or (given and system_of(*given) == "SI") else "US"
    found = Findings()
    if code_name == "ACI318-19":
        _aci(size, materials, (clear, centres), (position == "top", coating, hooked, lap), found, system)
    else:
        if coating == "epoxy":
            raise ValueError("EN 1992-1-1 8.4 does not cover epoxy-coated bars; give coating='uncoated'")
        _eurocode(size, materials, (clear, centres), (position == "top", hooked, lap), found, system)
    found.text.update(bar=size.name, bond="top (poor bond)" if position == "top" else "other (good bond)")
    found.not_checked += [
        "bars in compression (tension lengths are given)",
        "the anchorage's available length in the member",
        "transverse reinforcement along the length (Ktr = 0, α3 = 1: cautious)",
    ]
    found.covers = "the required tension development" + (" and lap" if lap else "") + " length"
    return result(found, system)


def _aci(
    size: Bar,
    materials: tuple[Concrete, Steel],
    geometry: tuple[float | None, float | None],
    options: tuple[bool, str, bool, bool],
    found: Findings,
    system: System,
) -> None:
    (concrete, steel), (clear, centres), (top, coating, hooked, lap) = materials, geometry, options
    fc, fy, db = concrete.strength, steel.yield_strength, size.diameter
    if fc < MIN_STRENGTH:
        raise ValueError(f"f'c = {concrete.text} is below 2,500 psi, the least ACI 318-19 19.2.1.1 allows")
    confinement = 1.0
    if clear is not None and centres is not None:
        confinement = min(clear + db / 2, centres / 2) / db
    else:
        found.notes.append("Cover or spacing not given: (cb + Ktr)/db taken as 1.0, the cautious value.")
    psi_e = aci.coating_factor(coating == "epoxy", db, clear, None if centres is None else centres - db)
    factors = (1.3 if top else 1.0, psi_e, 0.8 if db <= 0.75 * INCH + 1e-9 else 1.0, aci.grade_factor(fy))
    length = aci.straight(fy, fc, db, factors, confinement)
    found.figures["development_length"] = (length, "length")
    found.formula = "ld = (3/40)(fy/(λ√f'c))(ψt ψe ψs ψg/((cb + Ktr)/db)) db ≥ 12 in"
    found.substituted.append(
        f"db = {shown(db, 'length', system)}, fy = {shown(fy, 'stress', system)}, f'c = "
        f"{shown(fc, 'concrete_stress', system)}, ψt = {factors[0]}, ψe = {factors[1]}, ψs = {factors[2]}, ψg = "
        f"{factors[3]}, (cb + Ktr)/db = {min(confinement, 2.5):.3f}: ld = {shown(length, 'length', system)}"
    )
    clauses = ["ACI 318-19 25.4.2.4, Table 25.4.2.5"]
    found.notes.append("Normalweight concrete taken (λ = 1); lightweight concrete is not covered.")
    if lap:
        found.figures["lap_length"] = (aci.lap(length), "length")
        found.substituted.append(f"class B lap 1.3 ld = {shown(aci.lap(length), 'length', system)}")
        clauses.append("25.5.2.1 (class B)")
    if hooked:
        _aci_hook(size, fc, fy, (clear, coating == "epoxy"), found, system)
        clauses.append("25.4.3.1, Table 25.4.3.2")
    found.reference = "; ".join(clauses)


def _aci_hook(
    size: Bar, fc: float, fy: float, detail: tuple[float | None, bool], found: Findings, system: System
) -> None:
    clear, epoxy = detail
    psi_o = 1.25 if clear is None or clear < 2.5 * INCH else 1.0
    factors = (1.2 if epoxy else 1.0, 1.6, psi_o, aci.concrete_strength_factor(fc))
    length = aci.hooked(fy, fc, size.diameter, factors)
    found.figures["hook_length"] = (length, "length")
    found.substituted.append(
        f"ldh = (fy ψe ψr ψo ψc/(55√f'c)) db^1.5 with ψe = {factors[0]}, ψr = 1.6 (no confining ties taken), "
        f"ψo = {psi_o}, ψc = {factors[3]:.3f}: ldh = {shown(length, 'length', system)}"
    )


def _eurocode(
    size: Bar,
    materials: tuple[Concrete, Steel],
    geometry: tuple[float | None, float | None],
    options: tuple[bool, bool, bool],
    found: Findings,
    system: System,
) -> None:
    (concrete, steel), (clear, centres), (top, hooked, lap) = materials, geometry, options
    phi = size.diameter
    fctk = tensile_strengths(concrete.strength)[1]
    bond = anchorage.bond_stress(fctk, phi, good=not top)
    stress = design_yield(steel.yield_strength)
    basic = anchorage.basic_length(phi, stress, bond)
    cd = None
    if clear is not None and centres is not None:
        cd = min(clear, (centres - phi) / 2)
    elif clear is not None:
        cd = clear
    if cd is None:
        found.notes.append("Cover not given: α2 taken as 1.0, the cautious value.")
    alpha1, alpha2 = anchorage.shape_factors(phi, cd, bent=False)
    length = anchorage.design_length(basic, alpha1, alpha2, phi)
    found.figures.update(development_length=(length, "length"))
    found.formula = "fbd = 2.25 η1 η2 fctd; lb,rqd = (φ/4)(σsd/fbd); lbd = α1 α2 α3 α4 α5 lb,rqd ≥ lb,min"
    found.substituted.append(
        f"fctk,0.05 = {shown(fctk, 'stress', system)}, fbd = {shown(bond, 'stress', system)}, σsd = fyd = "
        f"{shown(stress, 'stress', system)}: lb,rqd = {shown(basic, 'length', system)}; α1 = {alpha1}, α2 = "
        f"{alpha2:.3f}: lbd = {shown(length, 'length', system)}"
    )
    clauses = ["EN 1992-1-1 8.4.2, 8.4.3, 8.4.4, Table 8.2"]
    if lap:
        lapped = anchorage.lap_length(basic, alpha1, alpha2, phi)
        found.figures["lap_length"] = (lapped, "length")
        found.substituted.append(f"l0 = α6 α1 α2 lb,rqd, α6 = 1.5: l0 = {shown(lapped, 'length', system)}")
        clauses.append("8.7.3 (α6 = 1.5)")
    if hooked:
        bent = anchorage.shape_factors(phi, cd, bent=True)
        hooked_length = anchorage.design_length(basic, *bent, phi)
        found.figures["hook_length"] = (hooked_length, "length")
        found.substituted.append(
            f"bent bar: α1 = {bent[0]}, α2 = {bent[1]:.3f}: lbd = {shown(hooked_length, 'length', system)}"
        )
    found.reference = "; ".join(clauses)
    if stress and steel.yield_strength:
        found.notes.append("The bar is taken fully stressed (σsd = fyd); the lengths scale with σsd/fyd.")
