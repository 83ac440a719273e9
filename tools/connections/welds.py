"""`fillet_weld_check`: equal fillet welds sharing a force, to AISC 360-22 J2 or EN 1993-1-8 4.5.3.3."""

from __future__ import annotations

import math
import re
from typing import Any

from domain.calculations import CalcResult
from tools.calc import check, quantities
from tools.catalogue import tool
from tools.codes.aisc360 import connections as aisc_j
from tools.codes.en1993_1_8 import joints as en_joints
from tools.connections.bolt_data import KSI
from tools.connections.inputs import Combined, combination_name, combine, count, force
from tools.connections.inputs import angle as read_angle
from tools.connections.inputs import length as read_length
from tools.connections.weld_groups import Group, aisc_group, eurocode_group
from tools.connections.weld_records import Finding, WeldRun
from tools.steel.sections_and_checks import CodeName, code_key
from tools.units import registry
from tools.units.reading import require
from tools.units.showing import conventional, show, system_of

ELECTRODES_KSI = (60, 70, 80, 90, 100, 110)  # AWS E60XX … E110XX: FEXX in ksi
ELECTRODES_MPA = {43: 430, 49: 490, 55: 550, 62: 620, 69: 690, 76: 760}  # AWS A5.1M/A5.5M E43XX … E76XX
AISC_NOT_CHECKED = (
    "base metal at the welds (J2.4 eq. J2-2, J4), minimum and maximum weld size and minimum length "
    "(J2.2b, Table J2.4) not checked"
)
EN_NOT_CHECKED = "base metal at the welds, minimum throat (4.5.2(2)) and minimum length (4.5.1(2)) not checked"
# φ × … (LRFD) or … / Ω (ASD): how the available strength per length is written
_AVAILABLE = {"LRFD": ("Pu", "φRn", "φrn = 0.75 × ", ""), "ASD": ("Pa", "Rn/Ω", "rn/Ω = ", " / 2.00")}


@tool("calculation", words=("weld", "welds", "welded", "fillet", "connection", "throat", "electrode", "e70"))
def fillet_weld_check(
    size: str,
    length: str,
    dead_load: str,
    live_load: str,
    electrode: str = "E70",
    angle: str = "0 deg",
    welds: int = 1,
    code: str = "AISC360-LRFD",
    grade: str | None = None,
    eccentricity: str | None = None,
    return_length: str | None = None,
) -> CalcResult:
    """Fillet welds sharing a force, concentric or eccentric (AISC 360-22 J2.4, EN 1993-1-8 4.5.3.3), with clause,
    ratio and OK/NG. Use it whenever asked if a fillet weld works.

    Args:
        size: Leg, "5/16 in" or "8 mm".
        length: Each weld's length.
        dead_load: Unfactored dead force on all the welds.
        live_load: Unfactored live force on all the welds.
        electrode: AISC: "E70", "E80"…
        angle: Force to weld axis: "0 deg" along, "90 deg" across.
        welds: Equal welds (or groups) sharing the force.
        code: "AISC360-LRFD", "AISC360-ASD" or "EN1993".
        grade: EN1993: weaker part's steel, "S355".
        eccentricity: Each group's centroid to the force's line.
        return_length: Returns at both ends, toward the force.
    """
    code_name = code_key(code)
    leg, run_length = read_length(size, "size"), read_length(length, "length")
    dead, live = force(dead_load, "dead_load"), force(live_load, "live_load")
    system = system_of(leg, run_length, dead, live)
    required = combine(code_name, dead, live, system, "Fw,Ed" if code_name == "EN1993" else _method_symbol(code_name))
    if required.newtons <= 0:
        raise ValueError("the welds carry no force; give the dead and live forces they share")
    run = WeldRun(leg.to("m").magnitude, run_length.to("m").magnitude, count(welds, "welds", "welds"),
                  read_angle(angle), system)  # fmt: skip
    if run.size >= run.length:
        raise ValueError(f"length {length} is not longer than the weld's size {size}; check the two")
    group = _group(run, eccentricity, return_length)
    if group is not None:
        finding = _eccentric(run, group, code_name, grade, electrode)
    else:
        finding = _eurocode(run, grade, electrode) if code_name == "EN1993" else _aisc(run, code_name, electrode)
    if grade and code_name != "EN1993":
        finding.notes.append("grade is used by EN1993 only: the base metal is not checked here.")
    return _result(run, required, finding, code_name)


