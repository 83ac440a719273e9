"""`bolt_check` to AISC 360-22: J3.7 to J3.10 for the bolts, the instantaneous centre for an eccentric shear (Manual
Part 7), J3.11 bearing and tear-out and J4.3 block shear on the ply, prying (Manual Part 9)."""

from __future__ import annotations

from tools.codes.aisc360 import bearing as aisc_bearing
from tools.codes.aisc360 import block_shear as aisc_block
from tools.codes.aisc360 import bolt_groups
from tools.codes.aisc360 import connections as aisc_j
from tools.codes.aisc360.prying import prying
from tools.codes.aisc360.strength import Strength
from tools.connections.bolt_data import AiscGrade, aisc_grade, aisc_stresses, pretension
from tools.connections.bolt_joint import (
    Found,
    Joint,
    area_text,
    force_check,
    force_text,
    length_text,
    record_missing,
    stress_text,
)
from tools.connections.inputs import hole_type

LONG_JOINT = 38 * 0.0254  # m: Table J3.2 note [b], Fnv × 0.833 for an end-loaded pattern longer than 38 in
BEARING = "bearing and tear-out at the holes (J3.11)"


def aisc(joint: Joint, code: str, grade_text: str, slip: str | None, hole_text: str) -> Found:
    method = code.split("-")[1]
    grade = aisc_grade(grade_text)
    fnt, fnv = aisc_stresses(grade, joint.size, joint.threads_excluded)
    fnv, long_joint = _long_joint(joint, fnv)
    area, layout = joint.size.gross_area, joint.layout
    c = (
        bolt_groups.coefficient(tuple(layout.positions()), layout.eccentricity, layout.angle)
        if layout.rotated
        else joint.bolts
    )
    one = aisc_j.bolt_shear(fnv, area, joint.planes, 1)
    symbols = ("Vu", "Tu", "φRn") if method == "LRFD" else ("Va", "Ta", "Rn/Ω")
    effective_shear = joint.shear.newtons * joint.bolts / c  # frv of the most loaded bolt: V/(C Ab) (J3.8)
    tension = aisc_j.bolt_tension(fnt, fnv, area, joint.bolts, effective_shear / joint.planes, joint.tension.newtons,
                                  method)  # fmt: skip
    found = Found(one.design(method) * c, tension.design(method), None, grade.name, symbols, [joint.shear.text])
    if joint.tension.newtons > 0:
        found.substituted.append(joint.tension.text)
    found.figures["group_coefficient"] = f"{c:.3f}"
    found.substituted.append(
        f"Ab = π({joint.size.label})²/4 = {area_text(area, joint)}; Fnv = {stress_text(fnv, joint)}, Fnt = "
        f"{stress_text(fnt, joint)} (Table J3.2{'; × 0.833, note [b]' if long_joint else ''}); {_group_text(c, joint)}"
        f"{symbols[2]} shear = {c:.3f} × {force_text(one.design(method), joint)} = "
        f"{force_text(found.design_shear, joint)}"
        f", tension = {force_text(found.design_tension, joint)}{f' ({tension.detail})' if tension.detail else ''}"
    )
    clause = one.clause + ("; Manual Part 7, instantaneous centre" if layout.rotated else "")
    found.checks.append(force_check(f"{symbols[0]} ≤ {symbols[2]}: bolt shear", joint.shear.newtons,
                                    found.design_shear, clause, joint))  # fmt: skip
    if joint.tension.newtons > 0:
        name = f"{symbols[1]} ≤ {symbols[2]}: {tension.limit_state}"
        found.checks.append(force_check(name, joint.tension.newtons, found.design_tension, tension.clause, joint))
    if slip is not None:
        _slip(joint, grade, slip, hole_text, method, found, c)
    _plies(joint, found, method, hole_text, (one.design(method), c))
    found.notes += _notes(joint, layout.rotated, long_joint)
    return found


def _long_joint(joint: Joint, fnv: float) -> tuple[float, bool]:
    spacing = joint.layout.spacing or 0.0
    long = (joint.layout.rows - 1) * spacing > LONG_JOINT
    return (fnv * 0.833 if long else fnv), long


def _group_text(c: float, joint: Joint) -> str:
    layout = joint.layout
    if not layout.rotated:
        return ""
    return (f"C = {c:.3f} (instantaneous centre, ex = {length_text(layout.eccentricity, joint)}, "
            f"θ = {layout.angle * 57.29577951308232:.4g}°, Δmax = 0.34 in); ")  # fmt: skip


