"""The rolled steel shapes this product knows, read from the tables in `tools/shapes/data` (see SOURCES.md there).

AISC shapes carry the AISC Shapes Database v16.0 figures as published. European (IPE,
HEA, HEB, HEM) and British (UB) I sections carry their standard dimensions; their
properties are computed from those dimensions as the tables themselves compute them
(`tools.shapes.rolled_i`). Values are kept in each table's own units: inches and pounds for
AISC, millimetres, centimetres and kilograms for the European and British tables.
"""

from __future__ import annotations

import csv
import difflib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from tools.shapes.rolled_i import RolledI

DATA = Path(__file__).parent / "data"
AISC_TABLE = "AISC Shapes Database v16.0 (AISC Steel Construction Manual, 16th edition, 2023)"
EUROPEAN_TABLE = (
    "EN 10365:2017 dimensions (IPE, HE A/B/M); properties computed from them, root fillets included, "
    "as ArcelorMittal's and SCI P363's tables compute them"
)
BRITISH_TABLE = (
    "BS 4-1:2005 / EN 10365:2017 dimensions (UB); properties computed from them, root fillets included, "
    "as SCI P363 (the Blue Book) computes them"
)
BRITISH_COLUMN_TABLE = (
    "BS 4-1:2005 dimensions (UC), as SCI P363 prints them; properties computed from them, root fillets included, "
    "as SCI P363 (the Blue Book) computes them"
)
I_SHAPE_FAMILIES = frozenset({"W", "M", "S", "HP", "IPE", "HEA", "HEB", "HEM", "UB", "UC"})
KNOWN_FAMILIES = (
    "AISC W, M, S, HP, C, MC, L, WT, MT, ST, HSS, Pipe; European IPE, HEA, HEB, HEM; British UB and UC (the BS 4-1 "
    "series 152x152 to 356x406)"
)

# The properties every shape has, in the table's units: (key, US unit, SI unit).
UNITS: dict[str, tuple[str, str]] = {
    "area": ("in**2", "cm**2"),
    "depth": ("in", "mm"),
    "width": ("in", "mm"),
    "web_thickness": ("in", "mm"),
    "flange_thickness": ("in", "mm"),
    "wall_thickness": ("in", "mm"),
    "I_major": ("in**4", "cm**4"),
    "I_minor": ("in**4", "cm**4"),
    "S_major": ("in**3", "cm**3"),
    "S_minor": ("in**3", "cm**3"),
    "Z_major": ("in**3", "cm**3"),
    "Z_minor": ("in**3", "cm**3"),
    "r_major": ("in", "cm"),
    "r_minor": ("in", "cm"),
    "r_z": ("in", "cm"),
    "J": ("in**4", "cm**4"),
    "warping_constant": ("in**6", "cm**6"),
    "mass_per_length": ("plf", "kg/m"),
    "root_radius": ("in", "mm"),
    "k_design": ("in", "mm"),
    "r_ts": ("in", "cm"),
    "h_o": ("in", "mm"),
}


@dataclass(frozen=True)
class Shape:
    """One row of a shape table: its name as the table writes it and its properties in the table's units."""

    designation: str
    family: str
    system: Literal["US", "SI"]
    table: str
    properties: dict[str, float]
    metric: str = ""  # an AISC shape's metric designation, W460X74 for W18X50

    def unit(self, key: str) -> str:
        us, si = UNITS[key]
        return us if self.system == "US" else si

    @property
    def is_i_shape(self) -> bool:
        return self.family in I_SHAPE_FAMILIES


class UnknownShapeError(ValueError):
    """No table has this designation; the message names the nearest ones."""


_AISC_KEYS = {
    "area": "area", "d": "depth", "bf": "width", "tw": "web_thickness", "tf": "flange_thickness",
    "Ix": "I_major", "Iy": "I_minor", "Sx": "S_major", "Sy": "S_minor", "Zx": "Z_major", "Zy": "Z_minor",
    "rx": "r_major", "ry": "r_minor", "rz": "r_z", "J": "J", "Cw": "warping_constant",
    "weight": "mass_per_length", "kdes": "k_design", "rts": "r_ts", "ho": "h_o", "tdes": "wall_thickness",
}  # fmt: skip


