"""Quantities with units: one lazily built pint registry, a guarded parser, conventional output units.

Model-written quantities ("6 m", "12 kN/m", `20'-6"`) are tokenised and
evaluated by pint's own expression machinery, with our own operators: every
number is a float, exponents are bounded, and a result that overflows is
refused, so no input can make the parser compute for long. Nothing is `eval`ed.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable
from functools import cache
from typing import Any, Literal

System = Literal["SI", "US"]

MAX_QUANTITY_CHARS = 200
MAX_EXPONENT = 64
MAX_MAGNITUDE = 1e15
SIGNIFICANT_FIGURES = 4

_CONSTRUCTION_UNITS = (
    "psf = pound_force / foot ** 2",
    "pcf = pound / foot ** 3",
    "plf = pound_force / foot",
    "klf = kip / foot",
    "ksf = kip / foot ** 2",
    "kipf = kip",
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
_FEET_INCHES = re.compile(
    r"(?P<feet>\d+(?:\.\d+)?)\s*(?:'|ft\b|feet\b|foot\b)\s*-?\s*(?P<inches>\d+(?:\.\d+)?(?:\s+\d+/\d+)?)\s*(?:\"|in\b|inch\b|inches\b)"
)
_LONE_FEET = re.compile(r"(\d+(?:\.\d+)?)\s*'")
_LONE_INCHES = re.compile(r"(\d+(?:\.\d+)?)\s*\"")
_SIMPLE = re.compile(
    r"^\s*(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(?P<unit>[A-Za-zµΩ°%][A-Za-z0-9_µΩ°%/. ²³]*)?\s*$"
)

_registry_lock = threading.Lock()


@cache
def _registry_cached() -> Any:
    import pint

    registry = pint.UnitRegistry(non_int_type=float)
    for definition in _CONSTRUCTION_UNITS:
        registry.define(definition)
    registry.formatter.default_format = "~"
    registry.formatter.default_sort_func = None  # "kip * ft", as written, not alphabetical
    return registry


def registry() -> Any:
    """The process's one pint registry (about 1 s to build, so built on first use)."""
    with _registry_lock:
        return _registry_cached()


def _normalise(text: str) -> str:
    text = text.strip().replace("·", "*").replace("×", "*").replace("−", "-").replace("^", "**")
    text = _FEET_INCHES.sub(lambda m: f"({m['feet']} ft + {_inches(m['inches'])} in)", text)
    text = _LONE_FEET.sub(r"\1 ft", text)
    return _LONE_INCHES.sub(r"\1 in", text)


def _inches(text: str) -> str:
    whole, _, fraction = text.partition(" ")
    if not fraction:
        return whole
    numerator, denominator = fraction.split("/")
    return repr(float(whole) + float(numerator) / float(denominator))


def _check_magnitude(value: Any) -> Any:
    magnitude = getattr(value, "magnitude", value)
    if isinstance(magnitude, (int, float)) and (math.isnan(magnitude) or abs(magnitude) > MAX_MAGNITUDE * 1e6):
        raise ValueError("the value is too large to evaluate (check the numbers and their units)")
    return value


def _power(left: Any, right: Any) -> Any:
    exponent = getattr(right, "magnitude", right)
    if getattr(right, "dimensionless", True) is False or not isinstance(exponent, (int, float)):
        raise ValueError("an exponent must be a plain number")
    if abs(exponent) > MAX_EXPONENT:
        raise ValueError(f"the exponent {exponent:g} is too large to evaluate (at most {MAX_EXPONENT})")
    try:
        return _check_magnitude(left ** float(exponent))
    except OverflowError:
        raise ValueError("the value is too large to evaluate (check the numbers and their units)") from None


