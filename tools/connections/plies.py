"""The steel of the connected plies: Fy and Fu of the ASTM grades (AISC Manual Table 2-4) or fy and fu of the EN
grades, from EN 1993-1-1 Table 3.1 without an annex, or from BS EN 10025-2 by thickness with the UK National Annex."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tools.codes.en10025_2 import strengths as bs_en_10025
from tools.connections.bolt_data import KSI

ASTM = {"A36": (36, 58), "A572-50": (50, 65), "A992": (50, 65), "A588": (50, 70)}  # ksi: Fy, Fu (Table 2-4)
# EN 1993-1-1 Table 3.1, N/mm²: (fy, fu) for t ≤ 40 mm and for 40 < t ≤ 80 mm
EN_TABLE_3_1 = {"S235": ((235, 360), (215, 360)), "S275": ((275, 430), (255, 410)), "S355": ((355, 490), (335, 470))}
KNOWN = "A36, A572-50, A992, A588, S235, S275 or S355"


@dataclass(frozen=True)
class PlySteel:
    """A ply's steel: its grade, yield and tensile strengths in Pa, and where they come from."""

    name: str
    fy: float
    fu: float
    source: str


def ply_steel(text: str, thickness: float, annex: str | None) -> PlySteel:
    """The grade as engineers write it ("A572 Gr. 50", "ASTM A992", "S355JR", "S275") at the ply's thickness (m)."""
    key = re.sub(r"^ASTM\s*", "", text.strip().upper())
    key = re.sub(r"^(A\d{3})\s*(?:-|/|GR\.?|GRADE)?\s*(\d{2})$", r"\1-\2", key)
    if key == "A572":
        key = "A572-50"
    if key in ASTM:
        fy, fu = ASTM[key]
        return PlySteel(key, fy * KSI, fu * KSI, "AISC Manual Table 2-4")
    match = re.match(r"^(S\d{3})", key)
    if match and match.group(1) in EN_TABLE_3_1:
        return _en_steel(match.group(1), thickness, annex)
    raise ValueError(f"ply_grade {text!r} is not one this check knows: {KNOWN}")


def _en_steel(grade: str, thickness: float, annex: str | None) -> PlySteel:
    if annex == "UK":
        return PlySteel(grade, bs_en_10025.yield_strength(grade, thickness), bs_en_10025.tensile_strength(grade),
                        "BS EN 10025-2 by thickness (UK National Annex NA.2.4)")  # fmt: skip
    if thickness > 0.080 + 1e-9:
        raise ValueError(f"EN 1993-1-1 Table 3.1 stops at 80 mm; the ply is {thickness * 1000:g} mm")
    fy, fu = EN_TABLE_3_1[grade][thickness > 0.040 + 1e-9]
    return PlySteel(grade, fy * 1e6, fu * 1e6, "EN 1993-1-1 Table 3.1")