def _group(run: WeldRun, eccentricity: str | None, return_length: str | None) -> Group | None:
    """The eccentric or C-shaped group, if either was given."""
    if eccentricity is None and return_length is None:
        return None
    ex = _optional_length(eccentricity, "eccentricity")
    returns = _optional_length(return_length, "return_length")
    if ex > 20 * run.length:
        raise ValueError(f"eccentricity {eccentricity} is over 20 times the weld's length; check the two")
    return Group(run.length, returns, ex)


def _optional_length(text: str | None, name: str) -> float:
    if text is None or not text.strip():
        return 0.0
    value = float(require(text, name, "length", positive=False).to("m").magnitude)
    if value < 0:
        raise ValueError(f"{name} must not be negative; got {text.strip()}")
    return value


def _eccentric(run: WeldRun, group: Group, code: CodeName, grade: str | None, electrode: str) -> Finding:
    if code != "EN1993":
        name, fexx = electrode_strength(electrode)
        finding = aisc_group(run, group, code.split("-")[1], fexx, name)
        finding.details["not_checked"] = AISC_NOT_CHECKED
        return finding
    finding = _eurocode(run, grade, electrode)
    fu, beta_w = en_joints.WELD_STEELS[_weld_steel(grade)]
    design, strength, working = eurocode_group(run, group, fu, beta_w)
    finding.design, finding.check_name = design, "Fw,Ed ≤ F_Rd: fillet weld group, eccentric (simplified method)"
    finding.substituted = (f"{finding.substituted.split('; F_Rd')[0]}; {working}; F_Rd = {_text(strength, run, 'line')}"
                           f" / (the most stressed point's share) × {run.welds}")  # fmt: skip
    finding.clause = "EN 1993-1-8 4.5.3.3 eq. 4.3, 4.4; elastic method for the eccentricity"
    finding.notes.append("An eccentric or C-shaped group: the force per length at the most stressed point by the "
                         "elastic (polar) method, against Fw,Rd; βLw (4.11) is not applied.")  # fmt: skip
    return finding


def _method_symbol(code: CodeName) -> str:
    return "Pu" if code == "AISC360-LRFD" else "Pa"


def electrode_strength(text: str) -> tuple[str, float]:
    """ "E70", "E70XX" → ("E70XX", 70 ksi in Pa); "E49" → ("E49XX", 490 MPa); or a strength such as "70 ksi"."""
    match = re.fullmatch(r"\s*E\s*(\d{2,3})\s*(?:XX|\w{0,6})\s*", text.upper())
    if match and int(match.group(1)) in ELECTRODES_KSI:
        return f"E{match.group(1)}XX", int(match.group(1)) * KSI
    if match and int(match.group(1)) in ELECTRODES_MPA:
        return f"E{match.group(1)}XX", ELECTRODES_MPA[int(match.group(1))] * 1e6
    try:
        stress = require(text, "electrode", "pressure or stress")
    except ValueError:
        raise ValueError(
            f"electrode {text!r} is not one this check knows: 'E60' to 'E110' (FEXX in ksi), 'E43' to 'E76' "
            "(metric), or the filler metal's strength such as '70 ksi'"
        ) from None
    return f"FEXX = {show(stress)}", float(stress.to("Pa").magnitude)


