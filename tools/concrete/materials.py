"""Concrete, steel, codes, column sizes and reinforcement ratios as engineers write them.

Concrete "4000 psi", "fc' = 4 ksi", "fck = 30 MPa", "C30/37", "C30"; steel "Grade 60", "fy = 60 ksi", "460 MPa",
"B500B", "B450C"; a column "16 in" (square) or "12 x 36 in"; a reinforcement ratio "0.0085, 0.0048" or "0.85 %".
Each is read or refused with one sentence: a class that does not exist ("C30/35"), a number without a unit
("4000") or a strength no code covers is never read as something else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tools.codes.en1992.materials import CLASSES
from tools.units.reading import parse_quantity, require
from tools.units.showing import System, system_of

Code = Literal["ACI318-19", "EN1992", "EN1992-UK"]
PSI = 6894.757293168361
KSI = 1000 * PSI
MPA = 1e6
_PREFIX = re.compile(r"^(?:f\s*'?\s*c\s*'?\s*k?|fck|fy|fyk|f_?y|f_?ck)\s*[:=]\s*", re.IGNORECASE)
_CLASS = re.compile(r"^C\s*(\d+)\s*(?:/\s*(\d+))?$", re.IGNORECASE)
_ASTM_GRADE = re.compile(r"^(?:A\s*(?:615|706)M?\s*)?(?:gr(?:ade)?\.?\s*)(\d+)$", re.IGNORECASE)
_EN_GRADE = re.compile(r"^B\s*(\d{3})\s*([A-Z])?$", re.IGNORECASE)
_BARE = re.compile(r"^[-+]?\d+(?:\.\d+)?$")
US_GRADES = (40, 60, 75, 80, 100)  # ASTM A615 and A706 grades, ksi
SI_GRADES = (280, 420, 520, 550, 690)  # their A615M designations, MPa
EN_GRADES = (400, 450, 500, 550, 600)  # EN 1992-1-1 Annex C: fyk 400 to 600 MPa


@dataclass(frozen=True)
class Concrete:
    """A concrete: its specified (cylinder) strength f'c or fck in Pa, its EN class when one was named."""

    text: str
    strength: float
    klass: str | None
    system: System


@dataclass(frozen=True)
class Steel:
    """A reinforcing steel: its yield strength fy or fyk in Pa and the grade as written in results."""

    text: str
    yield_strength: float
    grade: str
    system: System


def read_code(code: str) -> Code:
    """ "ACI318-19", "EN1992" or "EN1992-UK" from the ways engineers name them."""
    key = re.sub(r"[\s_.:()-]", "", code.upper())
    if key.startswith("ACI318") or key == "ACI":
        return "ACI318-19"
    if key.startswith(("EN1992", "EC2", "EUROCODE2")):
        return "EN1992-UK" if key.endswith(("UK", "UKNA", "NA")) else "EN1992"
    raise ValueError(
        f"code '{code}' is not one these tools check: give 'ACI318-19', 'EN1992' (recommended values) or "
        "'EN1992-UK' (UK National Annex)"
    )


def read_concrete(text: str, name: str = "concrete") -> Concrete:
    """A concrete strength or class (see the module's docstring)."""
    written = " ".join(str(text).split())
    stripped = _PREFIX.sub("", written)
    klass = _CLASS.match(stripped)
    if klass:
        return _class(written, klass)
    if _BARE.match(stripped):
        raise ValueError(
            f"{name} '{written}' has no unit: write '{stripped} psi', 'fck = {stripped} MPa' or a class such as "
            "'C30/37'"
        )
    strength = require(stripped, name, "pressure or stress")
    pascals = float(strength.to("Pa").magnitude)
    if not 8 * MPA <= pascals <= 120 * MPA:
        raise ValueError(
            f"{name} '{written}' is not a structural concrete strength (8 to 120 MPa, 1,200 to 17,000 psi)"
        )
    known = [k for k, row in CLASSES.items() if abs(row[0] * MPA - pascals) < 1e3]
    return Concrete(written, pascals, known[0] if known else None, system_of(strength))


def _class(written: str, found: re.Match[str]) -> Concrete:
    cylinder, cube = int(found.group(1)), found.group(2)
    named = f"C{cylinder}/{CLASSES[f'C{cylinder}'][1]}" if f"C{cylinder}" in CLASSES else None
    if named is None or (cube is not None and named != f"C{cylinder}/{int(cube)}"):
        listed = ", ".join(f"C{c}/{row[1]}" for c, row in ((k[1:], v) for k, v in CLASSES.items()))
        raise ValueError(f"concrete '{written}' is not an EN 206 strength class; the classes are {listed}")
    return Concrete(written, CLASSES[f"C{cylinder}"][0] * MPA, named, "SI")


