"""Quantities with units: one lazily built pint registry, a guarded parser, conventional output units.

Model-written quantities ("6 m", "12 kN/m", `20'-6"`) are read by
`tools.quantity_text` (pint's tokens and expression tree with our operators:
floats only, bounded exponents, no `eval`), then checked for their kind of
quantity and range here, and shown in the units engineers expect.
"""

from __future__ import annotations

import math
import re
import threading
from functools import cache
from typing import Any, Literal

from tools.quantity_text import MAX_MAGNITUDE, check_magnitude, engineering_units, evaluate, normalise, pint_message
from tools.unit_names import engineers_units, units_named

System = Literal["SI", "US"]

MAX_QUANTITY_CHARS = 200
SIGNIFICANT_FIGURES = 4

_CONSTRUCTION_UNITS = (
    "psf = pound_force / foot ** 2",
    "pcf = pound_force / foot ** 3",  # unit weight, as engineers use it
    "plf = pound_force / foot",
    "klf = kip / foot",
    "ksf = kip / foot ** 2",
)
_US_UNITS = {
    "foot",
    "inch",
    "yard",
    "mile",
    "pound",
    "pound_force",
    "force_pound",
    "kip",
    "kip_per_square_inch",
    "pound_force_per_square_inch",
    "psf",
    "pcf",
    "plf",
    "klf",
    "ksf",
    "kipf",
    "cubic_yard",
    "cubic_foot",
    "square_foot",
    "square_inch",
    "gallon",
    "degree_Fahrenheit",
    "short_ton",
    "US_survey_foot",
    "ton",
}
_SIMPLE = re.compile(  # a number and one unit name: "20 degC" (offset units cannot be multiplied)
    r"^\s*(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(?P<unit>[A-Za-zµΩ°][A-Za-z_µΩ°]*)?\s*$"
)

_registry_lock = threading.Lock()


@cache
def _registry_cached() -> Any:
    import pint

    registry: Any = pint.UnitRegistry(non_int_type=float)
    for definition in _CONSTRUCTION_UNITS:
        registry.define(definition)
    registry.formatter.default_format = "~"
    registry.formatter.default_sort_func = None  # "kip * ft", as written, not alphabetical
    return registry


def registry() -> Any:
    """The process's one pint registry (about 1 s to build, so built on first use)."""
    with _registry_lock:
        return _registry_cached()


