"""Reading quantities as engineers write them: "6 m", "12 kN/m", `20'-6"`, "3/16 in", "12 kN/m * (6 m)**2 / 8".

The text is preprocessed (feet-and-inches, "per", superscripts, "kip-ft", fractions such as "3/16 in" and
"1-1/8 in"), tokenised, checked against an allowlist (numbers, names and + − × ÷ ** and parentheses),
grouped so that a number binds to the units written after it, its unit names read as engineers mean them
(`tools.units.names`: "k" is a kip, "KN/M" kN/m, "K" refused), and evaluated by pint's expression tree with
our operators: floats only, bounded exponents, overflow and division by zero refused. The quantity is then
checked for its kind and range (`require`).
"""

from __future__ import annotations

import math
import re
import tokenize
from collections.abc import Callable
from typing import Any

from tools.units import registry
from tools.units.names import engineers_units, units_named

MAX_QUANTITY_CHARS = 200
MAX_EXPONENT = 64
MAX_MAGNITUDE = 1e15

_FEET_INCHES = re.compile(
    r"(?P<feet>\d+(?:\.\d+)?)\s*(?:'|ft\b|feet\b|foot\b)\s*-?\s*(?P<inches>\d+(?:\.\d+)?(?:\s+\d+/\d+)?)\s*(?:\"|in\b|inch\b|inches\b)",
    re.IGNORECASE,
)
_HYPHENATED_UNITS = re.compile(r"(?<=[A-Za-z])-(?=[A-Za-z])")  # "kip-ft", "kN-m": a product of units
_DOTTED_UNITS = re.compile(r"(?<=[A-Za-z])\.(?=[A-Za-z])")  # "kN.m": a product of units
_ABBREVIATION_STOP = re.compile(r"(?<=[A-Za-z])\.\s*$")  # "35 ft.": the abbreviation's full stop
# "N/mm2", "kN/m2", "cm4": a power written without its sign, after a length unit
_BARE_POWER = re.compile(r"\b(mm|cm|m|in|ft|yd)([234])\b")
_LONE_FEET = re.compile(r"(\d+(?:\.\d+)?)\s*'")
_LONE_INCHES = re.compile(r"(\d+(?:\.\d+)?)\s*\"")
_MARKS = str.maketrans({"′": "'", "’": "'", "″": '"', "”": '"'})  # primes and curly quotes for feet and inches
_SIMPLE = re.compile(  # a number and one unit name: "20 degC" (offset units cannot be multiplied)
    r"^\s*(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(?P<unit>[A-Za-zµΩ°][A-Za-z_µΩ°]*)?\s*$"
)


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


def normalise(text: str) -> str:
    """The text in the notation the parser reads: products, powers, percent, feet and inches (`20'-6"`, and
    the primes and curly quotes a word processor makes of them, `20′-6″`, `3/4”`) as units."""
    text = text.strip().replace("·", "*").replace("×", "*").replace("−", "-").replace("^", "**")
    text = text.replace("%", " percent ").translate(_MARKS)
    text = _FEET_INCHES.sub(lambda m: f"({m['feet']} ft + {_inches(m['inches'])} in)", text)
    text = _LONE_FEET.sub(r"\1 ft", text)
    text = _LONE_INCHES.sub(r"\1 in", text)
    text = _ABBREVIATION_STOP.sub("", _DOTTED_UNITS.sub("*", text))
    return _BARE_POWER.sub(r"\1**\2", _HYPHENATED_UNITS.sub("*", text))


def _inches(text: str) -> str:
    whole, _, fraction = text.partition(" ")
    if not fraction:
        return whole
    numerator, denominator = fraction.split("/")
    return repr(float(whole) + float(numerator) / float(denominator))


def check_magnitude(value: Any) -> Any:
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
        return check_magnitude(left ** float(exponent))
    except OverflowError:
        raise ValueError("the value is too large to evaluate (check the numbers and their units)") from None


def _guarded(operation: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def apply(left: Any, right: Any) -> Any:
        try:
            return check_magnitude(operation(left, right))
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


def _token_value(token: Any, ureg: Any) -> Any:
    kind, text = token[0], token[1]
    if kind == tokenize.NUMBER:
        if len(text) > 30:
            raise ValueError(f"the number {text[:20]}… is too long")
        return float(text.rstrip("jJ")) if not text.lower().endswith("j") else _refuse("complex numbers")
    if kind == tokenize.NAME:
        if text.lower() in ("inf", "infinity", "nan") or text.startswith("_"):
            raise ValueError(f"'{text}' is not a unit")
        return ureg.Quantity(1.0, units_named(text, ureg))
    raise ValueError(f"'{text}' cannot be part of a quantity")


def _refuse(what: str) -> Any:
    raise ValueError(f"{what} are not supported")


_OPERATORS = frozenset({"+", "-", "*", "/", "**", "(", ")"})
_SKIPPED = frozenset({tokenize.NEWLINE, tokenize.NL})


_IDENTIFIER = r"[_a-zA-Z][_a-zA-Z0-9]*"
_WORDS = [
    (re.compile(rf"({_IDENTIFIER}) squared"), r"\1**2"),
    (re.compile(rf"({_IDENTIFIER}) cubed"), r"\1**3"),
    (re.compile(rf"cubic ({_IDENTIFIER})"), r"\1**3"),
    (re.compile(rf"square ({_IDENTIFIER})"), r"\1**2"),
    (re.compile(rf"sq ({_IDENTIFIER})"), r"\1**2"),
]
_SUPERSCRIPT = re.compile(r"(⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_NUMBER_THEN_LETTER = re.compile(r"(\d)(?=[a-df-zA-DF-Z_µΩ]|[eE][a-zA-Z])")
_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3}(?:,\d{3})+)(?![\d,])")
# "3/16 in" is three sixteenths of an inch, and "1 3/8 in" or "1-3/8 in" one and three eighths: a fraction
# written without spaces is one number (not 3 divided by 16 inches); a power or a product before it stays.
_FRACTION_BEFORE = r"(?<![\w.*^)/])"
_MIXED_FRACTION = re.compile(_FRACTION_BEFORE + r"(\d+)(?:\s+|-)(\d+)/([1-9]\d*)(?![\d.])(?=\s*[A-Za-z_µΩ°])")
_FRACTION = re.compile(_FRACTION_BEFORE + r"(\d+)/([1-9]\d*)(?![\d.])")


