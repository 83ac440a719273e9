"""Unit names as structural engineers write them, read as they mean them before pint sees them.

pint reads "k" as Boltzmann's constant, "kn" as knots, "M" as molar, "PA" as petaampere and
"kNm" as nonsense; engineers mean kip, kN, m, Pa and kN·m. A name pint does not know as it is
written ("KN", "FT", "Kips", "mpa") is read in the case engineers use. A name that could be
two different units ("K": kips or kelvin) is refused with a sentence, never read as either.
"""

from __future__ import annotations

import re
from typing import Any

# What these names mean in an engineer's text, whatever pint would make of them.
MEANT = {
    "k": "kip",
    "kn": "kN",
    "Kn": "kN",
    "kNm": "kN * m",
    "Nm": "N * m",
    "MNm": "MN * m",
    "M": "m",
    "MM": "mm",
    "PA": "Pa",
}
AMBIGUOUS = {
    "K": "'K' could be kips or kelvin; write 'kip' (or 'k') or 'kelvin'",
    "T": "'T' could be tonnes, tons or tesla; write 'tonne', 'ton' or 'tesla'",
    "MT": "'MT' could be metric tonnes or megatesla; write 'tonne' or 'megatesla'",
    "t": "'t' could be tonnes of mass or tonnes-force (9.81 kN each); write '50 tonne' for a mass or '490.3 kN' "
    "for a force",
}
# Names pint does not know in the case written, by their upper-case spelling.
BY_UPPER = {
    "KN": "kN", "KNM": "kN * m", "KNMM": "kN * mm", "NMM": "N * mm", "MNM": "MN * m",
    "KIP": "kip", "KIPS": "kip", "KLF": "klf", "KSF": "ksf", "KSI": "ksi",
    "LB": "lb", "LBS": "lb", "LBF": "lbf", "PSI": "psi", "PSF": "psf", "PCF": "pcf", "PLF": "plf",
    "FT": "ft", "FEET": "ft", "FOOT": "ft", "IN": "inch", "INCH": "inch", "INCHES": "inch", "YD": "yd",
    "CM": "cm", "KM": "km", "KPA": "kPa", "MPA": "MPa", "GPA": "GPa", "KG": "kg", "KGF": "kgf",
    "DEG": "degree", "TONNE": "tonne", "TONNES": "tonne",
}  # fmt: skip
_NAME = re.compile(r"[A-Za-z_µΩ°][A-Za-z_µΩ°0-9]*")


def unit_text(name: str, ureg: Any) -> str:
    """The pint expression an engineer's unit name means: "k" → "kip", "KN" → "kN", "kNm" → "kN * m"."""
    if name in AMBIGUOUS:
        raise ValueError(AMBIGUOUS[name])
    if name in MEANT:
        return MEANT[name]
    try:
        ureg.parse_units(name)
    except Exception:  # noqa: BLE001 - pint raises several kinds for an unknown name
        if name.upper() in BY_UPPER:
            return BY_UPPER[name.upper()]
        raise ValueError(f"'{name}' is not a unit this application knows") from None
    return name


def units_named(name: str, ureg: Any) -> Any:
    """The pint units of one name as an engineer means it."""
    return ureg.parse_units(unit_text(name, ureg))


def engineers_units(text: str, ureg: Any) -> str:
    """A units expression ("KN/M", "kip*FT") with every name read as an engineer means it ("(kN)/(m)")."""
    return _NAME.sub(lambda name: f"({unit_text(name.group(), ureg)})", text)
