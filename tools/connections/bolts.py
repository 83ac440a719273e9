"""`bolt_check`: a group of equal bolts sharing shear and tension, to AISC 360-22 J3 or EN 1993-1-8 Table 3.4."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from domain.calculations import Amount, CalcResult, Check
from tools.calc import check, quantities
from tools.catalogue import tool
from tools.codes.aisc360 import connections as aisc_j
from tools.codes.en1993_1_8 import joints as en_joints
from tools.connections.bolt_data import Diameter, aisc_grade, aisc_stresses, en_grade, pretension, stress_area
from tools.connections.bolt_data import diameter as read_diameter
from tools.connections.inputs import Combined, combination_name, combine, count, force, hole_type
from tools.steel.sections_and_checks import CodeName, code_key
from tools.units import registry
from tools.units.showing import System, conventional, show, system_of

AISC_NOT_CHECKED = (
    "bearing and tear-out at the holes not checked (J3.11), nor block shear (J4.3), the connected parts, "
    "prying action or spacing and edge distances (J3.3 to J3.6)"
)
EN_NOT_CHECKED = (
    "bearing and tear-out at the holes not checked (Table 3.4, Fb,Rd), nor punching shear, block tearing "
    "(3.10.2), the connected parts, prying action or spacing and edge distances (Table 3.3)"
)


@dataclass(frozen=True)
class Joint:
    """The bolt group as given: size, count, shear planes, threads in the shear plane, the factored forces."""

    size: Diameter
    bolts: int
    planes: int
    threads_excluded: bool
    shear: Combined
    tension: Combined
    system: System


@dataclass
class Found:
    """What a code's clauses found for the group, in N: strengths, checks, and how they were reached."""

    design_shear: float
    design_tension: float
    design_slip: float | None
    grade: str
    symbols: tuple[str, str, str]  # required shear, required tension, strength
    substituted: list[str]
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@tool("calculation", words=("bolt", "bolts", "bolted", "connection", "slip", "a325", "a490", "friction", "preloaded"))
def bolt_check(
    diameter: str,
    grade: str,
    bolts: int,
    shear_dead: str,
    shear_live: str,
    tension_dead: str = "0 kip",
    tension_live: str = "0 kip",
    code: str = "AISC360-LRFD",
    threads: str = "included",
    shear_planes: int = 1,
    slip_class: str | None = None,
    hole: str = "standard",
) -> CalcResult:
    """A group of equal bolts in shear and tension: shear, tension, their interaction and slip, each with its
    clause, ratio and OK/NG (AISC 360-22 J3, EN 1993-1-8). Use it whenever asked if bolts work.

    Args:
        diameter: Such as "3/4 in" or "M20".
        grade: "A325", "A490", "8.8" or "10.9".
        bolts: How many bolts share the forces.
        shear_dead: Unfactored dead shear on the group, such as "17 kip".
        shear_live: Unfactored live shear on the group.
        tension_dead: Unfactored dead tension on the group.
        tension_live: Unfactored live tension on the group.
        code: "AISC360-LRFD", "AISC360-ASD" or "EN1993".
        threads: "included" in the shear planes or "excluded".
        shear_planes: 1 single shear, 2 double shear.
        slip_class: Slip-critical joints only: "A" or "B" (EN1993: "A" to "D").
        hole: For slip: "standard", "oversized", "short-slotted transverse", "long-slotted".
    """
    code_name = code_key(code)
    size = read_diameter(diameter)
    loads = [force(text, name) for text, name in ((shear_dead, "shear_dead"), (shear_live, "shear_live"),
             (tension_dead, "tension_dead"), (tension_live, "tension_live"))]  # fmt: skip
    system = system_of(*loads)
    en = code_name == "EN1993"
    shear = combine(code_name, loads[0], loads[1], system, "Fv,Ed" if en else _symbols(code_name)[0])
    tension = combine(code_name, loads[2], loads[3], system, "Ft,Ed" if en else _symbols(code_name)[1])
    if shear.newtons <= 0 and tension.newtons <= 0:
        raise ValueError("the bolts carry no force; give the dead and live shear (and tension) on the group")
    joint = Joint(size, count(bolts, "bolts", "bolts"), count(shear_planes, "shear_planes", "shear planes"),
                  _threads_excluded(threads), shear, tension, system)  # fmt: skip
    slip = _slip_class(slip_class, en)
    found = _eurocode(joint, en_grade(grade), slip, hole) if en else _aisc(joint, code_name, grade, slip, hole)
    return _result(joint, found, code_name)


