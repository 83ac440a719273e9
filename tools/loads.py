"""Load combinations: ASCE 7-22 strength design (LRFD) and EN 1990 equation 6.10."""

from __future__ import annotations

from typing import Any, Literal

from domain.calculations import CalcResult
from tools.calc import calc_result
from tools.catalogue import tool
from tools.units.reading import DIMENSIONS, parse_quantity
from tools.units.showing import show

Code = Literal["ASCE7-LRFD", "EN1990"]
LOAD_KINDS = ("force", "force per length", "pressure or stress", "moment (force × length)")
MAX_LOAD_BASE_UNITS = 1e12

# (name, factors on D, L, S, W); a combination is used when every load it needs was given.
ASCE7_COMBINATIONS = [
    ("1.4D", {"D": 1.4}),
    ("1.2D + 1.6L", {"D": 1.2, "L": 1.6}),
    ("1.2D + 1.6L + 0.5S", {"D": 1.2, "L": 1.6, "S": 0.5}),
    ("1.2D + 1.6S + 1.0L", {"D": 1.2, "S": 1.6, "L": 1.0}),
    ("1.2D + 1.6S + 0.5W", {"D": 1.2, "S": 1.6, "W": 0.5}),
    ("1.2D + 1.0W + 1.0L", {"D": 1.2, "W": 1.0, "L": 1.0}),
    ("1.2D + 1.0W + 1.0L + 0.5S", {"D": 1.2, "W": 1.0, "L": 1.0, "S": 0.5}),
    ("0.9D + 1.0W", {"D": 0.9, "W": 1.0}),
]
ASCE7_NOTES = [
    "ASCE 7-22 §2.3.1 basic combinations without roof live, rain or earthquake loads.",
    "Exception: the factor on L in the combinations with W or S may be 0.5 where the live load is at most "
    "100 psf (4.79 kN/m²), except garages and places of public assembly.",
    "Loads acting downward (with gravity) are positive; wind acting upward is negative, and 0.9D + 1.0W is then "
    "the uplift case. 'least' is the smallest combination (uplift or overturning with 0.9D), if it matters.",
]
# EN 1990 Table A1.1 (buildings): ψ0 for imposed loads (categories A–C), snow (sites ≤ 1000 m), wind.
EN1990_PSI0 = {"Q": 0.7, "S": 0.5, "W": 0.6}
GAMMA_G_SUP, GAMMA_G_INF, GAMMA_Q = 1.35, 1.0, 1.5  # EN 1990 Table A1.2(B)
EN1990_NOTES = [
    "EN 1990:2002 eq. 6.10 with Table A1.2(B): γG,sup = 1.35, γG,inf = 1.0, γQ = 1.5 where a variable action "
    "is unfavourable and 0 where it is favourable; each unfavourable variable action in turn is the leading one.",
    "Loads acting downward (with gravity) are positive. The downward combinations take 1.35G and leave out the "
    "actions acting upward; the uplift combinations take 1.0G with the actions acting upward alone.",
    "ψ0 = 0.7 for imposed loads (categories A–C), 0.5 for snow (sites at most 1000 m), 0.6 for wind (Table A1.1).",
    "'least' is the uplift combination (1.0G with the actions acting upward) when an action acts upward; "
    "otherwise the smallest combination listed.",
]


def _en1990_set(present: dict[str, float], gamma_g: float, sense: int) -> list[tuple[str, dict[str, float]]]:
    """Eq. 6.10 with each action acting in `sense` (+1 downward, -1 upward) leading in turn; the others,
    favourable, take γQ = 0 and are left out."""
    unfavourable = [symbol for symbol in ("Q", "S", "W") if present.get(symbol, 0.0) * sense > 0]
    combinations = []
    for leading in unfavourable:
        factors = {"G": gamma_g, leading: GAMMA_Q}
        for other in unfavourable:
            if other != leading:
                factors[other] = round(GAMMA_Q * EN1990_PSI0[other], 3)
        combinations.append((_en1990_name(factors), factors))
    return combinations