def _guarded(operation: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def apply(left: Any, right: Any) -> Any:
        try:
            return _check_magnitude(operation(left, right))
        except OverflowError:
            raise ValueError("the value is too large to evaluate (check the numbers and their units)") from None
        except ZeroDivisionError:
            raise ValueError("it divides by zero") from None

    return apply


_BINARY = {
    "**": _power,
    "*": _guarded(lambda a, b: a * b),
    "": _guarded(lambda a, b: a * b),
    "/": _guarded(lambda a, b: a / b),
    "+": _guarded(lambda a, b: a + b),
    "-": _guarded(lambda a, b: a - b),
}
_UNARY = {"+": lambda x: x, "-": lambda x: -x}


def _token_value(token: Any) -> Any:
    import tokenize

    kind, text = token[0], token[1]
    ureg = registry()
    if kind == tokenize.NUMBER:
        if len(text) > 30:
            raise ValueError(f"the number {text[:20]}… is too long")
        return float(text.rstrip("jJ")) if not text.lower().endswith("j") else _refuse("complex numbers")
    if kind == tokenize.NAME:
        if text.lower() in ("inf", "infinity", "nan") or text.startswith("_"):
            raise ValueError(f"'{text}' is not a unit")
        try:
            return ureg.Quantity(1.0, ureg.parse_units(text))
        except Exception:  # noqa: BLE001 - pint raises several kinds for an unknown name
            raise ValueError(f"'{text}' is not a unit this application knows") from None
    raise ValueError(f"'{text}' cannot be part of a quantity")


def _refuse(what: str) -> Any:
    raise ValueError(f"{what} are not supported")


def parse_quantity(text: str, name: str = "quantity") -> Any:
    """A pint Quantity from model text such as "12 kN/m", `20'-6"` or "(6 m)**2 / 8"."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{name} is empty; give a number with its unit, such as '6 m'")
    if len(text) > MAX_QUANTITY_CHARS:
        raise ValueError(f"{name} is too long ({len(text)} characters; at most {MAX_QUANTITY_CHARS})")
    ureg = registry()
    normalised = _normalise(text)
    simple = _SIMPLE.match(normalised)
    try:
        if simple:  # "20 degC" needs this form: offset units cannot be multiplied
            units = ureg.parse_units(simple["unit"]) if simple["unit"] else ureg.dimensionless
            quantity = ureg.Quantity(float(simple["number"]), units)
        else:
            quantity = _evaluate(normalised)
        _check_magnitude(quantity)
    except ValueError as error:
        raise ValueError(f"{name} '{text}' could not be read: {error}") from None
    except (AssertionError, IndexError, SyntaxError):
        raise ValueError(f"{name} '{text}' is not a quantity: give a number with its unit, such as '6 m'") from None
    except Exception as error:  # noqa: BLE001 - pint's parse and dimension errors
        raise ValueError(f"{name} '{text}' could not be read: {_pint_message(error)}") from None
    return quantity if isinstance(quantity, ureg.Quantity) else ureg.Quantity(float(quantity))


def _evaluate(text: str) -> Any:
    from pint.pint_eval import build_eval_tree, tokenizer
    from pint.util import string_preprocessor

    tree = build_eval_tree(tokenizer(string_preprocessor(text)))
    return tree.evaluate(_token_value, bin_op=_BINARY, un_op=_UNARY)


def _pint_message(error: Exception) -> str:
    text = str(error)
    if "is not defined in the unit registry" in text:
        return text.replace("is not defined in the unit registry", "is not a unit this application knows")
    if "Cannot convert from" in text:
        return "it adds or compares quantities of different kinds (" + text.split("Cannot convert from ")[-1] + ")"
    return text or type(error).__name__


def parse_unit(text: str, name: str = "unit") -> Any:
    """Units alone, such as "kN*m" or "ft"."""
    if not text or not text.strip():
        raise ValueError(f"{name} is empty")
    if len(text) > MAX_QUANTITY_CHARS:
        raise ValueError(f"{name} is too long")
    try:
        return registry().parse_units(_normalise(text))
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
        names = {name for name, _ in quantity.unit_items()}
        if names:
            systems.add("US" if names <= _US_UNITS else "SI")
    return "US" if systems == {"US"} else "SI"


_CONVENTIONAL: dict[str, tuple[str, str]] = {
    "[force]": ("kN", "kip"),
    "[force] / [length]": ("kN/m", "kip/ft"),
    "[force] * [length]": ("kN*m", "kip*ft"),
    "[length]": ("mm", "in"),
    "[length] ** 2": ("mm**2", "in**2"),
    "[length] ** 3": ("m**3", "yd**3"),
    "[length] ** 4": ("mm**4", "in**4"),
    "[mass]": ("kg", "lb"),
    "[mass] / [length]": ("kg/m", "lb/ft"),
    "[mass] / [length] ** 3": ("kg/m**3", "pcf"),
}


def conventional(quantity: Any, system: System, prefer: str | None = None) -> Any:
    """The quantity in the units engineers of that system expect (or in `prefer`)."""
    if prefer:
        return quantity.to(parse_unit(prefer))
    if quantity.check("[pressure]"):
        small, large = ("kPa", "MPa") if system == "SI" else ("psi", "ksi")
        converted = quantity.to(large)
        return converted if abs(converted.magnitude) >= 1 else quantity.to(small)
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
    """ "54 kN * m": what pint parses back, rounded for display."""
    if _plain_number(quantity):
        return significant(float(quantity.to("dimensionless").magnitude), figures)
    return f"{significant(float(quantity.magnitude), figures)} {format(quantity.units, '~')}"


def precise(quantity: Any) -> str:
    """The same, at full precision (for the stored record)."""
    if _plain_number(quantity):
        return repr(float(quantity.to("dimensionless").magnitude))
    return f"{float(quantity.magnitude)!r} {format(quantity.units, '~')}"


def _plain_number(quantity: Any) -> bool:
    """Dimensionless with no unit to show (unlike an angle in degrees, which keeps "deg")."""
    return bool(quantity.dimensionless) and format(quantity.units, "~") in ("", "dimensionless")