def _preprocess(text: str) -> str:
    """pint's spellings ("per", "squared", "cubic", m², 1,200), without its implicit "*" (see below)."""
    text = _THOUSANDS.sub(lambda m: m.group(1).replace(",", ""), text)
    if "," in text:
        raise ValueError("a comma is not part of a quantity (give one value; write 1200 without separators)")
    text = _MIXED_FRACTION.sub(lambda m: repr(int(m[1]) + int(m[2]) / int(m[3])), text)
    text = _FRACTION.sub(lambda m: repr(int(m[1]) / int(m[2])), text)
    text = text.replace("°", "degree").replace(" per ", "/")
    for pattern, replacement in _WORDS:
        text = pattern.sub(replacement, text)
    text = _SUPERSCRIPT.sub(lambda m: "**" + m.group(1).translate(_SUPERSCRIPT_DIGITS), text)
    return _NUMBER_THEN_LETTER.sub(r"\1 ", text)


def _checked_tokens(text: str) -> list[tokenize.TokenInfo]:
    """The tokens of `text`, refusing anything but numbers, names and + - * / ** ( )."""
    from pint.pint_eval import tokenizer

    tokens = []
    try:
        for token in tokenizer(_preprocess(text)):
            allowed = token.type in (tokenize.NUMBER, tokenize.NAME, tokenize.ENDMARKER)
            if allowed or (token.type == tokenize.OP and token.string in _OPERATORS):
                tokens.append(token)
            elif token.type not in _SKIPPED:
                raise ValueError(f"'{token.string.strip()[:20]}' cannot be part of a quantity")
    except (tokenize.TokenError, SyntaxError):
        raise ValueError("it is not a well-formed quantity (check the parentheses)") from None
    return tokens


def _group_implicit_products(tokens: list[tokenize.TokenInfo]) -> list[tokenize.TokenInfo]:
    """ "100 kN / 4 m**2" means (100 kN) / (4 m**2): a number and the units written after it belong together.

    pint binds an implicit product more loosely than "/", which would read it as
    100 kN / 4 × m², so each "number[**n] unit[**n] unit[**n] …" run is put in parentheses.
    """
    grouped: list[tokenize.TokenInfo] = []
    index = 0
    while index < len(tokens):
        end = index + 1
        if tokens[index].type == tokenize.NUMBER:
            end = _skip_powers(tokens, end)
            while end < len(tokens) and tokens[end].type == tokenize.NAME:
                end = _skip_powers(tokens, end + 1)
        run = tokens[index:end]
        grouped += [_op("("), *run, _op(")")] if end - index > 1 else run
        index = end
    return grouped


def _skip_powers(tokens: list[tokenize.TokenInfo], at: int) -> int:
    """The index after any "** n" or "** -n" that follows position `at`."""
    while at + 1 < len(tokens) and tokens[at].string == "**":
        step = 2 if tokens[at + 1].string == "-" else 1
        if at + step >= len(tokens) or tokens[at + step].type != tokenize.NUMBER:
            break
        at += step + 1
    return at


def _op(text: str) -> tokenize.TokenInfo:
    return tokenize.TokenInfo(tokenize.OP, text, (1, 0), (1, 0), text)


def evaluate(text: str, ureg: Any) -> Any:
    from pint.pint_eval import build_eval_tree

    tokens = _group_implicit_products(_checked_tokens(text))
    if len(tokens) <= 1:
        raise ValueError("it holds no number")
    tree = build_eval_tree(tokens)
    return tree.evaluate(lambda token: _token_value(token, ureg), bin_op=_BINARY, un_op=_UNARY)


def pint_message(error: Exception) -> str:
    text = str(error)
    if "is not defined in the unit registry" in text:
        return text.replace("is not defined in the unit registry", "is not a unit this application knows")
    if "Cannot convert from" in text:
        return "it adds or compares quantities of different kinds (" + text.split("Cannot convert from ")[-1] + ")"
    if "offset unit" in text.lower():
        return "temperatures such as °C can be converted but not added or multiplied; use kelvin or delta_degC"
    return text.split(" See http")[0].split("\nSee http")[0] or type(error).__name__