def _en1990_name(factors: dict[str, float]) -> str:
    """ "1.35G + 1.5S + 1.05Q", "1.0G + 1.5W": γG,inf is written 1.0, as EN 1990 writes it."""
    return " + ".join(
        f"{factor:.1f}{symbol}" if factor == 1 else f"{factor:g}{symbol}" for symbol, factor in factors.items()
    )


def _en1990_combinations(present: dict[str, float]) -> list[tuple[str, dict[str, float]]]:
    """The downward combinations (1.35G, or 1.35G alone when nothing acts downward) and, when an action acts
    upward, the uplift ones with 1.0G (EN 1990 6.10, Table A1.2(B))."""
    downward = _en1990_set(present, GAMMA_G_SUP, +1) or [("1.35G", {"G": GAMMA_G_SUP})]
    return downward + _en1990_set(present, GAMMA_G_INF, -1)


@tool("calculation", words=("combination", "factored", "dead", "live", "1.2d", "1.35g", "uls"))
def load_combination(
    dead: str, live: str, snow: str | None = None, wind: str | None = None, code: Code = "ASCE7-LRFD"
) -> CalcResult:
    """Factored load combinations and the governing one, all loads in the same kind of unit.

    Args:
        dead: Dead (permanent) load, such as "5 kPa", "12 kN/m", "80 psf" or "40 kN".
        live: Live (imposed) load in the same kind of unit.
        snow: Snow load in the same kind of unit, if any.
        wind: Wind load in the same kind of unit, if any: positive acting with gravity, negative for uplift.
        code: ASCE7-LRFD (ASCE 7-22 §2.3.1) or EN1990 (EN 1990:2002 eq. 6.10 with Table A1.2(B)).
    """
    given = {"dead": dead, "live": live, "snow": snow, "wind": wind}
    loads = {name: _load(text, name) for name, text in given.items() if text is not None}
    for name, load in loads.items():
        if not load.is_compatible_with(loads["dead"]):
            raise ValueError(f"{name} must be the same kind of load as dead ({dead.strip()}); got {given[name]}")
    letters = dict(zip(given, "GQSW" if code == "EN1990" else "DLSW", strict=True))
    by_letter = {letters[name]: load for name, load in loads.items()}
    unit = loads["dead"].units  # results in the unit the loads were given in
    combinations, notes, reference = _combinations(code, {k: float(v.to(unit).magnitude) for k, v in by_letter.items()})
    values: dict[str, Any] = {
        name: sum(factor * by_letter[letter] for letter, factor in factors.items()).to(unit)
        for name, factors in combinations
    }
    governing = max(values, key=lambda name: values[name].magnitude)
    least = min(values, key=lambda name: values[name].magnitude)
    given_loads = ", ".join(f"{letter} = {show(load)}" for letter, load in by_letter.items())
    return calc_result(
        {"governing": values[governing], "least": values[least], **values},
        text={"governing_combination": governing, "least_combination": least},
        formula="; ".join(values),
        substituted=f"{given_loads}: {governing} = {show(values[governing])} governs",
        reference=reference,
        notes=notes,
    )


def _combinations(code: Code, loads: dict[str, float]) -> tuple[list[tuple[str, dict[str, float]]], list[str], str]:
    """The combinations that apply to the loads given (by letter, signed magnitudes), their notes, the clause."""
    if code == "EN1990":
        variable = {letter: value for letter, value in loads.items() if letter != "G"}
        return _en1990_combinations(variable), EN1990_NOTES, "EN 1990:2002 eq. 6.10, Table A1.2(B)"
    asce = [(name, factors) for name, factors in ASCE7_COMBINATIONS if set(factors) <= set(loads)]
    return asce, ASCE7_NOTES, "ASCE 7-22 §2.3.1"


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
