"""Bolt figures from the standards' tables: grades, nominal stresses, pretensions and tensile stress areas.

AISC 360-22 Table J3.1 (minimum pretension Tb, kips) and J3.1M (kN), Table J3.2 (Fnt, Fnv in ksi and MPa);
EN 1993-1-8 Table 3.1 (fub) and Table 3.4 (αv); ISO 898-1 tensile stress areas As. SI base units out (m, Pa, N).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from tools.connections.inputs import length

KSI = 6.894757293168361e6  # Pa
MPA = 1e6
KIP = 4448.2216152605  # N
INCH = 0.0254  # m


@dataclass(frozen=True)
class AiscGrade:
    """A high-strength bolt group of ASTM F3125: Table J3.2 stresses (tension; shear, threads in and out)."""

    name: str
    ksi: tuple[float, float, float]
    mpa: tuple[float, float, float]
    pretension_kips: dict[int, float] = field(default_factory=dict)  # by diameter in sixteenths of an inch
    pretension_kn: dict[int, float] = field(default_factory=dict)  # by diameter in mm


GROUP_120 = AiscGrade(
    "Group 120 (A325)", (90, 54, 68), (620, 370, 470),
    {8: 12, 10: 19, 12: 28, 14: 39, 16: 51, 18: 64, 20: 81, 22: 97, 24: 118},
    {16: 91, 20: 142, 22: 176, 24: 205, 27: 267, 30: 326, 36: 475},
)  # fmt: skip
GROUP_150 = AiscGrade(
    "Group 150 (A490)", (113, 68, 84), (780, 470, 580),
    {8: 15, 10: 24, 12: 35, 14: 49, 16: 64, 18: 80, 20: 102, 22: 121, 24: 148},
    {16: 114, 20: 179, 22: 221, 24: 257, 27: 334, 30: 408, 36: 595},
)  # fmt: skip


@dataclass(frozen=True)
class EnGrade:
    """A bolt class of EN 1993-1-8 Table 3.1: fub, and αv of Table 3.4 with the threads in the shear plane."""

    name: str
    fub_mpa: float
    alpha_v_threads: float
    preloadable: bool


EN_GRADES = {
    "4.6": EnGrade("4.6", 400, 0.6, False),
    "5.6": EnGrade("5.6", 500, 0.6, False),
    "8.8": EnGrade("8.8", 800, 0.6, True),
    "10.9": EnGrade("10.9", 1000, 0.5, True),
}
# ISO 898-1 (EN ISO 898-1:2013 Table 4): tensile stress area As in mm², coarse threads
STRESS_AREAS_MM2 = {12: 84.3, 14: 115, 16: 157, 18: 192, 20: 245, 22: 303, 24: 353, 27: 459, 30: 561, 33: 694,
                    36: 817}  # fmt: skip


def aisc_grade(text: str) -> AiscGrade:
    """ "A325", "F3125 A325", "Group 120", "Group A" → Group 120; "A490", "Group 150", "Group B" → Group 150."""
    key = re.sub(r"[\s\-_.]+", "", text.upper())
    if any(word in key for word in ("A325", "GROUP120", "GR120", "GROUPA", "A325M")) and "A490" not in key:
        return GROUP_120
    if any(word in key for word in ("A490", "GROUP150", "GR150", "GROUPB")):
        return GROUP_150
    if key in ("88", "109", "46", "56"):
        raise ValueError(f"grade {text} is an EN 1993-1-8 bolt class; for AISC 360 give 'A325' or 'A490'")
    raise ValueError(f"grade {text!r} is not one this check knows: 'A325' (Group 120) or 'A490' (Group 150)")


def en_grade(text: str) -> EnGrade:
    key = text.strip().lower().removeprefix("class").removeprefix("grade").strip().replace(",", ".")
    if key in EN_GRADES:
        return EN_GRADES[key]
    if re.search(r"a325|a490|group", key):
        raise ValueError(f"grade {text} is an ASTM bolt; for EN1993 give a bolt class such as '8.8' or '10.9'")
    raise ValueError(f"grade {text!r} is not one this check knows: '4.6', '5.6', '8.8' or '10.9'")


@dataclass(frozen=True)
class Diameter:
    """A bolt's nominal diameter: metres, whether it is a metric size, and as engineers name it."""

    metres: float
    metric: bool
    label: str

    @property
    def gross_area(self) -> float:
        """Ab = π d²/4, the nominal unthreaded body area (AISC 360-22 Table J3.2; EN 1993-1-8 A)."""
        return math.pi * self.metres**2 / 4

    def millimetres(self) -> int | None:
        whole = round(self.metres * 1000)
        return whole if self.metric and abs(self.metres * 1000 - whole) < 1e-6 else None

    def sixteenths(self) -> int | None:
        steps = round(self.metres / INCH * 16)
        return steps if not self.metric and abs(self.metres / INCH * 16 - steps) < 1e-6 else None


def diameter(text: str) -> Diameter:
    """ "M20", "20 mm", "3/4 in", '7/8"', "1-1/8 in"."""
    metric = re.fullmatch(r"\s*[Mm]\s*(\d+(?:\.\d+)?)\s*", text or "")
    if metric:
        return Diameter(float(metric.group(1)) / 1000, True, f"M{metric.group(1)}")
    quantity = length(text, "diameter")
    inches = {name for name, _ in quantity.unit_items()} <= {"inch", "foot"}
    metres = float(quantity.to("m").magnitude)
    label = f"M{metres * 1000:g}" if not inches else " ".join(text.split())
    if not 0.005 <= metres <= 0.1:
        raise ValueError(f"diameter {text.strip()} is not a structural bolt size; give one such as 'M20' or '3/4 in'")
    return Diameter(metres, not inches, label)


def stress_area(size: Diameter) -> float:
    """As in m² for the metric sizes of ISO 898-1; EN 1993-1-8 bolts are metric."""
    mm = size.millimetres()
    if mm is None or mm not in STRESS_AREAS_MM2:
        raise ValueError(
            f"diameter {size.label} has no tensile stress area in ISO 898-1 here; "
            f"give a metric size: {', '.join(f'M{d}' for d in STRESS_AREAS_MM2)}"
        )
    return STRESS_AREAS_MM2[mm] * 1e-6


def pretension(grade: AiscGrade, size: Diameter) -> float:
    """Tb in N: Table J3.1 (inch sizes, 1/2 to 1-1/2 in) or J3.1M (M16 to M36)."""
    sixteenths, mm = size.sixteenths(), size.millimetres()
    if sixteenths in grade.pretension_kips:
        return grade.pretension_kips[sixteenths] * KIP
    if mm in grade.pretension_kn:
        return grade.pretension_kn[mm] * 1000
    raise ValueError(
        f"AISC 360-22 Table J3.1 gives no pretension for a {size.label} bolt; slip-critical joints take "
        "1/2 in to 1-1/2 in in steps of 1/8 in, or M16, M20, M22, M24, M27, M30, M36"
    )


def aisc_stresses(grade: AiscGrade, size: Diameter, threads_excluded: bool) -> tuple[float, float]:
    """(Fnt, Fnv) in Pa from Table J3.2, in the table's own units for the bolt's size (ksi for inch sizes)."""
    tension, shear_n, shear_x = grade.mpa if size.metric else grade.ksi
    unit = MPA if size.metric else KSI
    return tension * unit, (shear_x if threads_excluded else shear_n) * unit
