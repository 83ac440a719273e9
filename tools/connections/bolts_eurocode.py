"""`bolt_check` to EN 1993-1-8: Table 3.4 shear and tension (with 3.6.1(5)'s 0.85 for M12 and M14), the elastic
method of SCI P358 for an eccentric shear, Table 3.4 bearing Fb,Rd and 3.10.2 block tearing on the ply, 3.9 slip."""

from __future__ import annotations

import math
from typing import Literal

from domain.calculations import Amount, Check
from tools.codes.en1993_1_8 import bearing as en_bearing
from tools.codes.en1993_1_8 import bolt_groups as en_groups
from tools.codes.en1993_1_8 import joints as en_joints
from tools.connections.bolt_data import EnGrade, stress_area
from tools.connections.bolt_joint import Found, Joint, area_text, force_check, force_text, length_text, record_missing
from tools.connections.inputs import hole_type

BEARING = "bearing at the holes (Table 3.4, Fb,Rd)"
TABLE = "EN 1993-1-8 Table 3.4"


def eurocode(joint: Joint, grade: EnGrade, slip: str | None, hole_text: str) -> Found:
    fub, stress, layout = grade.fub_mpa * 1e6, stress_area(joint.size), joint.layout
    area, alpha_v = (joint.size.gross_area, 0.6) if joint.threads_excluded else (stress, grade.alpha_v_threads)
    small = en_joints.small_bolt_factor(joint.size.metres, grade.name)
    one = en_joints.bolt_shear_resistance(fub, area, alpha_v) * joint.planes * small
    shares = en_groups.corner_shares(layout.positions(), layout.eccentricity, layout.angle) if layout.rotated else (
        1 / joint.bolts, 0.0)  # fmt: skip
    fv_rd = en_groups.shear_resistance(one, shares)
    ft_rd = en_joints.bolt_tension_resistance(fub, stress) * joint.bolts
    found = Found(fv_rd, ft_rd, None, f"class {grade.name} (fub = {grade.fub_mpa:g} MPa)", ("Fv,Ed", "Ft,Ed", "F_Rd"),
                  [joint.shear.text] + ([joint.tension.text] if joint.tension.newtons > 0 else []))  # fmt: skip
    found.figures["group_coefficient"] = f"{fv_rd / one:.3f}"
    found.substituted.append(
        f"Fv,Rd = {alpha_v:g} × {grade.fub_mpa:g} MPa × {area * 1e6:.4g} mm² / 1.25 × {joint.planes}"
        f"{' × 0.85' if small < 1 else ''} = {force_text(one, joint)} a bolt; {_group_text(joint, shares)}"
        f"Fv,Rd = {force_text(fv_rd, joint)}; Ft,Rd = 0.9 × {grade.fub_mpa:g} MPa × {stress * 1e6:.4g} mm² / 1.25 × "
        f"{joint.bolts} = {force_text(ft_rd, joint)}"
    )
    clause = TABLE + ("; 3.6.1(5)" if small < 1 else "") + ("; elastic method, SCI P358" if layout.rotated else "")
    found.checks.append(force_check("Fv,Ed ≤ Fv,Rd: bolt shear", joint.shear.newtons, fv_rd, clause, joint))
    if joint.tension.newtons > 0:
        found.checks.append(force_check("Ft,Ed ≤ Ft,Rd: bolt tension", joint.tension.newtons, ft_rd, TABLE, joint))
        found.not_checked.append("prying action on the bolts in tension (the T-stub of 6.2.4 is not modelled)")
    if joint.tension.newtons > 0 and joint.shear.newtons > 0:
        found.checks.append(_interaction(en_joints.shear_and_tension(joint.shear.newtons, fv_rd, joint.tension.newtons,
                                                                     ft_rd)))  # fmt: skip
    if slip is not None:
        _slip(joint, grade, slip, hole_text, found, shares)
    _plies(joint, found, (fub, one), shares, hole_text)
    found.notes += _notes(joint, small < 1)
    return found


def _group_text(joint: Joint, shares: tuple[float, float]) -> str:
    layout = joint.layout
    if not layout.rotated:
        return f"× {joint.bolts} bolts: "
    return (
        f"the most loaded bolt takes {shares[0]:.4f} V along and {shares[1]:.4f} V across the lines "
        f"(e = {length_text(layout.eccentricity, joint)}, θ = {math.degrees(layout.angle):.4g}°): "
    )


