"""What the column and beam-column checks read from their arguments: the grade a family is rolled in, lengths.

AISC shapes default to the material AISC Manual Table 2-4 prefers for their family (A992
for W; A572 Gr. 50 for M and HP; A36 for S, C and MC; A500 Gr. C for HSS, 50 ksi
rectangular and 46 ksi round; A53 Gr. B, 35 ksi, for pipe). EN 1993 checks default to S355
with fy from Table 3.1 by the thickest plate.
"""

from __future__ import annotations

import re
from typing import Any

from tools.codes.en1993_1_1.resistance import yield_strength
from tools.shapes.column_section import ColumnSection
from tools.steel.sections_and_checks import KSI, _grade_aisc, _grade_en
from tools.units.reading import require

FAMILY_GRADES: dict[str, tuple[str, float]] = {
    "W": ("A992", 50.0),
    "M": ("A572 Gr. 50", 50.0),
    "HP": ("A572 Gr. 50", 50.0),
    "S": ("A36", 36.0),
    "C": ("A36", 36.0),
    "MC": ("A36", 36.0),
    "HSS": ("A500 Gr. C", 50.0),
    "HSS_R": ("A500 Gr. C", 46.0),
    "PIPE": ("A53 Gr. B", 35.0),
}
# ASTM A500 (rectangular, round) and A53 Gr. B yield stresses in ksi (AISC Manual Table 2-4)
HOLLOW_GRADES = {"A500C": (50.0, 46.0), "A500B": (46.0, 42.0), "A53B": (35.0, 35.0)}


def aisc_grade(section: ColumnSection, grade: str | None) -> tuple[str, float]:
    """(name, Fy in Pa) for an AISC check: the family's usual grade, or the one given."""
    if grade is None:
        name, ksi = FAMILY_GRADES.get(section.family, ("A992", 50.0))
        return name, ksi * KSI
    key = re.sub(r"[\s.\-]|GR(ADE)?", "", grade.upper())
    key = {"A500": "A500C", "A53": "A53B"}.get(key, key)
    if key in HOLLOW_GRADES:
        rectangular, round_ = HOLLOW_GRADES[key]
        ksi = round_ if section.kind == "round" and key != "A53B" else rectangular
        return f"{key[:-1]} Gr. {key[-1]}", ksi * KSI
    return _grade_aisc(grade)


def en_grade(section: ColumnSection, grade: str | None, tool: str, annex: str | None = None) -> tuple[str, float]:
    """(name, fy in Pa) for an EN 1993 check of a rolled I or H section (with `annex` "UK", fy by thickness from
    BS EN 10025-2)."""
    if section.member is None:
        raise ValueError(
            f"{tool} checks rolled I and H sections to EN 1993-1-1 (IPE, HE, UB and W shapes); "
            f"{section.designation} is a {section.family} shape: check it with code='AISC360-LRFD' or 'AISC360-ASD'"
        )
    name, given = _grade_en(grade)
    return name, given if given is not None else yield_strength(name, section.member, annex)


def annex_note(annex: str | None, code: str, grade: str) -> list[str]:
    """What the result says of the National Annex it was given."""
    if annex is None:
        return []
    if code != "EN1993":
        return ["national_annex is used by EN1993 only: AISC takes Fy of the ASTM grade."]
    return [f"UK National Annex: fy of {grade.split(' ')[0]} by the thickest plate from BS EN 10025-2 (NA.2.4); "
            "γM0 = γM1 = 1.0 as recommended."]  # fmt: skip


def lengths(length: str, length_weak: str | None, unbraced: str | None = None) -> tuple[Any, Any, Any]:
    """The major-axis and minor-axis effective lengths and the laterally unbraced length, as quantities."""
    major = require(length, "length", "length")
    minor = require(length_weak, "length_weak", "length", positive=False) if length_weak else major
    if minor.magnitude <= 0:
        raise ValueError(
            f"length_weak = {length_weak.strip() if length_weak else ''} reads as braced continuously about the weak "
            "axis, which this check does not model (torsional buckling then depends on what the bracing restrains); "
            "give the largest distance between the braces that stop the column moving and twisting, such as '2 ft'"
        )
    braced = require(unbraced, "unbraced_length", "length") if unbraced else minor
    return major, minor, braced