def key_of(designation: str) -> str:
    """One spelling for every way of writing a designation: `W18x50`, `w 18 X 50` → `W18X50`;
    `IPE 300`, `IPE-300` → `IPE300`; `HE 300 A`, `HE-300-A` → `HEA300`; `457x191x67 UB` → `UB457X191X67`."""
    text = re.sub(r"[\s_]+", "", designation.upper().replace("×", "X").replace("*", "X"))
    text = re.sub(r"(?<=[A-Z])-(?=\d)|(?<=\d)-(?=[A-Z])", "", text)  # a hyphen between letters and numbers
    text = re.sub(r"^HE(\d+)([ABM])$", r"HE\2\1", text)
    text = re.sub(r"^(\d+X\d+X[\d.]+)(UK)?(UB|UC)$", r"\3\1", text.replace("UKB", "UB").replace("UKC", "UC"))
    return text


def _aisc_shape(row: dict[str, str]) -> Shape:
    properties = {name: float(row[column]) for column, name in _AISC_KEYS.items() if row.get(column)}
    return Shape(row["designation"], row["family"], "US", AISC_TABLE, properties, row.get("metric", ""))


def _rolled_i_shape(row: dict[str, str]) -> Shape:
    h, b, tw, tf, r = (float(row[key]) for key in ("h", "b", "tw", "tf", "r"))
    section = RolledI(h, b, tw, tf, r, british=row["family"] in ("UB", "UC"))
    area = section.area
    properties = {
        "area": area / 1e2,
        "depth": section.h,
        "width": section.b,
        "web_thickness": section.tw,
        "flange_thickness": section.tf,
        "root_radius": section.r,
        "I_major": section.inertia_major / 1e4,
        "I_minor": section.inertia_minor / 1e4,
        "S_major": 2 * section.inertia_major / section.h / 1e3,
        "S_minor": 2 * section.inertia_minor / section.b / 1e3,
        "Z_major": section.plastic_major / 1e3,
        "Z_minor": section.plastic_minor / 1e3,
        "r_major": (section.inertia_major / area) ** 0.5 / 10,
        "r_minor": (section.inertia_minor / area) ** 0.5 / 10,
        "J": section.torsion_constant / 1e4,
        "warping_constant": section.warping_constant / 1e6,
        "mass_per_length": section.mass_per_metre,
    }
    family = row["family"]
    name = f"{family} {row['designation'][len(family) :]}"
    if family in ("UB", "UC"):
        name = f"{family} " + row["designation"][2:].lower()
    table = {"UB": BRITISH_TABLE, "UC": BRITISH_COLUMN_TABLE}.get(family, EUROPEAN_TABLE)
    return Shape(name, family, "SI", table, properties)