def read_steel(text: str, name: str = "steel") -> Steel:
    """A reinforcing steel by grade or yield strength (see the module's docstring)."""
    written = " ".join(str(text).split())
    stripped = _PREFIX.sub("", written)
    graded = _ASTM_GRADE.match(stripped)
    if graded:
        return _astm_grade(written, int(graded.group(1)))
    european = _EN_GRADE.match(stripped)
    if european:
        return _en_grade(written, int(european.group(1)), european.group(2))
    if _BARE.match(stripped):
        raise ValueError(
            f"{name} '{written}' has no unit: write 'Grade 60', 'fy = {stripped} ksi', '{stripped} MPa' or 'B500B'"
        )
    strength = require(stripped, name, "pressure or stress")
    pascals = float(strength.to("Pa").magnitude)
    if not 275 * MPA <= pascals <= 690 * MPA:
        raise ValueError(
            f"{name} '{written}' is not a reinforcing steel these tools cover (fy of 40 to 100 ksi, 275 to 690 MPa)"
        )
    system = system_of(strength)
    return Steel(written, pascals, f"fy = {stripped}", system)


def _astm_grade(written: str, grade: int) -> Steel:
    if grade in US_GRADES:
        return Steel(written, grade * KSI, f"Grade {grade}", "US")
    if grade in SI_GRADES:
        return Steel(written, grade * MPA, f"Grade {grade}", "SI")
    raise ValueError(
        f"steel '{written}' is not an ASTM A615 or A706 grade: Grade {', '.join(map(str, US_GRADES))} (ksi) or "
        f"{', '.join(map(str, SI_GRADES))} (MPa)"
    )


def _en_grade(written: str, strength: int, ductility: str | None) -> Steel:
    if strength not in EN_GRADES or (ductility or "A").upper() not in "ABC":
        raise ValueError(f"steel '{written}' is not a grade of EN 1992-1-1 Annex C (B400 to B600, such as B500B)")
    grade = f"B{strength}{(ductility or '').upper()}"
    return Steel(written, strength * MPA, grade, "SI")


def read_ratio(text: str, name: str = "reinforcement_ratio") -> tuple[float, float]:
    """ρ in two directions from "0.0085, 0.0048" (one value: both), each a plain number or a percentage."""
    parts = [part.strip() for part in str(text).split(",") if part.strip()]
    if not 1 <= len(parts) <= 2:
        raise ValueError(f"{name} '{text}' should be one ratio or two, such as '0.0085, 0.0048' or '0.85 %'")
    ratios = []
    for part in parts:
        value = parse_quantity(part, name)
        if not value.dimensionless:
            raise ValueError(f"{name} '{part}' is a ratio: give a plain number such as 0.0085, or a percentage")
        ratio = float(value.to("dimensionless").magnitude)
        if not 0 < ratio <= 0.1:
            raise ValueError(f"{name} '{part}' is not a reinforcement ratio (more than 0 and at most 0.1, 10 %)")
        ratios.append(ratio)
    return ratios[0], ratios[-1]


def read_column(text: str, name: str = "column") -> tuple[float, float, System]:
    """(c1, c2) in m and the units' system from "16 in" (square), "12 x 36 in" or "300 x 450 mm"."""
    parts = [part.strip() for part in re.split(r"\s*(?:x|×|\*|by)\s*", str(text).strip(), flags=re.IGNORECASE)]
    if not 1 <= len(parts) <= 2 or not all(parts):
        raise ValueError(f"{name} '{text}' should be a size such as '16 in' (square) or '12 x 36 in'")
    unit = re.sub(r"^[-+]?[\d.]+\s*", "", parts[-1])
    if not unit:
        raise ValueError(f"{name} '{text}' has no unit: write '{parts[0]} in' or '{text} mm'")
    sides = [require(part if not _BARE.match(part) else f"{part} {unit}", name, "length") for part in parts]
    c1, c2 = (float(side.to("m").magnitude) for side in (sides * 2)[:2])
    if not (0.05 <= c1 <= 5 and 0.05 <= c2 <= 5):
        raise ValueError(f"{name} '{text}' is not a column size (sides of 50 mm to 5 m)")
    return c1, c2, system_of(*sides)