def _aisc(run: WeldRun, code: CodeName, electrode: str) -> Finding:
    """J2.4(a) with kds (J2-5) and β (J2.2b(d))."""
    method = code.split("-")[1]
    name, fexx = electrode_strength(electrode)
    kds = aisc_j.directional_factor(run.theta)
    end_loaded = run.theta < math.pi / 2 - 1e-9
    beta, beta_text = aisc_j.long_weld_factor(run.length, run.size) if end_loaded else (1.0, "β (transverse)")
    strength = aisc_j.fillet_weld(fexx, run.size, run.theta, run.length, run.welds, beta)
    factor = strength.phi if method == "LRFD" else 1 / strength.omega
    per_length = aisc_j.fillet_weld_per_length(fexx, run.size, kds) * run.welds * factor
    required_symbol, available, prefix, suffix = _AVAILABLE[method]
    throat = aisc_j.effective_throat(run.size)
    substituted = (
        f"kds = 1.0 + 0.50 sin^1.5({math.degrees(run.theta):.4g}°) = {kds:.3f}; {prefix}0.60 × "
        f"{show(_stress(fexx, 'ksi' if run.system == 'US' else 'MPa'))} × {_text(throat, run, 'throat')} × {kds:.3f} × "
        f"{run.welds} welds{suffix} = {_text(per_length, run, 'line')}; {beta_text} = {beta:.3f}; "
        f"{available} = {_text(per_length, run, 'line')} × {_text(run.length, run, 'length')} × {beta:.3f}"
    )
    beta_note = (
        "β (J2.2b(d)) is applied as for end-loaded welds; welds loaded along their length, such as web-to-flange "
        "welds, take β = 1.0."
        if end_loaded
        else "Transverse welds are not end-loaded: β = 1.0 (J2.2b(d))."
    )
    return Finding(
        design=strength.design(method), per_length=per_length, throat=throat,
        check_name=f"{required_symbol} ≤ {available}: weld shear rupture", clause=strength.clause,
        formula="Rn = 0.60 FEXX (w/√2) kds × welds × l × β (J2-4); kds = 1.0 + 0.50 sin^1.5 θ (J2-5); "
        "β = 1.2 − 0.002 l/w ≤ 1.0 (J2-1); φ = 0.75, Ω = 2.00 (Table J2.5)",
        reference=f"AISC 360-22 J2.2, J2.4 ({method}); combination per ASCE 7-22", substituted=substituted,
        details={"not_checked": AISC_NOT_CHECKED, "electrode": name, "directional_factor": f"{kds:.3f}",
                 "long_weld_factor": f"{beta:.3f}"},
        notes=["Loaded through the weld group's centroid (J2.4(a)); an eccentric load needs the instantaneous "
               "centre method of Manual Part 8.", beta_note],
    )  # fmt: skip


def _eurocode(run: WeldRun, grade: str | None, electrode: str) -> Finding:
    """4.5.3.3 (the simplified method) with βLw of 4.11 for a long lap joint."""
    steel = _weld_steel(grade)
    fu, beta_w = en_joints.WELD_STEELS[steel]
    a = en_joints.throat(run.size)
    beta = en_joints.long_joint_factor(run.length, a)
    per_length = en_joints.weld_resistance_per_length(fu, beta_w, a) * run.welds
    fvw = show(_stress(en_joints.weld_shear_strength(fu, beta_w), "MPa"))
    substituted = (
        f"a = s/√2 = {_text(a, run, 'throat')}; fvw,d = {show(_stress(fu, 'MPa'))}/√3 / ({beta_w:g} × "
        f"{en_joints.GAMMA_M2:g}) = {fvw}; Fw,Rd = {fvw} × {_text(a, run, 'throat')} × {run.welds} welds = "
        f"{_text(per_length, run, 'line')}; βLw = {beta:.3f}; "
        f"F_Rd = {_text(per_length, run, 'line')} × {_text(run.length, run, 'length')} × {beta:.3f}"
    )
    notes = [
        "fu is the least of EN 1993-1-1 Table 3.1 for parts up to 80 mm thick (40 < t ≤ 80 mm); parts of at most "
        "40 mm may take the higher value, and the National Annex may set it from the product standard.",
        "The simplified method does not depend on the force's direction (4.5.3.3(2)); the directional method "
        "(4.5.3.2) gives more for transverse welds.",
        "The length is the effective length, full size throughout (4.5.1); βLw (4.11) is applied as for a lap "
        "joint when it is longer than 150a.",
    ]
    if grade is None:
        notes.insert(0, "No grade given: S355 assumed for the weaker connected part (fu = 470 MPa, βw = 0.9).")
    if electrode.strip().upper() not in ("E70", "E70XX"):
        notes.append("Filler metal matching the parent metal is assumed (4.2(2)); the electrode named is not used.")
    return Finding(
        design=per_length * run.length * beta, per_length=per_length, throat=a,
        check_name="Fw,Ed ≤ F_Rd: fillet weld, simplified method", clause="EN 1993-1-8 4.5.3.3 eq. 4.3, 4.4; 4.11",
        formula="Fw,Rd = fvw,d a (eq. 4.3); fvw,d = (fu/√3)/(βw γM2) (eq. 4.4); F_Rd = Fw,Rd × welds × L × βLw; "
        "βLw = 1.2 − 0.2 L/(150a) ≤ 1.0 (eq. 4.9); γM2 = 1.25",
        reference="EN 1993-1-8:2005, 4.5.3.3 and 4.11; recommended γM2 = 1.25 (2.2); EN 1990 6.10",
        substituted=substituted,
        details={"not_checked": EN_NOT_CHECKED, "grade": f"{steel} (fu = {show(_stress(fu, 'MPa'))}, βw = {beta_w:g})",
                 "long_joint_factor": f"{beta:.3f}"},
        notes=notes,
    )  # fmt: skip