def _slip(joint: Joint, grade: AiscGrade, slip: str, hole_text: str, method: str, found: Found, c: float) -> None:
    hole, assumed = hole_type(hole_text)
    tb = pretension(grade, joint.size)
    strength = aisc_j.slip_resistance(aisc_j.SLIP_COEFFICIENTS[slip], tb, joint.planes, 1, hole)
    ksc = aisc_j.slip_tension_factor(joint.tension.newtons, tb, joint.bolts, method)
    found.design_slip = strength.design(method) * ksc * c
    clause = strength.clause + ("; J3.10 eq. J3-5a" if method == "LRFD" else "; J3.10 eq. J3-5b") * (ksc < 1)
    found.substituted.append(
        f"slip: Rn = μ Du hf Tb ns = {aisc_j.SLIP_COEFFICIENTS[slip]:.2f} × {aisc_j.DU} × 1.0 × "
        f"{force_text(tb, joint, 'kip' if not joint.size.metric else 'kN')} × {joint.planes} = "
        f"{force_text(strength.nominal, joint)} per bolt; φ = {strength.phi:.2f}, Ω = {strength.omega:.2f} "
        f"({hole} holes); ksc = {ksc:.3f}; {found.symbols[2]} = {c:.3f} × … = {force_text(found.design_slip, joint)}"
    )
    name = f"{found.symbols[0]} ≤ {found.symbols[2]}: slip (Class {slip}, {hole} holes)"
    found.checks.append(force_check(name, joint.shear.newtons, found.design_slip, clause, joint))
    found.notes.append("hf = 1.0: no filler, or one filler, between the connected parts (J3.9).")
    if assumed and hole.startswith("short"):  # long slots take the same φ and Ω either way (J3.9(c))
        found.notes.append(f"The slots' direction was not given: {hole} to the force assumed (the less favourable).")


def _plies(joint: Joint, found: Found, method: str, hole_text: str, shear: tuple[float, float]) -> None:
    """J3.11 bearing and tear-out, J4.3 block shear and prying, as far as the ply was described."""
    hole, _ = hole_type(hole_text)
    if hole not in ("standard", "oversized", "short-slotted transverse"):
        found.not_checked.append(f"{BEARING} and block shear (J4.3) at {hole} holes (J3-6d to J3-6f)")
    else:
        dh = aisc_bearing.hole_diameter(joint.size.metres, joint.size.metric, hole == "oversized")
        _bearing(joint, found, method, dh, shear)
        _block_shear(joint, found, method, dh)
    if joint.tension.newtons > 0:
        dh = aisc_bearing.hole_diameter(joint.size.metres, joint.size.metric)
        _prying(joint, found, method, dh)


def _bearing(joint: Joint, found: Found, method: str, dh: float, shear: tuple[float, float]) -> None:
    layout = joint.layout
    names = ["ply_thickness", "ply_grade", "end_distance", "spacing"] + ["edge_distance"] * layout.rotated
    if not record_missing(found, joint, BEARING, *names):
        return
    assert layout.thickness is not None and layout.steel is not None and layout.end is not None
    t, fu, d = layout.thickness, layout.steel.fu, joint.size.metres
    along = {"end": layout.end, "inner": layout.spacing or 0.0}
    per_bolt = {}
    for where in ("end", "inner") if layout.rows > 1 else ("end",):
        limits = [aisc_bearing.bearing(d, t, fu), _tear(along[where], dh, where == "end", t, fu)]
        if layout.rotated:  # the force may turn toward the side edge or the next line
            limits.append(_tear(layout.edge or 0.0, dh, True, t, fu))
            if layout.columns > 1:
                limits.append(_tear(layout.gauge or 0.0, dh, False, t, fu))
        per_bolt[where] = min(s.design(method) for s in limits)
        found.forces[f"design_bearing_{where}"] = per_bolt[where]
    bolt, c = shear
    if layout.rotated:
        least = min(per_bolt.values())
        group, together = c * least, c * min(least, bolt)
    else:
        counts = {"end": layout.columns, "inner": joint.bolts - layout.columns}
        group = sum(counts[w] * value for w, value in per_bolt.items())
        together = sum(counts[w] * min(value, bolt) for w, value in per_bolt.items())
    found.forces["design_bearing"], found.forces["design_bolt_group"] = group, together
    steel = layout.steel
    found.substituted.append(
        f"bearing on {length_text(t, joint)} {steel.name} (Fu = {stress_text(fu, joint)}), holes "
        f"{length_text(dh, joint)}: 2.4 d t Fu and 1.2 lc t Fu a bolt, {found.symbols[2]} = "
        + ", ".join(f"{force_text(v, joint)} ({w} bolts)" for w, v in per_bolt.items())
        + f"; the ply {force_text(group, joint)}, bolts and ply {force_text(together, joint)}"
    )
    v, r = found.symbols[0], found.symbols[2]
    found.checks.append(force_check(f"{v} ≤ {r}: bearing and tear-out on the ply", joint.shear.newtons, group,
                                    "AISC 360-22 J3.11(a) eq. J3-6a, J3-6c", joint))  # fmt: skip
    found.checks.append(force_check(f"{v} ≤ {r}: bolt group, each bolt's least of shear, bearing and tear-out",
                                    joint.shear.newtons, together, "AISC 360-22 J3.6, J3.7, J3.11", joint))  # fmt: skip