def _symbols(code: CodeName) -> tuple[str, str, str]:
    return ("Vu", "Tu", "φRn") if code == "AISC360-LRFD" else ("Va", "Ta", "Rn/Ω")


def _combinations(joint: Joint) -> list[str]:
    """How the shear (and the tension, if there is any) were combined, for the substitution."""
    return [joint.shear.text] + ([joint.tension.text] if joint.tension.newtons > 0 else [])


def _threads_excluded(text: str) -> bool:
    key = text.strip().lower()
    if key in ("included", "include", "n", "in", "not excluded", "threads included", "yes"):
        return False
    if key in ("excluded", "exclude", "x", "out", "threads excluded", "no"):
        return True
    raise ValueError(f"threads must be 'included' (threads in the shear planes) or 'excluded'; got {text!r}")


def _slip_class(text: str | None, en: bool) -> str | None:
    if text is None or not text.strip() or text.strip().lower() in ("none", "no", "bearing"):
        return None
    key = text.strip().upper().removeprefix("CLASS").strip()
    known = ("A", "B", "C", "D") if en else ("A", "B")
    if key not in known:
        raise ValueError(
            f"slip_class must be {', '.join(known)} (the faying surface's class), or omitted; got {text!r}"
        )
    return key


def _aisc(joint: Joint, code: CodeName, grade_text: str, slip: str | None, hole_text: str) -> Found:
    method = code.split("-")[1]
    grade = aisc_grade(grade_text)
    fnt, fnv = aisc_stresses(grade, joint.size, joint.threads_excluded)
    area = joint.size.gross_area
    shear = aisc_j.bolt_shear(fnv, area, joint.planes, joint.bolts)
    tension = aisc_j.bolt_tension(fnt, fnv, area, joint.bolts, joint.shear.newtons / joint.planes,
                                     joint.tension.newtons, method)  # fmt: skip
    v_sym, t_sym, r_sym = _symbols(code)
    found = Found(shear.design(method), tension.design(method), None, grade.name, (v_sym, t_sym, r_sym),
                  _combinations(joint))  # fmt: skip
    stress_unit = "MPa" if joint.size.metric else "ksi"
    found.substituted.append(
        f"Ab = π({joint.size.label})²/4 = {_area_text(area, joint.size)}; Fnv = {_stress(fnv, stress_unit)}, "
        f"Fnt = {_stress(fnt, stress_unit)} (Table J3.2); {r_sym} shear = {_force(found.design_shear, joint)}, "
        f"tension = {_force(found.design_tension, joint)}{f' ({tension.detail})' if tension.detail else ''}"
    )
    found.checks.append(_check(f"{v_sym} ≤ {r_sym}: bolt shear", joint.shear.newtons, found.design_shear,
                               shear.clause, joint))  # fmt: skip
    if joint.tension.newtons > 0:
        name = f"{t_sym} ≤ {r_sym}: {tension.limit_state}"
        found.checks.append(_check(name, joint.tension.newtons, found.design_tension, tension.clause, joint))
    if slip is not None:
        _aisc_slip(joint, grade, slip, hole_text, method, found)
    found.notes += [
        "Each bolt takes an equal share of the forces: the group is loaded through its centroid.",
        "For a joint longer than 38 in (950 mm) along the force, Fnv is 83.3 % of Table J3.2's value (note [b]): "
        "not applied here.",
    ]
    return found


def _aisc_slip(joint: Joint, grade: Any, slip: str, hole_text: str, method: str, found: Found) -> None:
    hole, assumed = hole_type(hole_text)
    tb = pretension(grade, joint.size)
    strength = aisc_j.slip_resistance(aisc_j.SLIP_COEFFICIENTS[slip], tb, joint.planes, joint.bolts, hole)
    ksc = aisc_j.slip_tension_factor(joint.tension.newtons, tb, joint.bolts, method)
    found.design_slip = strength.design(method) * ksc
    clause = strength.clause + ("; J3.10 eq. J3-5a" if method == "LRFD" else "; J3.10 eq. J3-5b") * (ksc < 1)
    found.substituted.append(
        f"slip: Rn = μ Du hf Tb ns = {aisc_j.SLIP_COEFFICIENTS[slip]:.2f} × {aisc_j.DU} × 1.0 × "
        f"{_force(tb, joint, 'kip' if not joint.size.metric else 'kN')} × {joint.planes} = "
        f"{_force(strength.nominal / joint.bolts, joint)} per bolt; φ = {strength.phi:.2f}, Ω = {strength.omega:.2f} "
        f"({hole} holes); ksc = {ksc:.3f}; {found.symbols[2]} = {_force(found.design_slip, joint)}"
    )
    name = f"{found.symbols[0]} ≤ {found.symbols[2]}: slip (Class {slip}, {hole} holes)"
    found.checks.append(_check(name, joint.shear.newtons, found.design_slip, clause, joint))
    found.notes.append("hf = 1.0: no filler, or one filler, between the connected parts (J3.9).")
    if assumed and hole.startswith("short"):  # long slots take the same φ and Ω either way (J3.9(c))
        found.notes.append(f"The slots' direction was not given: {hole} to the force assumed (the less favourable).")


