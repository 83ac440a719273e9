"""A simply supported beam under uniform load, checked segment by segment to AISC 360-22 or EN 1993-1-1.

Between lateral braces each segment gets its own moment gradient factor (Cb or C1) from the
moment diagram, and the segment whose demand uses the largest share of its resistance
governs. All figures in SI base units; `sections_and_checks` turns them into a result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from domain.calculations import Check
from tools.calc import check
from tools.codes.aisc360 import flexure as aisc_flexure
from tools.codes.en1993_1_1 import resistance as en_resistance
from tools.shapes.member import IMember
from tools.steel.moment_gradient import aisc_cb, eurocode_c1, peak
from tools.units import registry
from tools.units.showing import System, conventional, show

DEFLECTION_DIVISOR = 360
MAX_SEGMENT_CHECKS = 6  # more segments than this: the governing one alone is listed
C2_UNIFORM_LOAD = 0.454  # SN003 (NCCI), Table 3.2: simply supported span, uniform load


@dataclass(frozen=True)
class Loading:
    """Span (m), unfactored dead and live line loads and the factored one (N/m), brace spacing (m) or None."""

    span: float
    dead: float
    live: float
    factored: float
    brace: float | None
    system: System

    def moment(self, x: float) -> float:
        return self.factored * x * (self.span - x) / 2

    def segments(self) -> list[tuple[float, float]]:
        """The unbraced segments from the left support; the last may be shorter."""
        if self.brace is None or self.brace >= self.span:
            return [(0.0, self.span)]
        edges = [0.0]
        while self.span - edges[-1] > self.brace * (1 + 1e-6):
            edges.append(edges[-1] + self.brace)
        edges.append(self.span)
        return list(zip(edges, edges[1:], strict=False))


@dataclass
class Verdict:
    """What a code check found: the governing demand and resistance, every check, and how it was reached."""

    required_moment: float
    design_moment: float
    required_shear: float
    design_shear: float
    live_deflection: float
    governing: str
    grade: str
    symbols: tuple[str, str]
    formula: str
    reference: str
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)
    covers: str = ""


UNBRACED = "lateral-torsional buckling: the compression flange is taken as braced throughout (give unbraced_length)"
ALWAYS = ("total-load deflection and vibration", "the end connections and bearing on the supports")


def _scope(loading: Loading, limit_states: list[str]) -> tuple[list[str], str]:
    """What the verdict covers, and the braced-throughout assumption when no brace spacing was given."""
    bending = "bending" if loading.brace is None else "bending with lateral-torsional buckling"
    states = [bending, *limit_states]
    covers = f"{', '.join(states[:-1])} and {states[-1]}"
    return ([UNBRACED] if loading.brace is None else []), covers


def _moment(value: float, system: System) -> Any:
    ureg = registry()
    return conventional(value * ureg.N * ureg.m, system)


def _force(value: float, system: System) -> Any:
    ureg = registry()
    return conventional(value * ureg.N, system)


def _length(value: float, system: System) -> Any:
    ureg = registry()
    return (value * ureg.m).to("ft" if system == "US" else "m")


def _deflection(member: IMember, loading: Loading, modulus: float) -> tuple[float, Check]:
    ureg = registry()
    deflection = 5 * loading.live * loading.span**4 / (384 * modulus * member.I_major)
    value = conventional(deflection * ureg.m, loading.system)
    limit = (loading.span / DEFLECTION_DIVISOR * ureg.m).to(value.units)
    clause = (
        "IBC 2021 Table 1604.3 (floor members)"
        if loading.system == "US"
        else "EN 1990 A1.4.3 (limit set by the National Annex)"
    )
    return deflection, check(f"live-load deflection ≤ L/{DEFLECTION_DIVISOR}", value, limit, clause)


class Governing(NamedTuple):
    """The demand that uses the largest share of its resistance, and what resists it."""

    ratio: float
    demand: float
    capacity: float
    label: str


def _worst(*candidates: Governing) -> Governing:
    return max(candidates, key=lambda candidate: candidate.ratio)


def aisc_verdict(member: IMember, loading: Loading, grade: tuple[str, float], method: str) -> Verdict:
    """AISC 360-22 F2/F3 (flexure, each segment with its Cb), G2.1 (shear), for LRFD or ASD."""
    name, fy = grade
    aisc_flexure.check_web_is_compact(member, fy)
    system = loading.system
    m_sym, r_sym = ("Mu", "φMn") if method == "LRFD" else ("Ma", "Mn/Ω")
    v_sym, vr_sym = ("Vu", "φVn") if method == "LRFD" else ("Va", "Vn/Ω")
    caps = [aisc_flexure.yielding(member, fy), aisc_flexure.flange_local_buckling(member, fy)]
    section = [cap for cap in caps if cap is not None]
    m_max = loading.factored * loading.span**2 / 8
    checks = [
        check(
            f"{m_sym} ≤ {r_sym}: {c.limit_state}", _moment(m_max, system), _moment(c.design(method), system), c.clause
        )
        for c in section
    ]
    cap = min(section, key=lambda c: c.nominal)
    worst = Governing(m_max / cap.design(method), m_max, cap.design(method), cap.limit_state)
    segments = loading.segments() if loading.brace is not None else []
    for index, (start, end) in enumerate(segments, 1):
        cb = aisc_cb(loading.moment, start, end)
        ltb = aisc_flexure.lateral_torsional(member, fy, end - start, cb)
        demand, capacity = peak(loading.moment, start, end), min(ltb.design(method), cap.design(method))
        label = f"segment {index} of {len(segments)}, Lb = {show(_length(end - start, system))}, Cb = {cb:.2f}"
        worst = _worst(worst, Governing(demand / capacity, demand, capacity, f"lateral-torsional buckling, {label}"))
        if len(segments) <= MAX_SEGMENT_CHECKS:
            name_text = f"{m_sym} ≤ {r_sym}: lateral-torsional buckling, {label} ({ltb.detail})"
            checks.append(check(name_text, _moment(demand, system), _moment(ltb.design(method), system), ltb.clause))
    shear = aisc_flexure.shear(member, fy)
    v_max = loading.factored * loading.span / 2
    shear_name = f"{v_sym} ≤ {vr_sym}: {shear.limit_state} ({shear.detail})"
    checks.append(check(shear_name, _force(v_max, system), _force(shear.design(method), system), shear.clause))
    deflection, deflection_check = _deflection(member, loading, aisc_flexure.E_STEEL)
    checks.append(deflection_check)
    not_checked, covers = _scope(loading, ["shear", "live-load deflection"])
    not_checked += [
        "web yielding and crippling at supports and point loads (J10.2, J10.3)",
        "torsion (H3)",
        *ALWAYS,
    ]
    if loading.brace is not None:
        not_checked.append("a top-flange load free to move sideways (F2 takes it at the shear centre)")
    return Verdict(
        required_moment=worst.demand, design_moment=worst.capacity, required_shear=v_max,
        design_shear=shear.design(method), live_deflection=deflection, governing=worst.label,
        grade=f"{name} (Fy = {show(_stress(fy, 'ksi'))})", symbols=(m_sym, r_sym),
        formula=f"{r_sym} per AISC 360-22 F2/F3; {vr_sym} per G2.1 (φb = 0.90, Ωb = 1.67)",
        reference=f"AISC 360-22 Chapters F and G ({method}); E = 29,000 ksi; combination per ASCE 7-22",
        checks=checks, notes=_aisc_notes(loading, len(segments)), not_checked=not_checked, covers=covers,
    )  # fmt: skip


def _aisc_notes(loading: Loading, segments: int) -> list[str]:
    notes = [
        "Simply supported, uniform load; the loads given include self-weight (nothing is added).",
    ]
    if segments > MAX_SEGMENT_CHECKS:
        notes.append(f"{segments} unbraced segments: only the governing one is listed.")
    return notes


def _stress(value: float, unit: str) -> Any:
    return (value * registry().Pa).to(unit)


def eurocode_verdict(member: IMember, loading: Loading, grade: tuple[str, float | None], top_flange: bool) -> Verdict:
    """EN 1993-1-1 6.2.5 (bending), 6.2.6 (shear) and 6.3.2.3 (lateral-torsional buckling, per segment with C1)."""
    name, given = grade
    fy = given if given is not None else en_resistance.yield_strength(name, member)
    system = loading.system
    modulus, klass = en_resistance.bending_modulus(member, fy)
    resistance = modulus * fy / en_resistance.GAMMA_M0
    m_max = loading.factored * loading.span**2 / 8
    _, class_detail = en_resistance.section_class(member, fy)
    bending = f"M_Ed ≤ M_c,Rd (Class {klass}, {class_detail})"
    checks = [check(bending, _moment(m_max, system), _moment(resistance, system), "EN 1993-1-1 6.2.5")]
    worst = Governing(m_max / resistance, m_max, resistance, f"cross-section bending (Class {klass})")
    segments = loading.segments() if loading.brace is not None else []
    for index, (start, end) in enumerate(segments, 1):
        c1 = eurocode_c1(loading.moment, start, end)
        c2_zg = C2_UNIFORM_LOAD * member.depth / 2 if top_flange and len(segments) == 1 else 0.0
        buckling = en_resistance.buckling_resistance(member, fy, modulus, end - start, c1, c2_zg)
        demand = peak(loading.moment, start, end)
        where = f"segment {index} of {len(segments)}"
        worst = _worst(
            worst,
            Governing(
                demand / buckling.resistance, demand, buckling.resistance, f"lateral-torsional buckling, {where}"
            ),
        )
        if len(segments) <= MAX_SEGMENT_CHECKS:
            label = (
                f"M_Ed ≤ M_b,Rd: {where}, L = {show(_length(end - start, system))}, C1 = {c1:.3f}, "
                f"M_cr = {show(_moment(buckling.m_cr, system))}, λLT = {buckling.slenderness:.3f}, "
                f"curve {buckling.curve}, χLT = {buckling.chi:.3f}"
            )
            checks.append(
                check(label, _moment(demand, system), _moment(buckling.resistance, system), "EN 1993-1-1 6.3.2.3")
            )
    shear = en_resistance.shear_resistance(member, fy)
    v_max = loading.factored * loading.span / 2
    area = show((en_resistance.shear_area(member) * registry().m ** 2).to("mm**2"))
    checks.append(
        check(f"V_Ed ≤ V_pl,Rd (A_v = {area})", _force(v_max, system), _force(shear, system), "EN 1993-1-1 6.2.6")
    )
    deflection, deflection_check = _deflection(member, loading, en_resistance.E_STEEL)
    checks.append(deflection_check)
    not_checked, covers = _scope(loading, ["shear", "live-load deflection"])
    slenderness, limit = en_resistance.web_slenderness_in_shear(member, fy)
    if slenderness > limit:
        not_checked.append(f"shear buckling of the web: hw/tw = {slenderness:.1f} > 72ε/η = {limit:.1f}, so EN "
                           "1993-1-5 5 applies and V_pl,Rd may overstate the resistance (6.2.6(6))")  # fmt: skip
        covers = covers.replace("shear", "shear yielding (without shear buckling)", 1)
    not_checked += [
        "the web's resistance to support reactions and point loads (EN 1993-1-5 6)",
        "torsion",
        *ALWAYS,
    ]
    if top_flange and len(segments) > 1:
        not_checked.append("the top-flange load's destabilising effect between braces (M_cr takes it at the shear "
                           "centre)")  # fmt: skip
    return Verdict(
        required_moment=worst.demand, design_moment=worst.capacity, required_shear=v_max, design_shear=shear,
        live_deflection=deflection, governing=worst.label, grade=f"{name} (fy = {show(_stress(fy, 'MPa'))})",
        symbols=("M_Ed", "M_Rd"), formula="M_c,Rd = W fy/γM0; M_b,Rd = χLT W fy/γM1; V_pl,Rd = A_v (fy/√3)/γM0",
        reference="EN 1993-1-1:2005+A1:2014, 5.5, 6.2.5, 6.2.6, 6.3.2.3; E = 210 GPa, G = 81 GPa (3.2.6); EN 1990 6.10",
        checks=checks, notes=_eurocode_notes(loading, len(segments), top_flange, v_max > 0.5 * shear),
        not_checked=not_checked, covers=covers,
    )  # fmt: skip


def _eurocode_notes(loading: Loading, segments: int, top_flange: bool, high_shear: bool) -> list[str]:
    notes = ["Recommended values: γM0 = γM1 = 1.0, λLT,0 = 0.4, β = 0.75, η = 1.0; the National Annex may differ."]
    if top_flange and segments == 1:
        notes.append("M_cr with the load on the top flange (destabilising): C2 = 0.454, zg = h/2 (SN003 Table 3.2).")
    if loading.brace is not None:
        notes.append("C1 from the moment diagram (López, Yong and Serna 2006); χLT is not modified by f (6.3.2.3(2)).")
    if segments > MAX_SEGMENT_CHECKS:
        notes.append(f"{segments} unbraced segments: only the governing one is listed.")
    if high_shear:
        notes.append("V_Ed > 0.5 V_pl,Rd at the supports, where the moment is zero; 6.2.8 applies where both are high.")
    return notes
