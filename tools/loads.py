"""Load combinations: ASCE 7-22 or ASCE 7-16, strength (LRFD) or allowable stress (ASD) design, and EN 1990 eq. 6.10,
or 6.10a and 6.10b with the UK National Annex."""

from __future__ import annotations

from typing import Any, Literal

from domain.calculations import CalcResult
from tools.calc import calc_result
from tools.catalogue import tool
from tools.codes.asce7 import combinations as asce7
from tools.codes.en1990 import combinations as en1990
from tools.codes.national_annexes import national_annex as read_annex
from tools.units.reading import DIMENSIONS, parse_quantity
from tools.units.showing import show

Code = Literal["ASCE7-LRFD", "ASCE7-16-LRFD", "ASCE7-ASD", "ASCE7-16-ASD", "EN1990"]
LOAD_KINDS = ("force", "force per length", "pressure or stress", "moment (force × length)")
MAX_LOAD_BASE_UNITS = 1e12
ASCE7_NOTES = [
    "Basic combinations without roof live, rain or earthquake loads.",
    "Exception: the factor on L in the combinations with W or S may be 0.5 where the live load is at most "
    "100 psf (4.79 kN/m²), except garages and places of public assembly.",
    "Loads acting downward (with gravity) are positive; wind acting upward is negative, and 0.9D + 1.0W (0.6D + 0.6W "
    "in ASD) is then the uplift case. 'least' is the smallest combination, if it matters.",
]
ASCE7_LEFT_OUT = [
    "combinations with roof live, rain, earthquake, flood, ice or self-straining loads (they are not arguments)",
    "serviceability combinations (ASCE 7-22 Appendix C)",
]
EN1990_LEFT_OUT = [
    "accidental and seismic combinations (EN 1990 6.4.3.3, 6.4.3.4)",
    "serviceability combinations (EN 1990 6.5.3)",
    "equilibrium (EQU) and geotechnical (GEO) sets: Tables A1.2(A) and A1.2(C)",
]
EN1990_NOTES = [
    "γG,sup = 1.35, γG,inf = 1.0, γQ = 1.5 where a variable action is unfavourable and 0 where it is favourable "
    "(Table A1.2(B)); each unfavourable variable action in turn is the leading one.",
    "Loads acting downward (with gravity) are positive. The downward combinations leave out the actions acting "
    "upward; the uplift combinations take 1.0G with the actions acting upward alone.",
    "'least' is the uplift combination (1.0G with the actions acting upward) when an action acts upward; "
    "otherwise the smallest combination listed.",
]


@tool("calculation", words=("combination", "factored", "dead", "live", "1.2d", "1.35g", "uls", "6.10", "snow"))
def load_combination(
    dead: str,
    live: str,
    snow: str | None = None,
    wind: str | None = None,
    code: Code = "ASCE7-LRFD",
    national_annex: str | None = None,
) -> CalcResult:
    """Factored load combinations and the governing one, loads in one kind of unit; says the edition.

    Args:
        dead: Dead load, "5 kPa", "12 kN/m", "80 psf".
        live: Live load.
        snow: Snow load, if any.
        wind: Wind load, if any; negative for uplift.
        code: ASCE7-LRFD (7-22), ASCE7-16-LRFD, ASCE7-ASD, ASCE7-16-ASD or EN1990.
        national_annex: EN1990: "UK" (6.10a/6.10b).
    """
    given = {"dead": dead, "live": live, "snow": snow, "wind": wind}
    loads = {name: _load(text, name) for name, text in given.items() if text is not None}
    for name, load in loads.items():
        if not load.is_compatible_with(loads["dead"]):
            raise ValueError(f"{name} must be the same kind of load as dead ({dead.strip()}); got {given[name]}")
    annex = read_annex(national_annex)
    if annex and code != "EN1990":
        raise ValueError("national_annex is for code='EN1990'; ASCE 7 has none (its editions: ASCE7-LRFD for 7-22, "
                         "ASCE7-16-LRFD for 7-16)")  # fmt: skip
    letters = dict(zip(given, "GQSW" if code == "EN1990" else "DLSW", strict=True))
    by_letter = {letters[name]: load for name, load in loads.items()}
    unit = loads["dead"].units  # results in the unit the loads were given in
    magnitudes = {k: float(v.to(unit).magnitude) for k, v in by_letter.items()}
    combinations, notes, reference, extra = _combinations(code, magnitudes, annex)
    values: dict[str, Any] = {
        name: sum(factor * by_letter[letter] for letter, factor in factors.items()).to(unit)
        for name, factors in combinations
    }
    governing = max(values, key=lambda name: values[name].magnitude)
    least = min(values, key=lambda name: values[name].magnitude)
    given_loads = ", ".join(f"{letter} = {show(load)}" for letter, load in by_letter.items())
    equations = {key: max((values[name] for name in names), key=lambda v: v.magnitude) for key, names in extra.items()}
    return calc_result(
        {"governing": values[governing], "least": values[least], **equations, **values},
        text={"governing_combination": governing, "least_combination": least, "edition": reference},
        formula="; ".join(values),
        substituted=f"{given_loads}: {governing} = {show(values[governing])} governs",
        reference=reference,
        notes=notes,
        not_checked=EN1990_LEFT_OUT if code == "EN1990" else ASCE7_LEFT_OUT,
        covers=f"the basic combinations of the loads given ({reference})",
    )