def _eurocode(joint: Joint, grade: Any, slip: str | None, hole_text: str) -> Found:
    fub = grade.fub_mpa * 1e6
    stress = stress_area(joint.size)
    area, alpha_v = (joint.size.gross_area, 0.6) if joint.threads_excluded else (stress, grade.alpha_v_threads)
    fv_rd = en_joints.bolt_shear_resistance(fub, area, alpha_v) * joint.planes * joint.bolts
    ft_rd = en_joints.bolt_tension_resistance(fub, stress) * joint.bolts
    found = Found(fv_rd, ft_rd, None, f"class {grade.name} (fub = {grade.fub_mpa:g} MPa)",
                  ("Fv,Ed", "Ft,Ed", "F_Rd"), _combinations(joint))  # fmt: skip
    found.substituted.append(
        f"Fv,Rd = {alpha_v:g} × {grade.fub_mpa:g} MPa × {area * 1e6:.4g} mm² / 1.25 × {joint.planes} × {joint.bolts} "
        f"= {_force(fv_rd, joint)}; Ft,Rd = 0.9 × {grade.fub_mpa:g} MPa × {stress * 1e6:.4g} mm² / 1.25 × "
        f"{joint.bolts} = {_force(ft_rd, joint)}"
    )
    found.checks.append(_check("Fv,Ed ≤ Fv,Rd: bolt shear", joint.shear.newtons, fv_rd, "EN 1993-1-8 Table 3.4", joint))
    if joint.tension.newtons > 0:
        found.checks.append(
            _check("Ft,Ed ≤ Ft,Rd: bolt tension", joint.tension.newtons, ft_rd, "EN 1993-1-8 Table 3.4", joint)
        )
    if joint.tension.newtons > 0 and joint.shear.newtons > 0:
        total = en_joints.shear_and_tension(joint.shear.newtons, fv_rd, joint.tension.newtons, ft_rd)
        found.checks.append(_interaction(total))
    if slip is not None:
        _eurocode_slip(joint, grade, slip, hole_text, found)
    found.notes += ["Each bolt takes an equal share of the forces: the group is loaded through its centroid.",
                    "Recommended γM2 = γM3 = 1.25 (Table 2.1); the National Annex may differ. Long joints "
                    "(3.8, Lj > 15d) are not reduced here."]  # fmt: skip
    if joint.size.millimetres() in (12, 14):
        found.notes.append("M12 and M14 in 2 mm clearance holes take 0.85 Fv,Rd (3.6.1(5)): not applied here.")
    return found


def _eurocode_slip(joint: Joint, grade: Any, slip: str, hole_text: str, found: Found) -> None:
    if not grade.preloadable:
        raise ValueError(
            f"class {grade.name} bolts cannot be preloaded (3.1.2(2)); slip-resistant joints take 8.8 or 10.9"
        )
    hole, assumed = hole_type(hole_text)
    ks, mu = en_joints.HOLE_FACTORS[hole], en_joints.SLIP_FACTORS[slip]
    fp_c = en_joints.preload(grade.fub_mpa * 1e6, stress_area(joint.size))
    per_bolt_tension = joint.tension.newtons / joint.bolts
    found.design_slip = en_joints.slip_resistance(ks, joint.planes, mu, fp_c, per_bolt_tension) * joint.bolts
    found.substituted.append(
        f"slip: Fp,C = 0.7 fub As = {_force(fp_c, joint, 'kN')}; Fs,Rd = {ks:g} × {joint.planes} × {mu:g} × "
        f"(Fp,C − 0.8 × {_force(per_bolt_tension, joint, 'kN')}) / 1.25 × {joint.bolts} = "
        f"{_force(found.design_slip, joint)}"
    )
    clause = "EN 1993-1-8 3.9.1 eq. 3.6, 3.7; 3.9.2 eq. 3.8a" if per_bolt_tension > 0 else "EN 1993-1-8 3.9.1"
    name = f"Fv,Ed ≤ Fs,Rd: slip at the ultimate limit state (Category C, class {slip}, {hole} holes)"
    found.checks.append(_check(name, joint.shear.newtons, found.design_slip, clause, joint))
    if assumed:
        found.notes.append(f"The slots' direction was not given: {hole} to the force assumed (the less favourable).")


