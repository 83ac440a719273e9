"""Beam diagrams and formulas for the common support and load cases, and Euler column buckling.

Formulas from the standard beam tables (AISC Steel Construction Manual,
Table 3-23 "Shears, moments and deflections"). Sign convention: sagging moment
positive; for a cantilever the fixed end is on the left (x = 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from domain.calculations import CalcResult, Check, Diagram
from tools.calc import calc_result, check
from tools.catalogue import tool
from tools.practice import effective_length_warnings, span_warnings
from tools.units import registry
from tools.units.reading import require
from tools.units.showing import conventional, show, system_of

Support = Literal["simply_supported", "cantilever", "fixed_fixed"]
LoadType = Literal["udl", "point_center", "point_end"]
DIAGRAM_POINTS = 51
BEAM_TABLES = "AISC Steel Construction Manual, Table 3-23 (shears, moments and deflections)"

Curve = Callable[[float, float, float], float]  # (x, L, load) -> value


@dataclass(frozen=True)
class BeamCase:
    """One case of the beam tables; functions take SI magnitudes (m, N or N/m, Pa, m⁴)."""

    title: str
    reactions: Callable[[float, float], tuple[float, float]]
    max_shear: Callable[[float, float], float]
    max_moment: Callable[[float, float], float]
    deflection_coefficient: float  # δ = c · load · L^n / (E I)
    length_power: int
    shear: Curve
    moment: Curve
    moment_formula: str
    moment_template: str  # the formula with {q} (the load) and {L} (the span) to fill in
    deflection_formula: str
    note: str = ""


def _step(x: float, at: float, before: float, after: float) -> float:
    return before if x < at else after


CASES: dict[tuple[str, str], BeamCase] = {
    ("simply_supported", "udl"): BeamCase(
        "simple beam, uniformly distributed load",
        lambda L, w: (w * L / 2, w * L / 2),
        lambda L, w: w * L / 2,
        lambda L, w: w * L**2 / 8,
        5 / 384,
        4,
        lambda x, L, w: w * (L / 2 - x),
        lambda x, L, w: w * x * (L - x) / 2,
        "M = wL²/8",
        "{q} × ({L})² / 8",
        "δ = 5wL⁴/(384EI)",
    ),
    ("simply_supported", "point_center"): BeamCase(
        "simple beam, concentrated load at centre",
        lambda L, P: (P / 2, P / 2),
        lambda L, P: P / 2,
        lambda L, P: P * L / 4,
        1 / 48,
        3,
        lambda x, L, P: _step(x, L / 2, P / 2, -P / 2),
        lambda x, L, P: P * min(x, L - x) / 2,
        "M = PL/4",
        "{q} × {L} / 4",
        "δ = PL³/(48EI)",
    ),
    ("cantilever", "udl"): BeamCase(
        "cantilever, uniformly distributed load",
        lambda L, w: (w * L, 0.0),
        lambda L, w: w * L,
        lambda L, w: w * L**2 / 2,
        1 / 8,
        4,
        lambda x, L, w: w * (L - x),
        lambda x, L, w: -w * (L - x) ** 2 / 2,
        "M = wL²/2",
        "{q} × ({L})² / 2",
        "δ = wL⁴/(8EI)",
        "The moment is hogging, at the fixed end; δ is at the free end.",
    ),
    ("cantilever", "point_end"): BeamCase(
        "cantilever, concentrated load at free end",
        lambda L, P: (P, 0.0),
        lambda L, P: P,
        lambda L, P: P * L,
        1 / 3,
        3,
        lambda x, L, P: P,
        lambda x, L, P: -P * (L - x),
        "M = PL",
        "{q} × {L}",
        "δ = PL³/(3EI)",
        "The moment is hogging, at the fixed end; δ is at the free end.",
    ),
    ("cantilever", "point_center"): BeamCase(
        "cantilever, concentrated load at mid-length",
        lambda L, P: (P, 0.0),
        lambda L, P: P,
        lambda L, P: P * L / 2,
        5 / 48,
        3,
        lambda x, L, P: _step(x, L / 2, P, 0.0),
        lambda x, L, P: -P * max(L / 2 - x, 0.0),
        "M = PL/2",
        "{q} × {L} / 2",
        "δ = 5PL³/(48EI)",
        "The moment is hogging, at the fixed end; δ is at the free end.",
    ),
    ("fixed_fixed", "udl"): BeamCase(
        "beam fixed at both ends, uniformly distributed load",
        lambda L, w: (w * L / 2, w * L / 2),
        lambda L, w: w * L / 2,
        lambda L, w: w * L**2 / 12,
        1 / 384,
        4,
        lambda x, L, w: w * (L / 2 - x),
        lambda x, L, w: w * (6 * L * x - 6 * x**2 - L**2) / 12,
        "M = wL²/12",
        "{q} × ({L})² / 12",
        "δ = wL⁴/(384EI)",
        "The largest moment is hogging, at the supports; at midspan it is wL²/24.",
    ),
    ("fixed_fixed", "point_center"): BeamCase(
        "beam fixed at both ends, concentrated load at centre",
        lambda L, P: (P / 2, P / 2),
        lambda L, P: P / 2,
        lambda L, P: P * L / 8,
        1 / 192,
        3,
        lambda x, L, P: _step(x, L / 2, P / 2, -P / 2),
        lambda x, L, P: P * (4 * min(x, L - x) - L) / 8,
        "M = PL/8",
        "{q} × {L} / 8",
        "δ = PL³/(192EI)",
        "The moment PL/8 occurs at the supports (hogging) and at midspan (sagging).",
    ),
}
_REFUSED = {
    ("simply_supported", "point_end"): "a point load at the end of a simply supported beam goes straight into the "
    "support and causes no bending; use point_center, or a cantilever",
    ("fixed_fixed", "point_end"): "a point load at the end of a fixed-ended beam sits on the support and causes no "
    "bending; use point_center",
}


@tool("calculation", words=("beam", "span", "moment", "deflection", "shear", "cantilever", "udl", "reaction", "joist"))
def beam_analysis(
    span: str,
    load: str,
    support: Support = "simply_supported",
    load_type: LoadType = "udl",
    elastic_modulus: str | None = None,
    moment_of_inertia: str | None = None,
) -> CalcResult:
    """Reactions, maximum shear, moment and (with E and I) deflection of a single-span beam.

    Args:
        span: The span with its unit, such as "6 m" or "20 ft".
        load: For "udl" a force per length ("12 kN/m", "0.8 klf"); for a point load a force ("50 kN").
        support: How the beam is supported; for a cantilever the fixed end is on the left.
        load_type: A uniform load, a point load at mid-span, or a point load at the free end (cantilever only).
        elastic_modulus: Young's modulus E, such as "200 GPa" or "29000 ksi"; needed for the deflection.
        moment_of_inertia: Second moment of area I, such as "8.5e7 mm**4" or "300 in**4"; needed for the deflection.
    """
    if (support, load_type) in _REFUSED:
        raise ValueError(_REFUSED[(support, load_type)])
    case = CASES[(support, load_type)]
    length = require(span, "span", "length")
    force = require(load, "load", "force per length" if load_type == "udl" else "force")
    stiffness = stiffness_inputs(elastic_modulus, moment_of_inertia)
    system = system_of(length, force, *stiffness)
    L, q = length.to("m").magnitude, force.to_base_units().magnitude
    ureg = registry()
    newton, metre = ureg.N, ureg.m
    left, right = case.reactions(L, q)
    values = {
        "reaction_left": conventional(left * newton, system),
        "reaction_right": conventional(right * newton, system),
        "max_shear": conventional(case.max_shear(L, q) * newton, system),
        "max_moment": conventional(case.max_moment(L, q) * newton * metre, system),
    }
    filled = case.moment_template.format(q=show(force), L=show(length))
    substituted = f"{case.moment_formula} = {filled} = {show(values['max_moment'])}"
    checks, notes = [], [case.note] if case.note else []
    if stiffness:
        modulus, inertia = (s.to_base_units().magnitude for s in stiffness)
        deflection = case.deflection_coefficient * q * L**case.length_power / (modulus * inertia)
        values["max_deflection"] = conventional(deflection * metre, system)
        checks.append(_deflection_check(values["max_deflection"], length, support))
        notes.append("L/360 is the usual live-load limit for floors (IBC Table 1604.3); use the limit your code sets.")
    not_checked = [ANALYSIS_ONLY]
    if not stiffness:
        not_checked.append("deflection: give elastic_modulus and moment_of_inertia")
    return calc_result(
        values,
        not_checked=not_checked,
        covers=f"the deflection under the load given against L/{180 if support == 'cantilever' else 360} only"
        if stiffness
        else "the reactions, shear and moment of the load given (an analysis)",
        formula=f"{case.moment_formula}; {case.deflection_formula}" if stiffness else case.moment_formula,
        substituted=substituted,
        reference=f"{BEAM_TABLES}: {case.title}",
        checks=checks,
        notes=notes,
        warnings=span_warnings(L, show(length)),
        diagram=beam_diagram(case, L, q, system),
    )


def stiffness_inputs(elastic_modulus: str | None, moment_of_inertia: str | None) -> tuple[Any, ...]:
    """E and I as quantities when both are given, nothing when neither is; one alone is an error."""
    if elastic_modulus is None and moment_of_inertia is None:
        return ()
    if elastic_modulus is None or moment_of_inertia is None:
        raise ValueError("give both elastic_modulus and moment_of_inertia for the deflection, or neither")
    return (
        require(elastic_modulus, "elastic_modulus", "pressure or stress"),
        require(moment_of_inertia, "moment_of_inertia", "second moment of area (length⁴)"),
    )


def _deflection_check(deflection: Any, length: Any, support: str) -> Check:  # pint quantities
    divisor = 180 if support == "cantilever" else 360  # a cantilever's limit is 2L/360
    limit = (length / divisor).to(deflection.units)
    return check(f"deflection ≤ L/{divisor}", deflection, limit, "IBC 2021 Table 1604.3 (floor members)")


def beam_diagram(case: BeamCase, L: float, q: float, system: str) -> Diagram:
    """Shear and moment along a single span (SI magnitudes in), in the system's units."""
    xs = [L * i / (DIAGRAM_POINTS - 1) for i in range(DIAGRAM_POINTS)]
    shears = [case.shear(x, L, q) for x in xs]
    left_of_middle = case.shear(L / 2 - L * 1e-9, L, q)
    if abs(left_of_middle - case.shear(L / 2, L, q)) > 1e-3 * max(map(abs, shears)):  # a point load: the jump
        middle = xs.index(L / 2)
        xs.insert(middle, L / 2)
        shears.insert(middle, left_of_middle)
    return diagram_data(xs, shears, [case.moment(x, L, q) for x in xs], system)


