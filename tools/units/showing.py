"""Showing quantities as engineers read them: in the units of their system ("kN", "kip·ft", "psf") and in
their notation — pint's "kN * m", "m ** 3" and "kN / m ** 2" written "kN·m", "m³" and "kN/m²" — in the
tools' results (what the model reads and repeats) and everything the faces show. `tools.units.reading`
reads that notation back.
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from tools.units.reading import parse_unit

System = Literal["SI", "US"]

SIGNIFICANT_FIGURES = 4

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
# A power of a unit or a bracket, `m**2` or `m ** 2`: spaced on both sides or on neither, so that
# Markdown bold in a model's text (`is **12**`) is never taken for one.
_POWER = re.compile(r"(?<=[A-Za-z)])(?: \*\* |\*\*)(-?\d+)(?![\d.*])")
_PRODUCT = re.compile(r"(?<=[\w)]) \* (?=[\w(])")
_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def engineering_units(text: str) -> str:
    """ "54 kN * m" → "54 kN·m", "10 m ** 3" → "10 m³", "kN / m ** 2" → "kN/m²" (read back by `normalise`)."""
    text = _POWER.sub(lambda power: power.group(1).translate(_SUPERSCRIPTS), text)
    return _PRODUCT.sub("·", text).replace(" / ", "/")


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