@cache
def shapes() -> dict[str, Shape]:
    """Every known shape by its key (read once, about 20 ms)."""
    table: dict[str, Shape] = {}
    with (DATA / "aisc-shapes-v16.csv").open(encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            table[key_of(row["designation"])] = _aisc_shape(row)
    with (DATA / "rolled-i-dimensions.csv").open(encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            if row["family"] != "UC":  # see SOURCES.md: this table's UC dimensions are not BS 4-1's
                table[key_of(row["designation"])] = _rolled_i_shape(row)
    with (DATA / "uc-dimensions.csv").open(encoding="utf-8") as rows:
        for row in csv.DictReader(rows):
            table[key_of(row["designation"])] = _rolled_i_shape(row)
    return table


@cache
def _aliases() -> dict[str, str]:
    """Other names of a shape, by key: AISC's metric designations (`W460X74` is W18X50) where they name no
    other shape (metric `PIPE20STD` is Pipe3/4STD, but `PIPE20STD` is the US 20 in pipe), and the sizes
    written as numbers (`HSS6X6X0.25`, `L4X4X.5`) where only one shape has them."""
    known = shapes()
    aliases = {metric: key_of(shape.designation) for metric, shape in _metric_names().items()}
    by_numbers: dict[tuple[str, tuple[float, ...]], str | None] = {}
    for key in known:
        family, numbers = _parts(key)
        size = (family, tuple(round(number, 4) for number in numbers))
        by_numbers[size] = None if size in by_numbers else key  # two shapes of one size: no alias
    numbered = {f"{family}{'X'.join(f'{n:g}' for n in numbers)}": key for (family, numbers), key in by_numbers.items()}
    return {alias: key for alias, key in {**numbered, **aliases}.items() if key and alias not in known}


def find_shape(designation: str) -> Shape:
    """The shape a designation names; an unknown one raises with the nearest designations, never a guess."""
    key = key_of(designation)
    known = shapes()
    if key in known:
        return known[key]
    if not key:
        raise UnknownShapeError("the designation is empty; give one such as 'W18X50', 'IPE 300' or 'UB 457x191x67'")
    for spelling in (key, _numbered(key)):
        found = known.get(spelling) or known.get(_aliases().get(spelling, ""))
        if found:
            return found
    nearest = [known[k].designation for k in nearest_keys(key, known)]
    hint = f" The nearest are: {', '.join(nearest)}." if nearest else f" The tables hold {KNOWN_FAMILIES}."
    if key.startswith("UC"):
        hint += " The British UC sections are BS 4-1's: 152x152, 203x203, 254x254, 305x305, 356x368 and 356x406."
    raise UnknownShapeError(f"'{designation}' is not in the shape tables.{hint}")


def metric_namesake(designation: str) -> Shape | None:
    """The other shape whose AISC metric name this designation also is (metric Pipe20STD is Pipe3/4STD)."""
    key = key_of(designation)
    return _metric_names().get(key) if key in shapes() else None


@cache
def _metric_names() -> dict[str, Shape]:
    return {key_of(shape.metric): shape for shape in shapes().values() if shape.metric}


def _numbered(key: str) -> str:
    """ "HSS6X6X.250" → "HSS6X6X0.25": the family and its sizes as plain numbers (the aliases' spelling)."""
    family, numbers = _parts(key)
    return f"{family}{'X'.join(f'{round(n, 4):g}' for n in numbers)}"


def nearest_keys(key: str, known: dict[str, Shape], count: int = 5) -> list[str]:
    """The designations closest to `key`: same family and leading sizes, the nearest last number first
    (`W18X51` → W18X50, W18X55, …); spelling similarity when the numbers do not help."""
    family, numbers = _parts(key)
    candidates = [k for k in known if _parts(k)[0] == family] or list(known)
    if numbers:

        def distance(candidate: str) -> tuple[int, float]:
            other = _parts(candidate)[1]
            if not other:
                return (len(numbers) + 1, 0.0)
            same_lead = sum(a != b for a, b in zip(numbers[:-1], other[:-1], strict=False)) + abs(
                len(numbers) - len(other)
            )
            return (same_lead, abs(other[-1] - numbers[-1]) / max(abs(numbers[-1]), 1e-9))

        ranked = sorted(candidates, key=distance)
        if distance(ranked[0])[0] == 0:
            return ranked[:count]
    return difflib.get_close_matches(key, candidates, n=count, cutoff=0.5)


def _parts(key: str) -> tuple[str, list[float]]:
    """`W18X50` → ("W", [18, 50]); `HSS6X6X1/4` → ("HSS", [6, 6, 0.25])."""
    family = re.match(r"[A-Z]*", key)
    numbers = [_number(token) for token in re.findall(r"\d+-\d+/\d+|\d+/\d+|\d*\.\d+|\d+", key)]
    return (family.group() if family else ""), numbers


def _number(token: str) -> float:
    """ "18", "12.5", "1/4", "1-3/8" as numbers."""
    if "/" not in token:
        return float(token)
    whole, _, fraction = token.rpartition("-")
    top, bottom = fraction.split("/")
    return float(whole or 0) + float(top) / float(bottom)