def parse_quantity(text: str, name: str = "quantity") -> Any:
    """A pint Quantity from model text such as "12 kN/m", `20'-6"` or "(6 m)**2 / 8"."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{name} is empty; give a number with its unit, such as '6 m'")
    if len(text) > MAX_QUANTITY_CHARS:
        raise ValueError(f"{name} is too long ({len(text)} characters; at most {MAX_QUANTITY_CHARS})")
    ureg = registry()
    normalised = normalise(text)
    simple = _SIMPLE.match(normalised)
    try:
        if simple:  # "20 degC" needs this form: offset units cannot be multiplied
            units = units_named(simple["unit"], ureg) if simple["unit"] else ureg.dimensionless
            quantity = ureg.Quantity(float(simple["number"]), units)
        else:
            quantity = evaluate(normalised, ureg)
        check_magnitude(quantity)
    except ValueError as error:
        raise ValueError(f"{name} '{text}' could not be read: {error}") from None
    except (AssertionError, IndexError, SyntaxError):
        raise ValueError(f"{name} '{text}' is not a quantity: give a number with its unit, such as '6 m'") from None
    except Exception as error:  # noqa: BLE001 - pint's parse and dimension errors
        raise ValueError(f"{name} '{text}' could not be read: {pint_message(error)}") from None
    return quantity if isinstance(quantity, ureg.Quantity) else ureg.Quantity(float(quantity))


def parse_unit(text: str, name: str = "unit") -> Any:
    """Units alone, such as "kN*m" or "ft"."""
    if not text or not text.strip():
        raise ValueError(f"{name} is empty")
    if len(text) > MAX_QUANTITY_CHARS:
        raise ValueError(f"{name} is too long")
    ureg = registry()
    try:
        return ureg.parse_units(engineers_units(normalise(text), ureg))
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    except Exception:  # noqa: BLE001 - pint raises several kinds for an unknown name
        raise ValueError(f"'{text}' is not a unit this application knows") from None


DIMENSIONS = {
    "length": "[length]",
    "area": "[length] ** 2",
    "volume": "[length] ** 3",
    "second moment of area (length⁴)": "[length] ** 4",
    "force": "[force]",
    "force per length": "[force] / [length]",
    "pressure or stress": "[pressure]",
    "moment (force × length)": "[force] * [length]",
    "mass": "[mass]",
}


def dimension_name(quantity: Any) -> str:
    """ "a length", "a force", … or the dimensionality itself."""
    for label, dimension in DIMENSIONS.items():
        if quantity.check(dimension):
            return label
    return "dimensionless" if quantity.dimensionless else str(quantity.dimensionality)


def require(text: str, name: str, dimension: str, positive: bool = True) -> Any:
    """Parse `text` and insist on a kind of quantity: "span must be a length; got 12 kN"."""
    quantity = parse_quantity(text, name)
    if not quantity.check(DIMENSIONS[dimension]):
        article = "an" if dimension[0] in "aeiou" else "a"
        raise ValueError(f"{name} must be {article} {dimension}; got {text.strip()} ({dimension_name(quantity)})")
    if positive and quantity.magnitude <= 0:
        raise ValueError(f"{name} must be more than zero; got {text.strip()}")
    base = abs(quantity.to_base_units().magnitude)
    if base and not (1 / MAX_MAGNITUDE < base < MAX_MAGNITUDE):
        raise ValueError(f"{name} = {text.strip()} is out of any sensible range; check the number and its unit")
    return quantity


def system_of(*quantities: Any) -> System:
    """US customary when every input with units uses US customary units; otherwise SI."""
    systems = set()
    for quantity in quantities:
        names = {name for name, _ in quantity.unit_items()} - _NEUTRAL_UNITS
        if names:
            systems.add("US" if names <= _US_UNITS else "SI")
    return "US" if systems == {"US"} else "SI"


_NEUTRAL_UNITS = {"percent", "degree", "radian", "dimensionless", "minute", "second", "hour"}
_CONVENTIONAL: dict[str, tuple[str, str]] = {
    "[force]": ("kN", "kip"),
    "[force] / [length]": ("kN/m", "kip/ft"),
    "[force] * [length]": ("kN*m", "kip*ft"),
    "[force] / [length] ** 3": ("kN/m**3", "pcf"),
    "[length]": ("mm", "in"),
    "[length] ** 3": ("m**3", "yd**3"),
    "[length] ** 4": ("mm**4", "in**4"),
    "[mass]": ("kg", "lb"),
    "[mass] / [length]": ("kg/m", "lb/ft"),
    "[mass] / [length] ** 3": ("kg/m**3", "lb/ft**3"),
}
# (small unit, large unit, the size from which the large one reads better), by system
_BY_SIZE: dict[str, dict[str, tuple[str, str, float]]] = {
    "[length] ** 2": {"SI": ("mm**2", "m**2", 1.0), "US": ("in**2", "ft**2", 1.0)},
    "[pressure]": {"SI": ("kPa", "MPa", 1.0), "US": ("psi", "ksi", 1.0)},
}
_AREA_LOAD_UNITS = {"psf", "ksf", "foot"}  # US area loads are written per square foot


def _by_size(quantity: Any, small: str, large: str, threshold: float) -> Any:
    converted = quantity.to(large)
    return converted if abs(converted.magnitude) >= threshold else quantity.to(small)


def conventional(quantity: Any, system: System, prefer: str | None = None) -> Any:
    """The quantity in the units engineers of that system expect (or in `prefer`)."""
    if prefer:
        return quantity.to(parse_unit(prefer))
    names = {name for name, _ in quantity.unit_items()}
    if system == "US" and quantity.check("[pressure]") and names & _AREA_LOAD_UNITS:
        return _by_size(quantity, "psf", "ksf", 10.0)  # floor and roof loads stay in psf
    for dimension, sizes in _BY_SIZE.items():
        if quantity.check(dimension):
            return _by_size(quantity, *sizes[system])
    for dimension, units in _CONVENTIONAL.items():
        if quantity.check(dimension):
            return quantity.to(units[0] if system == "SI" else units[1])
    return quantity.to_reduced_units() if not quantity.dimensionless else quantity.to("dimensionless")


def significant(value: float, figures: int = SIGNIFICANT_FIGURES) -> str:
    """`value` to `figures` significant figures, without an exponent in the usual range."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    rounded = float(f"{value:.{figures - 1}e}")
    exponent = math.floor(math.log10(abs(rounded)))
    if not -4 <= exponent < 12:
        return f"{rounded:.{figures - 1}e}"
    decimals = max(0, figures - 1 - exponent)
    text = f"{rounded:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def show(quantity: Any, figures: int = SIGNIFICANT_FIGURES) -> str:
    """ "54 kN·m", "4.8 m³": rounded, in the engineers' notation (which `parse_quantity` reads back)."""
    if _plain_number(quantity):
        return significant(float(quantity.to("dimensionless").magnitude), figures)
    return f"{significant(float(quantity.magnitude), figures)} {engineering_units(format(quantity.units, '~'))}"


def precise(quantity: Any) -> str:
    """The value at full precision in pint's own notation, "54.0 kN * m" (for the stored record)."""
    if _plain_number(quantity):
        return repr(float(quantity.to("dimensionless").magnitude))
    return f"{float(quantity.magnitude)!r} {format(quantity.units, '~')}"


def _plain_number(quantity: Any) -> bool:
    """Dimensionless with no unit to show (unlike an angle in degrees, which keeps "deg")."""
    return bool(quantity.dimensionless) and format(quantity.units, "~") in ("", "dimensionless")
