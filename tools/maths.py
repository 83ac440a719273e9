"""Basic arithmetic tools, kept from the first version of the product."""

from __future__ import annotations

import math

from tools.catalogue import tool


def _finite(value: float, operation: str) -> float:
    if not math.isfinite(value):
        raise ValueError(f"the result of {operation} is too large to represent")
    return value


@tool("calculation")
def add(a: float, b: float) -> float:
    """Add two numbers.

    Args:
        a: The first number.
        b: The second number.
    """
    return _finite(a + b, "the addition")


@tool("calculation")
def subtract(a: float, b: float) -> float:
    """Subtract the second number from the first (a - b).

    Args:
        a: The number to subtract from.
        b: The number to subtract.
    """
    return _finite(a - b, "the subtraction")


@tool("calculation")
def multiply(a: float, b: float) -> float:
    """Multiply two numbers.

    Args:
        a: The first factor.
        b: The second factor.
    """
    return _finite(a * b, "the multiplication")


@tool("calculation")
def divide(a: float, b: float) -> float:
    """Divide the first number by the second (a / b).

    Args:
        a: The dividend.
        b: The divisor; must not be zero.
    """
    if b == 0:
        raise ValueError("cannot divide by zero")
    return _finite(a / b, "the division")


@tool("calculation")
def sqrt(x: float) -> float:
    """Square root of a number.

    Args:
        x: The number; must be zero or positive.
    """
    if x < 0:
        raise ValueError(f"cannot take the square root of a negative number ({x:g})")
    return math.sqrt(x)


@tool("calculation")
def power(base: float, exponent: float) -> float:
    """Raise a number to a power (base ** exponent).

    Args:
        base: The base.
        exponent: The exponent.
    """
    if base == 0 and exponent < 0:
        raise ValueError("zero cannot be raised to a negative power")
    if base < 0 and not float(exponent).is_integer():
        raise ValueError("a negative base needs a whole-number exponent for a real result")
    try:
        return _finite(math.pow(base, exponent), "the power")
    except OverflowError:
        raise ValueError("the result of the power is too large to represent") from None
