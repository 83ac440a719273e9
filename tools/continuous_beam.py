"""Continuous beams on pinned supports under a uniform load, solved with PyniteFEA (MIT).

Pynite is imported when the tool first runs (about half a second), never at start-up.
Sign convention as for the other beam tools: sagging moment positive, so the moments
over interior supports are negative.
"""

from __future__ import annotations

from typing import Any

from domain.calculations import CalcResult
from tools.beams import diagram_data, stiffness_inputs
from tools.calc import calc_result
from tools.catalogue import tool
from tools.practice import span_warnings
from tools.units import registry
from tools.units.reading import require
from tools.units.showing import System, conventional, show, system_of

MAX_SPANS = 20
POINTS_PER_SPAN = 41
# Used when E and I are not given: for one E·I on every span, reactions and moments do not depend on it.
NOMINAL_MODULUS, NOMINAL_INERTIA = 200e9, 1e-4


@tool("calculation", words=("continuous", "spans", "support", "two", "three", "hogging", "multi"))
def continuous_beam(
    spans: list[str], load: str, elastic_modulus: str | None = None, moment_of_inertia: str | None = None
) -> CalcResult:
    """Reactions, support moments and span moments of a beam continuous over two or more spans on pinned supports,
    the same uniform load on every span; with E and I also the deflection.

    Args:
        spans: Span lengths from left to right, such as ["6 m", "6 m"] or ["20 ft", "25 ft"].
        load: The uniform load on every span, such as "10 kN/m" or "1.2 kip/ft".
        elastic_modulus: Young's modulus E, such as "200 GPa"; with I, gives the deflection.
        moment_of_inertia: Second moment of area I, such as "8356 cm**4"; with E, gives the deflection.
    """
    if not 1 <= len(spans) <= MAX_SPANS:
        raise ValueError(f"give between 1 and {MAX_SPANS} spans; got {len(spans)}")
    lengths = [require(text, f"spans[{i}]", "length") for i, text in enumerate(spans)]
    force = require(load, "load", "force per length", positive=False)
    stiffness = stiffness_inputs(elastic_modulus, moment_of_inertia)
    system = system_of(*lengths, force, *stiffness)
    metres = [length.to("m").magnitude for length in lengths]
    modulus, inertia = (
        (s.to_base_units().magnitude for s in stiffness) if stiffness else (NOMINAL_MODULUS, NOMINAL_INERTIA)
    )
    solved = _solve(metres, force.to("N/m").magnitude, modulus, inertia)
    return _result(solved, metres, force, lengths, system, bool(stiffness))


def _solve(spans: list[float], load: float, modulus: float, inertia: float) -> dict[str, Any]:
    """Build and solve the model; every figure in N, m, sagging moment positive, deflection downward positive."""
    from Pynite import FEModel3D

    model = FEModel3D()
    positions = [0.0]
    for span in spans:
        positions.append(positions[-1] + span)
    for index, x in enumerate(positions):
        model.add_node(f"S{index}", x, 0.0, 0.0)
        model.def_support(f"S{index}", index == 0, True, True, True, False, False)  # pinned; in-plane bending only
    model.add_material("beam", modulus, modulus / 2.6, 0.3, 0.0)
    model.add_section("beam", 1.0, inertia, inertia, inertia)
    for index in range(len(spans)):
        model.add_member(f"M{index}", f"S{index}", f"S{index + 1}", "beam", "beam")
        model.add_member_dist_load(f"M{index}", "Fy", -load, -load)
    model.analyze_linear(check_statics=False)
    xs: list[float] = []
    shears: list[float] = []
    moments: list[float] = []
    for index, start in enumerate(positions[:-1]):
        member = model.members[f"M{index}"]
        local, shear = member.shear_array("Fy", POINTS_PER_SPAN)
        _, moment = member.moment_array("Mz", POINTS_PER_SPAN)
        xs += [start + float(x) for x in local]
        shears += [float(v) for v in shear]
        moments += [-float(m) for m in moment]  # Pynite's Mz is hogging positive
    members = [model.members[f"M{i}"] for i in range(len(spans))]
    support_moments = [0.0] + [-float(member.moment("Mz", 0.0)) for member in members[1:]] + [0.0]
    return {
        "max_sagging": max(-float(member.min_moment("Mz")) for member in members),
        "max_hogging": min(-float(member.max_moment("Mz")) for member in members),
        "max_deflection": max(-float(member.min_deflection("dy")) for member in members),
        "reactions": [float(model.nodes[f"S{i}"].RxnFY["Combo 1"]) for i in range(len(positions))],
        "support_moments": support_moments,
        "x": xs,
        "shear": shears,
        "moment": moments,
    }


def _result(
    solved: dict[str, Any], metres: list[float], force: Any, lengths: list[Any], system: System, deflects: bool
) -> CalcResult:
    ureg = registry()
    newton, newton_metre = ureg.N, ureg.N * ureg.m
    values: dict[str, Any] = {
        "reactions": [conventional(r * newton, system) for r in solved["reactions"]],
        "support_moments": [conventional(m * newton_metre, system) for m in solved["support_moments"]],
        "max_positive_moment": conventional(max(solved["max_sagging"], 0.0) * newton_metre, system),
        "max_negative_moment": conventional(min(solved["max_hogging"], 0.0) * newton_metre, system),
    }
    if deflects:
        values["max_deflection"] = conventional(solved["max_deflection"] * ureg.m, system)
    spans_text = " + ".join(show(length) for length in lengths)
    notes = ["Sagging moment positive: the moments over interior supports are negative (hogging)."]
    if not deflects:
        notes.append(
            "Give elastic_modulus and moment_of_inertia for the deflection (moments and reactions do not need them)."
        )
    return calc_result(
        values,
        formula="stiffness method, pinned supports, uniform load w on every span",
        substituted=f"spans {spans_text}, w = {show(force)} on each",
        reference="Solved with PyniteFEA 3.2 (MIT); for equal spans the coefficients of AISC Manual Table 3-23",
        notes=notes,
        not_checked=[
            "pattern loading: live load on alternate or adjacent spans gives larger span and support moments than the "
            "same load on every span (give each arrangement as its own analysis)",
            "the member's strength and deflection limits (an analysis gives the forces; a design check checks them)",
            "support settlement and supports that are not pinned",
        ],
        covers="the elastic forces of one load case: the same uniform load on every span",
        warnings=[
            warning
            for metre, length in zip(metres, lengths, strict=True)
            for warning in span_warnings(metre, show(length))
        ],
        diagram=diagram_data(solved["x"], solved["shear"], solved["moment"], system),
    )