def _combinations(code: Code, loads: dict[str, float], annex: str | None) -> tuple[
        list[asce7.Combination], list[str], str, dict[str, list[str]]]:  # fmt: skip
    """The combinations that apply to the loads given (by letter, signed magnitudes), their notes, the clause, and
    the equations' groups (6.10a, 6.10b) whose largest is a result of its own."""
    if code == "EN1990":
        return _en1990({letter: value for letter, value in loads.items() if letter != "G"}, annex)
    combinations, reference, snow = asce7.SETS[code]
    notes = [f"{reference}: {ASCE7_NOTES[0]}", *ASCE7_NOTES[1:]]
    if "S" in loads:
        notes.insert(1, f"The snow load is taken as {snow}; a snow load of the other edition gives a wrong number.")
    return asce7.applicable(code, set(loads)), notes, reference, {}


def _en1990(variable: dict[str, float], annex: str | None) -> tuple[
        list[en1990.Combination], list[str], str, dict[str, list[str]]]:  # fmt: skip
    downward = [s for s in ("Q", "S", "W") if variable.get(s, 0.0) > 0]
    upward = [s for s in ("Q", "S", "W") if variable.get(s, 0.0) < 0]
    uplift = en1990.eq_6_10(upward, en1990.GAMMA_G_INF, annex)
    psi = en1990.PSI0[annex]
    psi_note = f"ψ0 = {psi['Q']:g} for imposed loads (categories A–D), {psi['S']:g} for snow (sites at most 1000 m), " \
        f"{psi['W']:g} for wind (Table A1.1{', UK NA Table NA.A1.1' if annex else ''})."  # fmt: skip
    if annex is None:
        gravity = en1990.eq_6_10(downward, en1990.GAMMA_G_SUP, None) or [("1.35G", {"G": en1990.GAMMA_G_SUP})]
        notes = ["EN 1990:2002 eq. 6.10 with Table A1.2(B). " + EN1990_NOTES[0], *EN1990_NOTES[1:], psi_note]
        return gravity + uplift, notes, "EN 1990:2002 eq. 6.10, Table A1.2(B)", {}
    a = en1990.eq_6_10a(downward, annex)
    b = en1990.eq_6_10b(downward, annex) or [(en1990.name({"G": en1990.XI * 1.35}), {"G": en1990.XI * 1.35})]
    notes = ["EN 1990:2002 eq. 6.10a and 6.10b with the UK National Annex (Table NA.A1.2(B)): 6.10a takes 1.35G and "
             "every variable action at ψ0; 6.10b takes ξ × 1.35G = 1.25G (ξ = 0.925) with each leading in turn. The "
             "less favourable governs.", *EN1990_NOTES, psi_note]  # fmt: skip
    groups = {"6.10a": [a[0]], "6.10b": [name for name, _ in b]}
    return [a, *b, *uplift], notes, "EN 1990:2002 eq. 6.10a, 6.10b; UK National Annex, Table NA.A1.2(B)", groups


def _load(text: str, name: str) -> Any:
    """A load of any kind used in combinations; dead, live and snow act downward (not negative)."""
    load = parse_quantity(text, name)
    if not any(load.check(DIMENSIONS[kind]) for kind in LOAD_KINDS):
        raise ValueError(f"{name} must be a force, force per length, pressure or moment; got {text.strip()}")
    if name != "wind" and load.magnitude < 0:
        raise ValueError(f"{name} cannot be negative; give its size (it acts downward); got {text.strip()}")
    base = abs(load.to_base_units().magnitude)
    if base > MAX_LOAD_BASE_UNITS:
        raise ValueError(f"{name} = {text.strip()} is out of any sensible range; check the number and its unit")
    return load