def diagram_data(xs: list[float], shears: list[float], moments: list[float], system: str) -> Diagram:
    """The faces' diagram record from positions (m), shears (N) and sagging-positive moments (N·m)."""
    ureg = registry()
    x_unit, shear_unit, moment_unit = ("m", "kN", "kN*m") if system == "SI" else ("ft", "kip", "kip*ft")
    return Diagram(
        x=[round((x * ureg.m).to(x_unit).magnitude, 6) for x in xs],
        shear=[round((shear * ureg.N).to(shear_unit).magnitude, 6) for shear in shears],
        moment=[round((moment * ureg.N * ureg.m).to(moment_unit).magnitude, 6) for moment in moments],
        x_unit=x_unit,
        shear_unit=shear_unit,
        moment_unit=moment_unit,
    )


@tool("calculation", words=("column", "buckling", "euler", "strut", "compression"))
def column_buckling(
    length: str, elastic_modulus: str, moment_of_inertia: str, effective_length_factor: float = 1.0
) -> CalcResult:
    """Euler critical (elastic buckling) load of a column: Pcr = π²EI/(KL)².

    Args:
        length: The unbraced length, such as "3.5 m" or "12 ft".
        elastic_modulus: Young's modulus E, such as "200 GPa" or "29000 ksi".
        moment_of_inertia: Second moment of area I about the buckling axis, such as "2.2e7 mm**4".
        effective_length_factor: K: 1.0 pinned-pinned, 0.5 fixed-fixed, 0.7 fixed-pinned, 2.0 cantilever.
    """
    if not 0 < effective_length_factor <= 10:
        raise ValueError(f"effective_length_factor must be between 0 and 10; got {effective_length_factor:g}")
    unbraced = require(length, "length", "length")
    modulus = require(elastic_modulus, "elastic_modulus", "pressure or stress")
    inertia = require(moment_of_inertia, "moment_of_inertia", "second moment of area (length⁴)")
    system = system_of(unbraced, modulus, inertia)
    effective = effective_length_factor * unbraced
    critical = (math.pi**2 * modulus * inertia / effective**2).to_base_units()
    values = {"critical_load": conventional(critical, system), "effective_length": effective.to(unbraced.units)}
    return calc_result(
        values,
        formula="Pcr = π²EI/(KL)²",
        substituted=f"Pcr = π² × {show(modulus)} × {show(inertia)} / ({effective_length_factor:g} × {show(unbraced)})² "
        f"= {show(values['critical_load'])}",
        reference="Euler elastic buckling load; AISC 360-22 eq. E3-4 uses the same Fe = π²E/(Lc/r)²",
        notes=["Elastic buckling only: no yielding, imperfections or resistance factor are included."],
        not_checked=[
            "the column's design strength: yielding, inelastic buckling, imperfections and the resistance factor "
            "(Pcr is an upper bound; steel_column_check gives the design strength)",
            "bending, and buckling about the other axis or in torsion",
        ],
        covers="the elastic critical load about the axis whose I was given",
        warnings=effective_length_warnings(effective_length_factor)
        + span_warnings(unbraced.to("m").magnitude, show(unbraced)),
    )