def _weld_steel(grade: str | None) -> str:
    if grade is None:
        return "S355"
    match = re.match(r"^\s*(S\d{3})", grade.upper())
    if match and match.group(1) in en_joints.WELD_STEELS:
        return match.group(1)
    raise ValueError(f"grade {grade!r} is not one this check knows: {', '.join(en_joints.WELD_STEELS)}")


def _stress(value: float, unit: str) -> Any:
    return (value * registry().Pa).to(unit)


def _text(value: float, run: WeldRun, kind: str) -> str:
    """A length (m) or a strength per length (N/m) shown in the units engineers of the inputs' system use."""
    unit = {"line": ("kip/in", "kN/mm"), "throat": ("in", "mm"), "length": ("in", "mm")}[kind][run.system != "US"]
    return show((value * registry().parse_units("N/m" if kind == "line" else "m")).to(unit))


def _result(run: WeldRun, required: Combined, finding: Finding, code: CodeName) -> CalcResult:
    ureg, us = registry(), run.system == "US"
    demand = conventional(required.newtons * ureg.N, run.system)
    capacity = conventional(finding.design * ureg.N, run.system)
    ratio = required.newtons / finding.design
    weld_check = check(finding.check_name, demand, capacity, finding.clause)
    shown, full, amounts = quantities({"required_strength": demand, "design_strength": capacity})
    rest, rest_full, rest_amounts = quantities({
        "strength_per_length": (finding.per_length * ureg.N / ureg.m).to("kip/in" if us else "kN/mm"),
        "throat": (finding.throat * ureg.m).to("in" if us else "mm"),
    })  # fmt: skip
    plain = {"verdict": weld_check.status, "welds": str(run.welds), **finding.details}
    return CalcResult(
        results={**shown, "ratio": f"{ratio:.3f}", **rest, **plain},
        precise={**full, "ratio": repr(ratio), **rest_full, **plain},
        amounts={**amounts, **rest_amounts},
        formula=f"{combination_name(code)}; {finding.formula}",
        substituted=f"{required.text}; {finding.substituted} = {show(capacity)}; ratio {ratio:.3f}",
        reference=finding.reference,
        checks=[weld_check],
        notes=finding.notes,
        not_checked=_not_checked(code),
        covers="weld shear rupture only (the weld metal)",
    )


def _not_checked(code: CodeName) -> list[str]:
    if code == "EN1993":
        return ["the base metal at the welds", "the minimum throat (4.5.2(2))", "the minimum length (4.5.1(2))"]
    return ["the base metal at the welds (J2.4 eq. J2-2, J4)", "the minimum and maximum weld size (J2.2b, Table J2.4)",
            "the minimum length (J2.2b)"]  # fmt: skip
