"""`steel_column_check`: a steel column under axial load, AISC 360-22 Chapter E or EN 1993-1-1 6.3.1.

The sections come from `tools.shapes.column_section`; the clauses from `tools.codes.aisc360.compression`
and `tools.codes.en1993_1_1.compression`. Every buckling mode is one check with its clause; the
weakest governs. Results are in the units of the inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.calculations import CalcResult, Check
from tools.catalogue import tool
from tools.codes.aisc360 import compression as aisc_compression
from tools.codes.en1993_1_1 import compression as en_compression
from tools.codes.national_annexes import national_annex as read_annex
from tools.shapes.column_section import ColumnSection, column_section
from tools.steel.column_inputs import aisc_grade, annex_note, en_grade, lengths
from tools.steel.readout import figures_result, limit_check, shown
from tools.steel.sections_and_checks import code_key, designation_and_grade
from tools.units.reading import require
from tools.units.showing import System, show, system_of

SLENDERNESS_ADVICE = 200  # AISC 360-22 E2 user note: Lc/r preferably not over 200
AXES = {"x-x": "x-x (major)", "y-y": "y-y (minor)", "z-z": "z-z (minor)"}


@dataclass
class Column:
    """What a code check of a column found, in SI base units."""

    required: float
    design: float
    slenderness: str
    axis: str
    grade: str
    combination: str
    symbols: tuple[str, str]
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    formula: str = ""
    reference: str = ""
    extra: dict[str, str] = field(default_factory=dict)
    load_names: tuple[str, str] = ("D", "L")


NOT_CHECKED = [
    "bending from end moments, an eccentric load or a lateral load (use steel_beam_column_check)",
    "the frame's second-order effects: the effective lengths are taken as given",
    "the base plate, splices and connections, and the load's bearing into them",
]


@tool("calculation", words=("column", "columns", "buckling", "axial", "compression", "strut", "post", "stanchion"))
def steel_column_check(
    designation: str,
    length: str,
    dead_load: str,
    live_load: str,
    code: str = "AISC360-LRFD",
    length_weak: str | None = None,
    grade: str | None = None,
    national_annex: str | None = None,
) -> CalcResult:
    """Column under axial load to AISC 360-22 E or EN 1993-1-1 6.3.1, with clauses and OK/NG. Use it whenever asked
    if a column or strut carries a load.

    Args:
        designation: I, H, channel, HSS or pipe, "W14X90".
        length: Major-axis K·L, "30 ft".
        dead_load: Unfactored axial dead load, "140 kip".
        live_load: Unfactored axial live load.
        code: AISC360-LRFD, AISC360-ASD or EN1993.
        length_weak: Minor-axis K·L; default length.
        grade: "A992", "S355"…; omit for the usual.
        national_annex: EN1993: "UK".
    """
    code_name = code_key(code)
    annex = read_annex(national_annex)
    designation, grade = designation_and_grade(designation, grade)
    section = column_section(designation)
    major, minor, _ = lengths(length, length_weak)
    dead = require(dead_load, "dead_load", "force", positive=False)
    live = require(live_load, "live_load", "force", positive=False)
    system = system_of(major, dead, live)
    loads = (dead.to("N").magnitude, live.to("N").magnitude)
    if min(loads) < 0 or sum(loads) <= 0:
        raise ValueError(
            "dead_load and live_load are compressions: give them as positive forces (a tension member is not a "
            "column, and this check does not cover tension)"
        )
    spans = (major.to("m").magnitude, minor.to("m").magnitude)
    if code_name == "EN1993":
        column = _eurocode(section, spans, loads, en_grade(section, grade, "steel_column_check", annex), system)
    else:
        method = code_name.split("-")[1]
        column = _aisc(section, spans, loads, aisc_grade(section, grade), (method, system))
    column.notes += annex_note(annex, code_name, column.grade)
    return _result(column, system, (dead, live), _covers(column.checks))


def _covers(checks: list[Check]) -> str:
    """The limit states the checks name, after the relation ("flexural buckling about y-y (minor)"), once each."""
    states = [check.name.split(": ", 1)[1].split(" (")[0] if ": " in check.name else "the cross-section's resistance"
              for check in checks]  # fmt: skip
    named = list(dict.fromkeys(states))
    return "axial compression: " + (", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0])


def _aisc_required(loads: tuple[float, float], method: str) -> tuple[float, str]:
    dead, live = loads
    if method == "ASD":
        return dead + live, "Pa = D + L (ASCE 7-22 2.4.1)"
    if 1.4 * dead > 1.2 * dead + 1.6 * live:
        return 1.4 * dead, "Pu = 1.4D (ASCE 7-22 2.3.1, combination 1)"
    return 1.2 * dead + 1.6 * live, "Pu = 1.2D + 1.6L (ASCE 7-22 2.3.1, combination 2)"


def _aisc(
    section: ColumnSection,
    spans: tuple[float, float],
    loads: tuple[float, float],
    grade: tuple[str, float],
    how: tuple[str, System],
) -> Column:
    (method, system), (name, fy) = how, grade
    strengths = aisc_compression.mode_strengths(section, fy, spans[0], spans[1], spans[1])
    worst = min(strengths, key=lambda s: s.nominal)
    required, combination = _aisc_required(loads, method)
    symbols = ("Pu", "φcPn") if method == "LRFD" else ("Pa", "Pn/Ωc")
    checks = [
        limit_check(
            f"{symbols[0]} ≤ {symbols[1]}: {s.governing.name} ({_mode_detail(s, section.area, system)})",
            required,
            s.design(method),
            "force",
            system,
            _aisc_clause(s, fy),
        )
        for s in strengths
    ]
    slenderness = worst.governing.slenderness
    return Column(
        required=required,
        design=worst.design(method),
        slenderness=f"{slenderness:.1f}",
        axis=AXES.get(worst.governing.axis, worst.governing.axis),
        grade=f"{name} (Fy = {shown(fy, 'stress', 'US')})",
        combination=combination,
        symbols=symbols,
        checks=checks,
        notes=_aisc_notes(section, worst, slenderness),
        formula=f"{symbols[1]} with Pn = Fn Ae; Fe = π²E/(Lc/r)²; Fn = 0.658^(Fy/Fe) Fy or 0.877 Fe "
        "(φc = 0.90, Ωc = 1.67)",
        reference=f"AISC 360-22 Chapter E ({method}), Table B4.1a; E = 29,000 ksi, G = 11,200 ksi; "
        "combination per ASCE 7-22",
        extra={"effective_area": shown(worst.effective_area, "area", system)} if worst.slender else {},
    )


def _aisc_clause(strength: aisc_compression.AxialStrength, fy: float) -> str:
    """ "AISC 360-22 E3 (E3-4, E3-2)"; E7 adds E7-1 and the equation of the effective width or area."""
    equations = [strength.governing.equation, aisc_compression.nominal_stress(strength.governing.fe, fy)[1]]
    if strength.slender:
        equations.append("E7-1")
    return f"{strength.clause} ({', '.join(equations)})"


def _mode_detail(strength: aisc_compression.AxialStrength, gross: float, system: System) -> str:
    mode = strength.governing
    named = "Lc/r" if mode.equation == "E3-4" else "equivalent Lc/r"
    parts = [
        f"{named} = {mode.slenderness:.1f}",
        f"Fe = {shown(mode.fe, 'stress', system)}",
        f"Fn = {shown(strength.fn, 'stress', system)}",
    ]
    if strength.effective_area < gross * (1 - 1e-9):
        parts.append(f"Ae = {shown(strength.effective_area, 'area', system)}")
    return ", ".join(parts)


def _aisc_notes(section: ColumnSection, worst: aisc_compression.AxialStrength, slenderness: float) -> list[str]:
    notes = [
        "Lc are effective lengths (K L) as given; axial load only, no end moments or eccentricity "
        "(use steel_beam_column_check for those); self-weight is not added."
    ]
    if worst.slender:
        notes.append(f"Slender elements for compression: {'; '.join(worst.slender)} — E7 effective area applies.")
    if section.kind == "I":
        notes.append("Torsional buckling (E4-2) with the torsional unbraced length taken as length_weak.")
    elif section.kind == "channel":
        notes.append(
            "Flexural-torsional buckling (E4-3) with r̄o and H from the AISC Shapes Database v16.0 and the "
            "torsional unbraced length taken as length_weak."
        )
    else:
        notes.append(
            "Closed section: torsional and flexural-torsional buckling do not govern (AISC 360-22 E4 user "
            "note) and are not checked; the properties use the design wall thickness (0.93 t)."
        )
    if slenderness > SLENDERNESS_ADVICE:
        notes.append(f"Lc/r = {slenderness:.0f} exceeds 200, the limit the AISC 360-22 E2 user note recommends.")
    return notes


def _eurocode(
    section: ColumnSection,
    spans: tuple[float, float],
    loads: tuple[float, float],
    grade: tuple[str, float],
    system: System,
) -> Column:
    member, (name, fy) = section.member, grade
    assert member is not None
    required = 1.35 * loads[0] + 1.5 * loads[1]
    modes = en_compression.buckling(member, grade, (spans[0], spans[1], spans[1]))
    compressed = en_compression.in_compression(member, fy)
    symbols = ("N_Ed", "N_b,Rd")
    squash = en_compression.squash(member, fy)
    checks = [
        limit_check(
            f"N_Ed ≤ N_c,Rd (Class {compressed.klass}, {compressed.detail})",
            required,
            squash,
            "force",
            system,
            "EN 1993-1-1 6.2.4",
        )
    ]
    for mode in modes:
        label = "torsional buckling" if mode.axis == "torsional" else f"flexural buckling about {mode.axis}"
        detail = (
            f"L = {shown(mode.length, 'length', system)}, "
            f"N_cr = {shown(mode.n_cr, 'force', system)}, λ̄ = {mode.slenderness:.3f}, curve {mode.curve}, "
            f"χ = {mode.chi:.3f}"
        )
        clause = "EN 1993-1-1 6.3.1.4" if mode.axis == "torsional" else "EN 1993-1-1 6.3.1.2, Table 6.2"
        title = f"N_Ed ≤ N_b,Rd: {label} ({detail})"
        checks.append(limit_check(title, required, mode.resistance, "force", system, clause))
    worst = min(modes, key=lambda mode: mode.resistance)
    return Column(
        required=required,
        design=worst.resistance,
        slenderness=f"{worst.slenderness:.3f}",
        axis=AXES.get(worst.axis, worst.axis),
        grade=f"{name} (fy = {shown(fy, 'stress', 'SI')})",
        combination="N_Ed = 1.35G + 1.5Q (EN 1990 eq. 6.10)",
        symbols=symbols,
        checks=checks,
        notes=_eurocode_notes(section, compressed.klass, worst.slenderness, name),
        formula="N_b,Rd = χ A fy/γM1 (A_eff for Class 4); χ = 1/(Φ + √(Φ² − λ̄²)); Φ = 0.5[1 + α(λ̄ − 0.2) + λ̄²]; "
        "λ̄ = √(A fy/N_cr)",
        reference="EN 1993-1-1:2005+A1:2014, 5.5, 6.2.4, 6.3.1 (Tables 6.1, 6.2); EN 1993-1-5 4.4; E = 210 GPa, "
        "G = 81 GPa; EN 1990 6.10",
        extra={"section_class": str(compressed.klass)},
        load_names=("G", "Q"),
    )


def _eurocode_notes(section: ColumnSection, klass: int, slenderness: float, grade: str) -> list[str]:
    notes = [
        "Recommended values γM0 = γM1 = 1.0; the National Annex may differ. Buckling lengths L_cr as given.",
        "Axial load only, no end moments (use steel_beam_column_check for them); self-weight is not added.",
        "Torsional buckling (6.3.1.4) with the torsional length taken as length_weak.",
    ]
    if klass == 4:
        notes.append(
            "Class 4 in compression: A_eff from EN 1993-1-5 4.4 (ψ = 1); no shift of the centroid arises "
            "in a doubly symmetric section."
        )
    if section.system == "US":
        notes.append(f"An AISC shape checked to EN 1993: {grade} assumed, fy from Table 3.1 by plate thickness.")
    if slenderness > 2.5:
        notes.append(f"λ̄ = {slenderness:.2f}: a very slender member (L/i above about 200); check the lengths.")
    return notes


def _result(column: Column, system: System, inputs: tuple[Any, Any], covers: str) -> CalcResult:
    dead, live = inputs
    ratio = column.required / column.design
    text = {
        "ratio": f"{ratio:.3f}",
        "slenderness": column.slenderness,
        "governing_axis": column.axis,
        "verdict": "OK" if all(c.status == "OK" for c in column.checks) else "NG",
        "grade": column.grade,
        **column.extra,
    }
    (required, resistance), (g, q) = column.symbols, column.load_names
    substituted = (
        f"{column.combination} with {g} = {show(dead)}, {q} = {show(live)}: {required} = "
        f"{shown(column.required, 'force', system)}; {resistance} = {shown(column.design, 'force', system)} "
        f"({column.axis}); ratio {ratio:.3f}"
    )
    return figures_result(
        {"required_axial": (column.required, "force"), "design_axial": (column.design, "force")},
        text,
        system,
        formula=column.formula,
        substituted=substituted,
        reference=column.reference,
        checks=column.checks,
        notes=column.notes,
        not_checked=NOT_CHECKED,
        covers=covers,
    )
