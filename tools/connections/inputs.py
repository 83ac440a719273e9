"""What the connection checks read from the model's text: sizes written as fractions of an inch, angles,
unfactored loads and their combination, and the hole types of a bolted joint."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Literal

from tools.steel.sections_and_checks import COMBINATION_NAMES, COMBINATIONS, CodeName
from tools.units import registry
from tools.units.reading import parse_quantity, require
from tools.units.showing import System, conventional, show

Hole = Literal["standard", "oversized", "short-slotted transverse", "short-slotted parallel", "long-slotted transverse",
               "long-slotted parallel"]  # fmt: skip


def length(text: str, name: str) -> Any:
    """A length as engineers write a weld or bolt size: "5/16 in", "1-1/8 in", '3/4"', "0.75 in", "8 mm" (the
    fractions and inch marks read as every quantity is, by `tools.units.reading`)."""
    if not isinstance(text, str):
        raise ValueError(f"{name} must be a length with its unit, such as '5/16 in' or '8 mm'")
    try:
        return require(text, name, "length")
    except ValueError as error:
        if "dimensionless" in str(error):
            raise ValueError(f"{name} needs its unit: '{text.strip()} in' or '{text.strip()} mm'?") from None
        raise


def angle(text: str) -> float:
    """The angle between the load and the weld's axis in radians, from "60 deg" or "60°" (0 to 90°)."""
    quantity = _angle_quantity(text)
    degrees = float(quantity.to("degree").magnitude)
    if not 0 <= degrees <= 90:
        raise ValueError(f"angle must be from 0 deg (load along the weld) to 90 deg (across it); got {text.strip()}")
    return math.radians(degrees)


def _angle_quantity(text: str) -> Any:
    quantity = parse_quantity(text, "angle")
    if quantity.dimensionless and format(quantity.units, "~") in ("", "dimensionless") and quantity.magnitude != 0:
        raise ValueError(f"angle needs its unit: '{text.strip()} deg'?")
    if not quantity.dimensionless:
        raise ValueError(f"angle must be an angle such as '60 deg'; got {text.strip()}")
    return quantity


def force(text: str, name: str) -> Any:
    """An unfactored force, zero or more."""
    quantity = require(text, name, "force", positive=False)
    if quantity.magnitude < 0:
        raise ValueError(f"{name} must not be negative; give the size of the force, such as '33 kip'")
    return quantity


def count(value: int, name: str, what: str) -> int:
    if value < 1:
        raise ValueError(f"{name} must be a whole number of {what}, 1 or more; got {value}")
    return value


@dataclass(frozen=True)
class Combined:
    """A force combined from its dead and live parts: the value in N and how it was reached, for the record."""

    newtons: float
    text: str
    system: System


def combine(code: CodeName, dead: Any, live: Any, system: System, symbol: str) -> Combined:
    """1.2D + 1.6L (LRFD), D + L (ASD) or 1.35G + 1.5Q (EN 1990 eq. 6.10), as the beam check combines them."""
    gamma_dead, gamma_live = COMBINATIONS[code]
    newtons = gamma_dead * dead.to("N").magnitude + gamma_live * live.to("N").magnitude
    total = conventional(newtons * registry().N, system)
    text = f"{symbol} = {gamma_dead:g} × {show(dead)} + {gamma_live:g} × {show(live)} = {show(total)}"
    return Combined(newtons, text, system)


def combination_name(code: CodeName) -> str:
    return COMBINATION_NAMES[code]


_HOLES: dict[str, Hole] = {
    "standard": "standard", "std": "standard", "normal": "standard", "round": "standard",
    "oversized": "oversized", "oversize": "oversized", "ovs": "oversized",
    "shortslottedtransverse": "short-slotted transverse", "shortslottedperpendicular": "short-slotted transverse",
    "ssltransverse": "short-slotted transverse", "sslperpendicular": "short-slotted transverse",
    "shortslotted": "short-slotted parallel", "ssl": "short-slotted parallel", "slotted": "long-slotted parallel",
    "shortslottedparallel": "short-slotted parallel", "sslparallel": "short-slotted parallel",
    "longslottedtransverse": "long-slotted transverse", "longslottedperpendicular": "long-slotted transverse",
    "lsltransverse": "long-slotted transverse", "lslperpendicular": "long-slotted transverse",
    "longslotted": "long-slotted parallel", "lsl": "long-slotted parallel",
    "longslottedparallel": "long-slotted parallel", "lslparallel": "long-slotted parallel",
}  # fmt: skip


def hole_type(text: str) -> tuple[Hole, bool]:
    """The hole type, and whether its orientation to the load was assumed (the less favourable one)."""
    key = re.sub(r"[^a-z]", "", text.lower().replace("holes", "").replace("hole", "").replace("to the load", ""))
    key = re.sub(r"slot(?:ted|s)?", "slotted", key)
    if key not in _HOLES:
        raise ValueError(
            f"hole {text!r} is not one this check knows: 'standard', 'oversized', 'short-slotted transverse', "
            "'short-slotted parallel', 'long-slotted transverse' or 'long-slotted parallel'"
        )
    found = _HOLES[key]
    return found, found != "standard" and found != "oversized" and not key.endswith(
        ("transverse", "perpendicular", "parallel")
    )