def _slip(joint: Joint, grade: EnGrade, slip: str, hole_text: str, found: Found, shares: tuple[float, float]) -> None:
    if not grade.preloadable:
        raise ValueError(
            f"class {grade.name} bolts cannot be preloaded (3.1.2(2)); slip-resistant joints take 8.8 or 10.9"
        )
    hole, assumed = hole_type(hole_text)
    ks, mu = en_joints.HOLE_FACTORS[hole], en_joints.SLIP_FACTORS[slip]
    fp_c = en_joints.preload(grade.fub_mpa * 1e6, stress_area(joint.size))
    per_bolt_tension = joint.tension.newtons / joint.bolts
    one = en_joints.slip_resistance(ks, joint.planes, mu, fp_c, per_bolt_tension)
    found.design_slip = en_groups.shear_resistance(one, shares)
    found.substituted.append(
        f"slip: Fp,C = 0.7 fub As = {force_text(fp_c, joint, 'kN')}; Fs,Rd = {ks:g} × {joint.planes} × {mu:g} × "
        f"(Fp,C − 0.8 × {force_text(per_bolt_tension, joint, 'kN')}) / 1.25 = {force_text(one, joint)} a bolt; "
        f"the group {force_text(found.design_slip, joint)}"
    )
    clause = "EN 1993-1-8 3.9.1 eq. 3.6, 3.7; 3.9.2 eq. 3.8a" if per_bolt_tension > 0 else "EN 1993-1-8 3.9.1"
    name = f"Fv,Ed ≤ Fs,Rd: slip at the ultimate limit state (Category C, class {slip}, {hole} holes)"
    found.checks.append(force_check(name, joint.shear.newtons, found.design_slip, clause, joint))
    if assumed:
        found.notes.append(f"The slots' direction was not given: {hole} to the force assumed (the less favourable).")


def _plies(joint: Joint, found: Found, bolt: tuple[float, float], shares: tuple[float, float], hole_text: str) -> None:
    hole, _ = hole_type(hole_text)
    factor = {"standard": 1.0, "oversized": 0.8}.get(hole)
    if factor is None:
        found.not_checked.append(f"{BEARING} and block tearing (3.10.2) at {hole} holes")
        return
    d0 = en_bearing.hole_diameter(joint.size.metres) + (0.002 if hole == "oversized" else 0.0)
    _bearing(joint, found, (bolt[0], bolt[1], factor, d0), shares)
    _block_tearing(joint, found, d0)


def _bearing(joint: Joint, found: Found, given: tuple[float, float, float, float], shares: tuple[float, float]) -> None:
    layout = joint.layout
    fub, bolt, factor, d0 = given
    names = ["ply_thickness", "ply_grade", "end_distance", "edge_distance", "spacing", "gauge"]
    if not record_missing(found, joint, BEARING, *names):
        return
    assert layout.thickness is not None and layout.steel is not None and layout.end is not None
    assert layout.edge is not None
    t, fu, d = layout.thickness, layout.steel.fu, joint.size.metres
    k1 = en_bearing.k1_edge(layout.edge, layout.gauge, d0)
    alphas = {"end": en_bearing.alpha_end(layout.end, d0, fub, fu)}
    if layout.rows > 1:
        alphas["inner"] = en_bearing.alpha_inner(layout.spacing or 0.0, d0, fub, fu)
    per_bolt = {w: factor * en_bearing.bearing_resistance(k1, a, fu, d, t) for w, a in alphas.items()}
    for where, value in per_bolt.items():
        found.forces[f"design_bearing_{where}"] = value
    steel = layout.steel
    text = (f"Fb,Rd = k1 αb fu d t/γM2 on {length_text(t, joint)} {steel.name} (fu = {fu / 1e6:g} MPa, "
            f"{steel.source}), d0 = {length_text(d0, joint)}, k1 = {k1:.3f}: "
            + ", ".join(f"αb = {alphas[w]:.3f}, {force_text(v, joint)} ({w} bolts)"
                        for w, v in per_bolt.items()))  # fmt: skip
    if layout.rotated:
        across = _across(joint, (fub, fu, d0, t), factor)
        group = en_groups.bearing_resistance(min(per_bolt.values()), across, shares)
        together = min(group, found.design_shear)
        text += f"; across the lines {force_text(across, joint)}; the group (P358) {force_text(group, joint)}"
        clause = f"{TABLE}; elastic method, SCI P358"
    else:
        group, together, clause = _concentric(joint, per_bolt, bolt)
    found.forces["design_bearing"], found.forces["design_bolt_group"] = group, together
    found.substituted.append(text + (f"; bolts and ply {force_text(together, joint)}" if together != group else ""))
    found.checks.append(force_check("Fv,Ed ≤ Fb,Rd: bearing on the ply", joint.shear.newtons, group, clause, joint))
    found.checks.append(force_check("Fv,Ed ≤ F_Rd: bolt group, shear and bearing (3.7)", joint.shear.newtons, together,
                                    f"{TABLE}; 3.7(1)", joint))  # fmt: skip


