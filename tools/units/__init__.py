"""Quantities with units, as engineers write them and as they read them.

One lazily built pint registry (here, with the construction units engineers use: psf, plf, klf, ksf, pcf);
`reading` takes quantities and units from the model's text without `eval` (feet and inches, fractions,
"per", superscripts), with `names` reading unit names as engineers mean them ("k" is a kip, "KN/M" kN/m);
`showing` writes results in the units engineers of each system expect, in their notation ("54 kN·m", "10 m³").
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

_CONSTRUCTION_UNITS = (
    "psf = pound_force / foot ** 2",
    "pcf = pound_force / foot ** 3",  # unit weight, as engineers use it
    "plf = pound_force / foot",
    "klf = kip / foot",
    "ksf = kip / foot ** 2",
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