def _interaction(total: float) -> Check:
    status: Literal["OK", "NG"] = "OK" if total <= 1 else "NG"
    return Check(name="Fv,Ed/Fv,Rd + Ft,Ed/(1.4 Ft,Rd) ≤ 1.0: shear and tension", value=f"{total:.3f}",
                 limit="1", status=status, ratio=round(total, 6), clause="EN 1993-1-8 Table 3.4",
                 value_amount=Amount(value=total), limit_amount=Amount(value=1.0), kind="maximum")  # fmt: skip


def _check(name: str, demand: float, capacity: float, clause: str, joint: Joint) -> Check:
    ureg = registry()
    return check(name, conventional(demand * ureg.N, joint.system), conventional(capacity * ureg.N, joint.system),
                 clause)  # fmt: skip


def _force(newtons: float, joint: Joint, unit: str | None = None) -> str:
    return show(conventional(newtons * registry().N, joint.system, prefer=unit))


def _stress(pascals: float, unit: str) -> str:
    return show((pascals * registry().Pa).to(unit))


def _area_text(area: float, size: Diameter) -> str:
    return show((area * registry().m ** 2).to("mm**2" if size.metric else "in**2"))


def _result(joint: Joint, found: Found, code: CodeName) -> CalcResult:
    ureg = registry()
    ratio = max((c.ratio or 0.0) for c in found.checks)
    governing = max(found.checks, key=lambda c: c.ratio or 0.0)
    values: dict[str, Any] = {
        "required_shear": conventional(joint.shear.newtons * ureg.N, joint.system),
        "design_shear": conventional(found.design_shear * ureg.N, joint.system),
        "required_tension": conventional(joint.tension.newtons * ureg.N, joint.system),
        "design_tension": conventional(found.design_tension * ureg.N, joint.system),
    }
    if found.design_slip is not None:
        values["design_slip"] = conventional(found.design_slip * ureg.N, joint.system)
    shown, full, amounts = quantities(values)
    en = code == "EN1993"
    plain = {
        "ratio": f"{ratio:.3f}",
        "verdict": "OK" if all(c.status == "OK" for c in found.checks) else "NG",
        "governing": governing.name.split(": ", 1)[-1],
        "bolts": f"{joint.bolts} × {joint.size.label} {found.grade}, {joint.planes} shear plane(s), threads "
        f"{'excluded' if joint.threads_excluded else 'included'}",
        "not_checked": EN_NOT_CHECKED if en else AISC_NOT_CHECKED,
    }
    return CalcResult(
        results={**shown, **plain},
        precise={**full, **plain, "ratio": repr(ratio)},
        amounts=amounts,
        formula=_formula(code, found.design_slip is not None),
        substituted="; ".join(found.substituted),
        reference=("EN 1993-1-8:2005, 3.4, 3.6, 3.9, Table 3.4; EN 1990 6.10" if en
                   else f"AISC 360-22 J3.7 to J3.10 ({code.split('-')[1]}); combination per ASCE 7-22"),
        checks=found.checks,
        notes=[*found.notes, f"{plain['not_checked'][0].upper()}{plain['not_checked'][1:]}."],
    )  # fmt: skip


def _formula(code: CodeName, slip: bool) -> str:
    if code == "EN1993":
        text = ("Fv,Rd = αv fub A/γM2 per plane; Ft,Rd = k2 fub As/γM2; Fv,Ed/Fv,Rd + Ft,Ed/(1.4 Ft,Rd) ≤ 1.0 "
                "(Table 3.4)")  # fmt: skip
        return f"{combination_name(code)}; {text}" + ("; Fs,Rd = ks n μ (Fp,C − 0.8 Ft,Ed)/γM3 (3.9)" if slip else "")
    text = (
        "Rn = Fnv Ab ns, Fnt Ab (J3-1); F'nt = 1.3Fnt − Fnt frv/(φFnv) ≤ Fnt (J3-3a; J3-3b for ASD), Rn = F'nt Ab "
        "(J3-2); φ = 0.75, Ω = 2.00"
    )
    return f"{combination_name(code)}; {text}" + ("; Rn = μ Du hf Tb ns × ksc (J3-4, J3-5)" if slip else "")
