"""What `bolt_check` reads from the model's text beyond sizes and loads: a grade with its suffix ("A325-SC" is
slip-critical, "A325-X" has the threads excluded), a diameter written with its class ("M20 8.8"), shear planes in
words ("double"), a slip class ("SC-A")."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ASTM_SUFFIX = re.compile(
    r"^(?P<grade>(?:ASTM\s*)?(?:F3125\s*)?(?:A325M?|A490M?|GROUP\s*[AB]|GROUP\s*1[25]0|GR\.?\s*1[25]0))"
    r"\s*[-_/ ]?\s*(?P<suffix>SC|N|X)?\s*(?:[-_/ ]?\s*(?:CLASS\s*)?(?P<slip>[AB]))?\s*$"
)
_METRIC_WITH_CLASS = re.compile(r"^\s*(M\s*\d+)\s*[-/ ]\s*(?:CLASS\s*|GRADE\s*|GR\.?\s*)?(\d{1,2}[.,]\d)\s*$", re.I)
PLANES = {"single": 1, "one": 1, "1": 1, "double": 2, "two": 2, "2": 2, "triple": 3, "three": 3, "3": 3}


@dataclass
class BoltText:
    """The diameter and grade as the checks take them, and what the grade's suffix said."""

    diameter: str
    grade: str
    slip_critical: bool = False
    slip_class: str | None = None
    threads_excluded: bool | None = None
    notes: list[str] = field(default_factory=list)


def read_bolt(diameter: str, grade: str) -> BoltText:
    """ "M20 8.8" as the diameter with its class; "A325-SC", "A325-SC-B", "A325-X", "A325-N" as the grade and what
    its suffix says; anything else as it was written, for the grade tables to read or refuse."""
    found = BoltText(diameter, grade)
    with_class = _METRIC_WITH_CLASS.match(diameter or "")
    if with_class:
        size, klass = with_class.group(1).replace(" ", "").upper(), with_class.group(2).replace(",", ".")
        given = grade.strip().lower().removeprefix("class").strip().replace(",", ".")
        if given and given != klass:
            raise ValueError(f"diameter {diameter!r} names class {klass} but grade is {grade!r}; give one class")
        found.diameter, found.grade = size, klass
    match = _ASTM_SUFFIX.match(grade.strip().upper())
    if match and (match.group("suffix") or match.group("slip")):
        found.grade = match.group("grade")
        _suffix(found, match.group("suffix"), match.group("slip"), grade)
    return found


def _suffix(found: BoltText, suffix: str | None, slip: str | None, written: str) -> None:
    if suffix == "SC" or (suffix is None and slip):
        found.slip_critical, found.slip_class = True, slip or "A"
        said = f"Class {slip}" if slip else "Class A, as no class was given"
        found.notes.append(f"Grade {written.strip()!r} is read as a slip-critical joint (J3.9): {said}.")
    elif suffix == "X":
        found.threads_excluded = True
        found.notes.append(f"Grade {written.strip()!r}: threads excluded from the shear planes (Table J3.2, X).")
    elif suffix == "N":
        found.threads_excluded = False


def shear_planes(value: int | str) -> int:
    """1, 2, "double", "single shear", "2 planes" → the number of shear planes."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 1:
            raise ValueError(f"shear_planes must be 1 or more (1 single shear, 2 double shear); got {value}")
        return value
    key = re.sub(r"\b(shear|planes?|lap)\b", "", str(value).strip().lower()).strip()
    if key in PLANES:
        return PLANES[key]
    raise ValueError(f"shear_planes must be 1 (single shear) or 2 (double shear); got {value!r}")


def slip_class_text(text: str | None) -> str | None:
    """ "A", "Class B", "SC-A", "SC B" → the class letter; None, "", "none", "bearing" → None."""
    if text is None or not text.strip() or text.strip().lower() in ("none", "no", "bearing", "n", "x"):
        return None
    return re.sub(r"^(SC|SLIP|CLASS)[\s\-_:]*", "", text.strip().upper()).removeprefix("CLASS").strip()