def _tear(distance: float, dh: float, to_edge: bool, t: float, fu: float) -> Strength:
    return aisc_bearing.tear_out(aisc_bearing.clear_distance(distance, dh, to_edge), t, fu)


def _block_shear(joint: Joint, found: Found, method: str, dh: float) -> None:
    layout = joint.layout
    names = ("ply_thickness", "ply_grade", "end_distance", "edge_distance", "spacing", "gauge")
    if not record_missing(found, joint, "block shear rupture of the ply (J4.3)", *names):
        return
    assert layout.thickness is not None and layout.steel is not None and layout.end is not None
    assert layout.edge is not None
    t, width = layout.thickness, aisc_block.net_hole_width(dh, joint.size.metric)
    shear_length = layout.end + (layout.rows - 1) * (layout.spacing or 0.0)
    tension_length = layout.edge + (layout.columns - 1) * (layout.gauge or 0.0)
    areas = (t * shear_length, t * (shear_length - (layout.rows - 0.5) * width),
             t * (tension_length - (layout.columns - 0.5) * width))  # fmt: skip
    ubs = aisc_block.tension_stress_factor(layout.columns)
    strength = aisc_block.block_shear(areas, layout.steel.fy, layout.steel.fu, ubs)
    found.forces["design_block_shear"] = strength.design(method)
    found.substituted.append(
        f"block shear: Agv = {area_text(areas[0], joint)}, Anv = {area_text(areas[1], joint)}, Ant = "
        f"{area_text(areas[2], joint)}, Ubs = {ubs:g} ({strength.detail} governs): {found.symbols[2]} = "
        f"{force_text(strength.design(method), joint)}"
    )
    name = f"{found.symbols[0]} ≤ {found.symbols[2]}: block shear rupture of the ply"
    found.checks.append(force_check(name, joint.shear.newtons, strength.design(method), strength.clause, joint))


def _prying(joint: Joint, found: Found, method: str, dh: float) -> None:
    layout = joint.layout
    names = ("ply_thickness", "ply_grade", "stem_distance", "edge_distance")
    if not record_missing(found, joint, "prying action (Manual Part 9)", *names):
        return
    if layout.spacing is None:
        found.not_checked.append("prying action (Manual Part 9): give spacing, the flange length each bolt takes (p)")
        return
    assert layout.thickness is not None and layout.steel is not None
    assert layout.stem is not None and layout.edge is not None
    per_bolt = found.design_tension / joint.bolts
    geometry = (joint.size.metres, dh, layout.stem, layout.edge, layout.spacing)
    result = prying(per_bolt, geometry, layout.thickness, layout.steel.fu, method)
    design = per_bolt * result.factor * joint.bolts
    found.forces["design_tension_prying"], found.figures["prying_factor"] = design, f"{result.factor:.3f}"
    found.substituted.append(
        f"prying: B = {force_text(per_bolt, joint)} a bolt, ρ = {result.rho:.3f}, δ = {result.delta:.3f}, tc = "
        f"{length_text(result.critical_thickness, joint)}, α′ = {result.alpha:.3f}, Q = {result.factor:.3f}: "
        f"{found.symbols[2]} = {force_text(design, joint)}"
    )
    name = f"{found.symbols[1]} ≤ {found.symbols[2]}: bolt tension with prying (Q = {result.factor:.3f})"
    found.checks.append(force_check(name, joint.tension.newtons, design,
                                    "AISC Manual 16th ed. Part 9, prying action", joint))  # fmt: skip


def _notes(joint: Joint, rotated: bool, long_joint: bool) -> list[str]:
    notes = []
    if rotated:
        notes.append("An eccentric or inclined shear: the instantaneous centre method (Manual Part 7, Crawford and "
                     "Kulak); the group's strength is C × the least of each bolt's strengths.")  # fmt: skip
        notes.append("Tear-out is taken with the least clear distance along or across the lines, since the bolts' "
                     "forces turn about the centre.")  # fmt: skip
    else:
        notes.append("The shear passes through the group's centroid: each bolt takes an equal share.")
    if long_joint:
        notes.append("The pattern is longer than 38 in (950 mm): Fnv is 83.3 % of Table J3.2's (note [b]).")
    elif joint.layout.spacing is None and joint.layout.rows > 1:
        notes.append("The spacing was not given: for a pattern longer than 38 in (950 mm) along the force, Fnv is "
                     "83.3 % of Table J3.2's (note [b]), not applied here.")  # fmt: skip
    return notes
