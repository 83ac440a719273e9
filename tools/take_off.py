"""Quantity take-off: concrete volumes and reinforcing-bar weights."""

from __future__ import annotations

import math
import re
from typing import Literal

from domain.calculations import CalcResult
from tools.calc import calc_result
from tools.catalogue import tool
from tools.units import registry
from tools.units.reading import require
from tools.units.showing import conventional, show, system_of

Shape = Literal["slab", "footing", "wall", "column_rect", "column_round"]
STEEL_DENSITY_KG_M3 = 7850.0

# ASTM A615/A615M, Table 1: nominal weight (lb/ft) and diameter (in) of deformed bars.
ASTM_BARS = {
    3: (0.376, 0.375),
    4: (0.668, 0.500),
    5: (1.043, 0.625),
    6: (1.502, 0.750),
    7: (2.044, 0.875),
    8: (2.670, 1.000),
    9: (3.400, 1.128),
    10: (4.303, 1.270),
    11: (5.313, 1.410),
    14: (7.650, 1.693),
    18: (13.600, 2.257),
}
# CSA G30.18, Table 1: nominal mass (kg/m) and diameter (mm) of metric bars.
CSA_BARS = {
    10: (0.785, 11.3),
    15: (1.570, 16.0),
    20: (2.355, 19.5),
    25: (3.925, 25.2),
    30: (5.495, 29.9),
    35: (7.850, 35.7),
    45: (11.775, 43.7),
    55: (19.625, 56.4),
}
_ASTM = re.compile(r"^\s*(?:#|no\.?\s*)(\d{1,2})\s*$", re.IGNORECASE)
_CSA = re.compile(r"^\s*(\d{2})\s*M\s*$", re.IGNORECASE)

_SHAPES = {  # shape: (needed dimensions, formula)
    "slab": (("length", "width", "height"), "V = n × L × W × t (height = thickness)"),
    "footing": (("length", "width", "height"), "V = n × L × W × H"),
    "wall": (("length", "width", "height"), "V = n × L × t × H (width = thickness)"),
    "column_rect": (("length", "width", "height"), "V = n × b × d × H"),
    "column_round": (("diameter", "height"), "V = n × π d²/4 × H"),
}


@tool("calculation", words=("concrete", "volume", "pour", "footing", "slab"))
def concrete_volume(
    shape: Shape,
    length: str | None = None,
    width: str | None = None,
    height: str | None = None,
    diameter: str | None = None,
    count: int = 1,
    waste_percent: float = 0,
) -> CalcResult:
    """Volume of concrete for slabs, footings, walls and columns, with an optional waste allowance.

    Args:
        shape: slab (height is its thickness), footing, wall (width is its thickness), column_rect or column_round.
        length: Length with unit, such as "6 m" or "20 ft" (not used for a round column).
        width: Width with unit (a wall's thickness).
        height: Height or thickness with unit, such as "200 mm" or "8 in".
        diameter: Diameter of a round column, such as "450 mm".
        count: How many identical elements.
        waste_percent: Extra allowance for waste and over-excavation, in percent (e.g. 5).
    """
    _check_count(count)
    if not 0 <= waste_percent <= 100:
        raise ValueError(f"waste_percent must be between 0 and 100; got {waste_percent:g}")
    needed, formula = _SHAPES[shape]
    given = {"length": length, "width": width, "height": height, "diameter": diameter}
    missing = [name for name in needed if not given[name]]
    if missing:
        raise ValueError(f"a {shape} needs {', '.join(needed)}; missing {', '.join(missing)}")
    dims = {name: require(given[name], name, "length") for name in needed}  # type: ignore[arg-type]
    system = system_of(*dims.values())
    each = (
        math.pi * dims["diameter"] ** 2 / 4 * dims["height"]
        if shape == "column_round"
        else (dims["length"] * dims["width"] * dims["height"])
    )
    net = (each * count).to("m**3")
    total = net * (1 + waste_percent / 100)
    values = {"volume": conventional(total, system), "net_volume": conventional(net, system)}
    sizes = " × ".join(show(d) for d in dims.values())
    extra = f" × {1 + waste_percent / 100:g} (waste)" if waste_percent else ""
    return calc_result(
        values,
        formula=formula + (" × (1 + waste)" if waste_percent else ""),
        substituted=f"V = {count} × {sizes}{extra} = {show(values['volume'])}",
        notes=[] if system == "SI" else ["Ready-mix is ordered in cubic yards."],
    )


MAX_COUNT = 100_000


def _check_count(count: int) -> None:
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"count must be from 1 to {MAX_COUNT:,}; got {count}")


def _bar_mass(bar_size: str) -> tuple[object, str, str]:
    """Nominal mass per length of a bar, the system it belongs to, and where the value comes from."""
    ureg = registry()
    if match := _ASTM.match(bar_size):
        number = int(match[1])
        if number not in ASTM_BARS:
            raise ValueError(f"ASTM bar sizes are #3 to #11, #14 and #18; got {bar_size.strip()}")
        return ASTM_BARS[number][0] * ureg("lb/ft"), "US", "ASTM A615/A615M Table 1 (nominal weight)"
    if match := _CSA.match(bar_size):
        number = int(match[1])
        if number not in CSA_BARS:
            raise ValueError(f"CSA bar sizes are 10M, 15M, 20M, 25M, 30M, 35M, 45M and 55M; got {bar_size.strip()}")
        return CSA_BARS[number][0] * ureg("kg/m"), "SI", "CSA G30.18 Table 1 (nominal mass)"
    try:
        diameter = require(bar_size, "bar_size", "length")
    except ValueError:
        raise ValueError(
            f"bar_size must be an ASTM size (#3…#18), a CSA size (10M…55M) or a diameter such as "
            f"'16 mm'; got {bar_size.strip()}"
        ) from None
    mass = (STEEL_DENSITY_KG_M3 * ureg("kg/m**3") * math.pi * diameter**2 / 4).to("kg/m")
    return mass, system_of(diameter), f"steel density {STEEL_DENSITY_KG_M3:g} kg/m³: w = ρπd²/4"


@tool("calculation", words=("rebar", "bar", "bars", "reinforcement", "weight"))
def rebar_weight(bar_size: str, length: str, count: int = 1) -> CalcResult:
    """Weight of reinforcing bars from their published nominal mass per length.

    Args:
        bar_size: An ASTM size such as "#5", a CSA size such as "15M", or a bar diameter such as "16 mm".
        length: Length of one bar with unit, such as "6 m" or "20 ft".
        count: Number of bars.
    """
    _check_count(count)
    unit_mass, bar_system, source = _bar_mass(bar_size)
    bar_length = require(length, "length", "length")
    system = bar_system if system_of(bar_length) == bar_system else "SI"
    values = {
        "unit_weight": conventional(unit_mass, system),
        "total_weight": conventional(unit_mass * bar_length * count, system),
    }
    return calc_result(
        values,
        formula="W = n × w × L",
        substituted=f"W = {count} × {show(values['unit_weight'])} × {show(bar_length)} "
        f"= {show(values['total_weight'])}",
        reference=source,
    )