def _across(joint: Joint, steel: tuple[float, float, float, float], factor: float) -> float:
    """Fb,Rd across the lines (P358's Fb,hor,Rd): k1 from e1 and p1, αb from e2 and p2."""
    fub, fu, d0, t = steel
    layout = joint.layout
    assert layout.end is not None and layout.edge is not None
    k1 = en_bearing.k1_edge(layout.end, layout.spacing if layout.rows > 1 else None, d0)
    alpha = en_bearing.alpha_end(layout.edge, d0, fub, fu)
    if layout.columns > 1:
        alpha = min(alpha, en_bearing.alpha_inner(layout.gauge or 0.0, d0, fub, fu))
    return factor * en_bearing.bearing_resistance(k1, alpha, fu, joint.size.metres, t)


def _concentric(joint: Joint, per_bolt: dict[str, float], bolt: float) -> tuple[float, float, str]:
    """3.7(1): the sum of Fb,Rd where every Fv,Rd ≥ Fb,Rd; otherwise n × the least of any bolt's resistances."""
    counts = {"end": joint.layout.columns, "inner": joint.bolts - joint.layout.columns}
    group = sum(counts[w] * value for w, value in per_bolt.items())
    if bolt >= max(per_bolt.values()):
        return group, group, f"{TABLE}; 3.7(1)"
    return group, joint.bolts * min(bolt, *per_bolt.values()), f"{TABLE}; 3.7(1)"


def _block_tearing(joint: Joint, found: Found, d0: float) -> None:
    layout = joint.layout
    names = ("ply_thickness", "ply_grade", "end_distance", "edge_distance", "spacing", "gauge")
    if not record_missing(found, joint, "block tearing of the ply (3.10.2)", *names):
        return
    assert layout.thickness is not None and layout.steel is not None and layout.end is not None
    assert layout.edge is not None
    t = layout.thickness
    net_shear = t * (layout.end + (layout.rows - 1) * (layout.spacing or 0.0) - (layout.rows - 0.5) * d0)
    net_tension = t * (layout.edge + (layout.columns - 1) * (layout.gauge or 0.0) - (layout.columns - 0.5) * d0)
    design = en_bearing.block_tearing(layout.steel.fu, layout.steel.fy, net_tension, net_shear, eccentric=True)
    found.forces["design_block_shear"] = design
    found.substituted.append(
        f"block tearing: Ant = {area_text(net_tension, joint)}, Anv = {area_text(net_shear, joint)}, fy = "
        f"{layout.steel.fy / 1e6:g} MPa: Veff,2,Rd = 0.5 fu Ant/γM2 + fy Anv/(√3 γM0) = {force_text(design, joint)}"
    )
    found.checks.append(force_check("Fv,Ed ≤ Veff,2,Rd: block tearing of the ply", joint.shear.newtons, design,
                                    "EN 1993-1-8 3.10.2(3) eq. 3.10", joint))  # fmt: skip


def _interaction(total: float) -> Check:
    status: Literal["OK", "NG"] = "OK" if total <= 1 else "NG"
    return Check(name="Fv,Ed/Fv,Rd + Ft,Ed/(1.4 Ft,Rd) ≤ 1.0: shear and tension", value=f"{total:.3f}",
                 limit="1", status=status, ratio=round(total, 6), clause=TABLE,
                 value_amount=Amount(value=total), limit_amount=Amount(value=1.0), kind="maximum")  # fmt: skip


def _notes(joint: Joint, small: bool) -> list[str]:
    notes = ["Recommended γM0 = 1.0, γM2 = γM3 = 1.25 (Table 2.1); the UK National Annex takes the same. Long joints "
             "(3.8, Lj > 15d) are not reduced here."]  # fmt: skip
    if joint.layout.rotated:
        notes.insert(0, "An eccentric or inclined shear: the elastic method of SCI P358 (Steel Buildings in "
                        "Europe, Part 5, 3.2.1): the most loaded bolt's direct share and twist M r/Ip.")  # fmt: skip
    else:
        notes.insert(0, "The shear passes through the group's centroid: each bolt takes an equal share.")
    if small:
        notes.append("M12 and M14 in 2 mm clearance holes: Fv,Rd × 0.85 (3.6.1(5)), which also asks that the group's "
                     "bearing resistance be at least its shear resistance.")  # fmt: skip
    return notes
