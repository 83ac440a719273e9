"""Steel sections and member checks: `section_properties` and `steel_beam_check`.

The shapes come from `tools.shapes.tables`; the clauses from `tools.codes.aisc360.flexure` and
`tools.codes.en1993_1_1.resistance`; the code-specific verdicts from `tools.steel.verdicts`.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Literal

from domain.calculations import Amount, CalcResult
from tools.beams import CASES, beam_diagram
from tools.calc import calc_result
from tools.catalogue import tool
from tools.codes.en1993_1_1 import resistance as en_resistance
from tools.codes.national_annexes import national_annex as read_annex
from tools.practice import rolled_span_warnings, span_warnings
from tools.shapes.member import i_member
from tools.shapes.tables import find_shape, metric_namesake
from tools.steel.verdicts import Loading, Verdict, aisc_verdict, eurocode_verdict
from tools.units import registry
from tools.units.reading import require
from tools.units.showing import conventional, engineering_units, show, significant, system_of

PINNED_KEYS = (
    "area", "depth", "I_major", "I_minor", "S_major", "Z_major", "r_major", "r_minor", "J", "mass_per_length",
)  # fmt: skip
EXTRA_KEYS = (
    "width",
    "web_thickness",
    "flange_thickness",
    "wall_thickness",
    "root_radius",
    "S_minor",
    "Z_minor",
    "r_z",
    "warping_constant",
)
COMBINATIONS = {"AISC360-LRFD": (1.2, 1.6), "AISC360-ASD": (1.0, 1.0), "EN1993": (1.35, 1.5)}
COMBINATION_NAMES = {
    "AISC360-LRFD": "1.2D + 1.6L (ASCE 7-22 2.3.1)",
    "AISC360-ASD": "D + L (ASCE 7-22 2.4.1)",
    "EN1993": "1.35G + 1.5Q (EN 1990 eq. 6.10)",
}
AISC_GRADES_KSI = {
    "A992": 50.0,
    "A36": 36.0,
    "A572-50": 50.0,
    "A572-65": 65.0,
    "A588": 50.0,
    "A913-50": 50.0,
    "A913-65": 65.0,
}
KSI = 6.894757293168361e6  # Pa
CodeName = Literal["AISC360-LRFD", "AISC360-ASD", "EN1993"]


@tool("calculation", words=("section", "properties", "w", "hss", "ipe", "hea", "heb", "ub", "uc", "shape"))
def section_properties(designation: str) -> CalcResult:
    """Properties of a standard rolled steel section from the published tables (area, I, S, Z, r, J, weight).

    Use it whenever a question names a section, before any calculation that needs its properties; never guess them.

    Args:
        designation: As engineers write it: "W18X50" (or its metric name "W460X74"), "HSS6X6X1/4", "L4X4X1/2",
            "IPE 300", "HEB 200", "UB 457x191x67".
    """
    designation, grade = designation_and_grade(designation, None)
    shape = find_shape(designation)
    keys = [key for key in (*PINNED_KEYS, *EXTRA_KEYS) if key in shape.properties]
    results: dict[str, str | list[str]] = {"designation": shape.designation}
    if shape.metric:
        results["metric_designation"] = shape.metric
    full = dict(results)
    amounts: dict[str, Amount | list[Amount]] = {}
    for key in keys:  # the table's own units, written directly: a lookup stays well under a millisecond
        value, unit = shape.properties[key], shape.unit(key)
        results[key] = f"{significant(value)} {_unit_text(unit)}"
        full[key] = f"{value!r} {unit}"
        amounts[key] = Amount(value=value, unit=unit)
    notes = [f"The grade {grade} does not change the section's properties."] if grade else []
    if shape.family in ("HSS", "HSS_R", "PIPE"):
        notes.append("The weight is the table's nominal figure; properties use the design wall thickness (0.93 t).")
    if shape.family == "L":
        notes.append("I_major and I_minor are about the geometric axes; r_z is the least (principal) radius.")
    if shape.system == "SI":
        notes.append("mass_per_length is A × 7850 kg/m³, as the tables define it.")
    namesake = metric_namesake(designation)
    if namesake is not None:
        notes.append(
            f"{shape.designation} is also AISC's metric name of {namesake.designation}; this is {shape.designation}."
        )
    return CalcResult(results=results, precise=full, amounts=amounts, reference=shape.table, notes=notes)


@cache
def _unit_text(unit: str) -> str:
    return engineering_units(unit)


@tool("calculation", words=("ok", "work", "works", "adequate", "pass", "check", "lrfd", "asd", "eurocode", "ltb"))
def steel_beam_check(
    designation: str,
    span: str,
    dead_load: str,
    live_load: str,
    code: str = "AISC360-LRFD",
    unbraced_length: str | None = None,
    grade: str | None = None,
    load_position: Literal["top_flange", "shear_centre"] = "top_flange",
    national_annex: str | None = None,
) -> CalcResult:
    """Code check of a simply supported steel I beam under uniform dead and live load: bending with lateral-torsional
    buckling, shear and deflection, each with its clause, ratio and OK/NG. Use it whenever asked if a beam works.

    Args:
        designation: I or H section: "W18X50", "IPE 300", "UB 457x191x67".
        span: Such as "35 ft" or "6 m".
        dead_load: Unfactored dead line load with self-weight, downward, "0.45 kip/ft".
        live_load: Unfactored live line load, downward (uplift is refused).
        code: "AISC360-LRFD", "AISC360-ASD" or "EN1993".
        unbraced_length: Spacing of lateral braces, "11.67 ft"; omit if braced throughout.
        grade: "A992", "A36", "Grade 50", "S355", "S275" or a yield stress; omit for the usual.
        load_position: EN1993: "top_flange" (default) or "shear_centre".
        national_annex: EN1993: "UK" (fy from BS EN 10025-2).
    """
    code_name = code_key(code)
    annex = read_annex(national_annex)
    designation, grade = designation_and_grade(designation, grade)
    shape = _i_shape(designation)
    member = i_member(shape)
    length = require(span, "span", "length")
    dead, live = _gravity_load(dead_load, "dead_load"), _gravity_load(live_load, "live_load")
    brace = require(unbraced_length, "unbraced_length", "length") if unbraced_length else None
    system = system_of(length, dead, live)
    gamma_dead, gamma_live = COMBINATIONS[code_name]
    loading = Loading(
        span=length.to("m").magnitude,
        dead=dead.to("N/m").magnitude,
        live=live.to("N/m").magnitude,
        factored=gamma_dead * dead.to("N/m").magnitude + gamma_live * live.to("N/m").magnitude,
        brace=None if brace is None else brace.to("m").magnitude,
        system=system,
    )
    if loading.factored <= 0:
        raise ValueError("the dead and live loads are both zero; give the gravity loads the beam carries")
    if code_name == "EN1993":
        name, given = _grade_en(grade)
        if given is None and annex is not None:
            given = en_resistance.yield_strength(name, member, annex)
        verdict = eurocode_verdict(member, loading, (name, given), load_position == "top_flange")
    else:
        verdict = aisc_verdict(member, loading, _grade_aisc(grade), code_name.split("-")[1])
    if grade is None:
        verdict.notes.insert(0, assumed_grade(verdict.grade, shape, code_name))
    if annex is not None:
        verdict.notes.append("national_annex is used by EN1993 only: AISC takes Fy of the ASTM grade." if code_name
                             != "EN1993" else "UK National Annex: fy by the thickest plate from BS EN 10025-2 "
                             "(NA.2.4); γM0 = γM1 = 1.0 as recommended.")  # fmt: skip
    warnings = span_warnings(loading.span, show(length))
    warnings += rolled_span_warnings(loading.span, member.depth, show(length), shape.designation)
    return _result(verdict, loading, code_name, (gamma_dead, gamma_live), (dead, live, length), warnings)


def _gravity_load(text: str, name: str) -> Any:
    """A line load acting downward; a negative one is refused (this check knows no uplift)."""
    load = require(text, name, "force per length", positive=False)
    if load.magnitude < 0:
        raise ValueError(
            f"{name} is negative ({text.strip()}): this check takes the dead and live loads acting downward. A net "
            "uplift puts the bottom flange in compression, which it does not check; give the gravity loads here and "
            "check uplift separately (load_combination gives 0.9D + 1.0W or 1.0G + 1.5W)."
        )
    return load


def assumed_grade(grade: str, shape: Any, code: CodeName) -> str:
    """The note that says which grade was taken when none was given, and the usual one for the shape if it differs."""
    note = f"No grade given: {grade} assumed, the default of {code}; give grade for another."
    if code == "EN1993" and shape.system == "US":
        note += (
            f" {shape.designation} is an AISC shape, usually rolled to ASTM A992 (Fy = 50 ksi = 345 MPa): "
            "grade='A992' checks that material."
        )
    elif code != "EN1993" and shape.system == "SI":
        note += f" {shape.designation} is usually rolled in S275 or S355: grade='355 MPa' checks S355 (t ≤ 40 mm)."
    return note


_GRADE_AFTER = re.compile(
    r"^(?P<shape>.*?\d)[\s,/]+(?P<grade>(?:ASTM\s*)?A\d{3}(?:[\s\-]*(?:GR\.?|GRADE)?\s*\d{2})?|S\d{3}[A-Z0-9+]*|"
    r"GR(?:ADE|\.)?\s*\d{2})\s*$",
    re.IGNORECASE,
)


def designation_and_grade(designation: str, grade: str | None) -> tuple[str, str | None]:
    """ "W14X90 A992", "IPE 300 S275", "UB 457x191x67 S355JR": the grade written after the designation, taken as the
    grade (refused with a sentence if `grade` names another)."""
    match = _GRADE_AFTER.match(designation.strip())
    if match is None:
        return designation, grade
    written = match.group("grade")
    if grade is not None and _astm_key(grade) != _astm_key(written):
        raise ValueError(
            f"designation {designation!r} names the grade {written} but grade is {grade!r}; give one grade"
        )
    return match.group("shape"), grade if grade is not None else written


def code_key(code: str) -> CodeName:
    """ "AISC 360-22 LRFD", "lrfd" → "AISC360-LRFD"; "Eurocode 3", "EN 1993-1-1", "EC3" → "EN1993"."""
    text = re.sub(r"[\s_\-.:]+", "", code.upper())
    text = re.sub(r"^(BS|DIN|NF|UNE|NEN|SS|IS|I\.S\.)(?=EN)", "", text)  # "BS EN 1993-1-1": the national edition
    if "ASD" in text:
        return "AISC360-ASD"
    if "LRFD" in text or text in ("AISC", "AISC360", "AISC36022", "AISC36016"):
        return "AISC360-LRFD"
    if text.startswith(("EN1993", "EUROCODE3", "EC3", "EUROCODE")):
        return "EN1993"
    raise ValueError(f"code must be AISC360-LRFD, AISC360-ASD or EN1993; got {code!r}")


def _i_shape(designation: str) -> Any:
    shape = find_shape(designation)
    if not shape.is_i_shape:
        raise ValueError(
            f"steel_beam_check covers rolled I and H shapes (W, M, S, HP, IPE, HE, UB); {shape.designation} is "
            f"a {shape.family} shape. Use section_properties and beam_analysis for it."
        )
    return shape


_ASTM_GRADE = re.compile(r"^(?:GR\.?|GRADE)\s*(\d{2,3})(?:\s*KSI)?$")  # "Grade 50", "Gr. 50": Fy in ksi


def _grade_aisc(grade: str | None) -> tuple[str, float]:
    """(name, Fy in Pa)."""
    if grade is None:
        return "A992", 50 * KSI
    key = _astm_key(grade)
    if key in AISC_GRADES_KSI:
        return key, AISC_GRADES_KSI[key] * KSI
    plain = _ASTM_GRADE.match(key)
    if plain:
        return f"Grade {plain.group(1)}", float(plain.group(1)) * KSI
    return _stress_grade(grade, ", ".join(AISC_GRADES_KSI) + ", Grade 50")


def _astm_key(grade: str) -> str:
    """ "A572 Gr. 50", "ASTM A572-50" → "A572-50"; other text upper-cased."""
    text = re.sub(r"^ASTM\s*", "", grade.strip().upper())
    return re.sub(r"^(A\d{3})\s*(?:-|/|GR\.?|GRADE)?\s*(\d{2})$", r"\1-\2", text)


def _grade_en(grade: str | None) -> tuple[str, float | None]:
    """(name, fy in Pa, or None to take it from Table 3.1 by thickness); an ASTM grade by its Fy."""
    if grade is None:
        return "S355", None
    match = re.match(r"^\s*(S\d{3})", grade.upper())
    if match and match.group(1) in ("S235", "S275", "S355", "S420", "S450", "S460"):
        return match.group(1), None
    key = _astm_key(grade)
    if key in AISC_GRADES_KSI:
        return key, AISC_GRADES_KSI[key] * KSI
    plain = _ASTM_GRADE.match(key)
    if plain:
        raise ValueError(
            f"grade {grade!r} could be ASTM Grade {plain.group(1)} (Fy = {plain.group(1)} ksi) or a BS 4360 grade "
            "(grade 50 is S355); for EN1993 give 'S355', an ASTM name such as 'A992', or the yield stress ('345 MPa')"
        )
    return _stress_grade(grade, "S235, S275, S355, S420, S450, S460, A992, A36")


def _stress_grade(grade: str, known: str) -> tuple[str, float]:
    try:
        stress = require(grade, "grade", "pressure or stress")
    except ValueError:
        raise ValueError(
            f"grade {grade!r} is not one this check knows ({known}); or give the yield stress, such as '50 ksi'"
        ) from None
    return f"Fy = {show(stress)}", stress.to("Pa").magnitude


def _result(
    verdict: Verdict,
    loading: Loading,
    code: str,
    factors: tuple[float, float],
    inputs: tuple[Any, ...],
    warnings: list[str],
) -> CalcResult:
    ureg = registry()
    dead, live, length = inputs
    system = loading.system
    values = {
        "required_moment": conventional(verdict.required_moment * ureg.N * ureg.m, system),
        "design_moment": conventional(verdict.design_moment * ureg.N * ureg.m, system),
        "required_shear": conventional(verdict.required_shear * ureg.N, system),
        "design_shear": conventional(verdict.design_shear * ureg.N, system),
        "live_deflection": conventional(verdict.live_deflection * ureg.m, system),
        "factored_load": conventional(loading.factored * ureg.N / ureg.m, system),
    }
    moment_ratio = verdict.required_moment / verdict.design_moment
    shear_ratio = verdict.required_shear / verdict.design_shear
    text = {
        "moment_ratio": f"{moment_ratio:.3f}",
        "shear_ratio": f"{shear_ratio:.3f}",
        "governing": verdict.governing,
        "verdict": "OK" if all(c.status == "OK" for c in verdict.checks) else "NG",
        "grade": verdict.grade,
    }
    w = show(values["factored_load"])
    span_moment = conventional(loading.factored * loading.span**2 / 8 * ureg.N * ureg.m, system)
    required, resistance = verdict.symbols
    substituted = (
        f"w = {factors[0]:g} × {show(dead)} + {factors[1]:g} × {show(live)} = {w}; "
        f"{required} = {w} × ({show(length)})² / 8 = {show(span_moment)}; "
        f"{resistance} = {show(values['design_moment'])} ({verdict.governing}); ratio {moment_ratio:.3f}"
    )
    return calc_result(
        values,
        text=text,
        formula=f"w = {COMBINATION_NAMES[code]}; M = wL²/8; V = wL/2; Δ_L = 5 w_L L⁴/(384 E I); {verdict.formula}",
        substituted=substituted,
        reference=verdict.reference,
        checks=verdict.checks,
        notes=verdict.notes,
        warnings=warnings,
        not_checked=verdict.not_checked,
        covers=verdict.covers,
        diagram=beam_diagram(CASES[("simply_supported", "udl")], loading.span, loading.factored, system),
    )