ANALYSIS_ONLY = ("the member's strength: bending, shear and buckling resistance (an analysis gives the forces; "
                 "steel_beam_check or concrete_beam_check checks a section)")  # fmt: skip
STRESS_LIMITS_MPA = {"concrete": 25.0, "steel": 250.0, "wood": 10.0}
GRAVITY = 9.81


@tool("calculation")
def check_structural_integrity(
    material: Literal["concrete", "steel", "wood"], load_kg: float, area_m2: float
) -> CalcResult:
    """Check whether a material can carry a mass spread over an area (simplified axial stress check).

    Args:
        material: The material: concrete (limit 25 MPa), steel (250 MPa) or wood (10 MPa).
        load_kg: The mass carried, in kilograms.
        area_m2: The loaded cross-section area, in square metres.
    """
    if area_m2 <= 0:
        raise ValueError(f"area_m2 must be more than zero; got {area_m2:g}")
    if load_kg < 0:
        raise ValueError(f"load_kg cannot be negative; got {load_kg:g}")
    if not math.isfinite(load_kg * GRAVITY / area_m2) or load_kg > 1e12 or area_m2 < 1e-9:
        raise ValueError("the load or the area is out of any sensible range; check the numbers")
    ureg = registry()
    stress = (load_kg * GRAVITY / area_m2 * ureg.Pa).to("MPa")
    limit = STRESS_LIMITS_MPA[material] * ureg.MPa
    safe = stress <= limit
    factor = limit.magnitude / stress.magnitude if stress.magnitude else math.inf
    return calc_result(
        {"stress": stress, "limit": limit},
        text={
            "safety_factor": "inf" if math.isinf(factor) else f"{factor:.4g}",
            "verdict": "SAFE" if safe else "UNSAFE",
        },
        formula="σ = m·g/A; safety factor = limit/σ",
        substituted=f"σ = {load_kg:g} kg × {GRAVITY} m/s² / {area_m2:g} m² = {show(stress)}",
        checks=[check("stress ≤ limit", stress, limit)],
        notes=["Simplified limits (concrete 25, steel 250, wood 10 MPa), not a code design check."],
        not_checked=[
            "load and material safety factors: the limit is the material's nominal strength, not a design strength",
            "buckling, bending and eccentricity of the load",
            "bearing and punching where the load is applied, and the connections",
        ],
        covers="the average stress under the mass given against a nominal strength, unfactored (not a code check)",
    )
