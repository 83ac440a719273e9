"""A compression member's cross-section as the column checks see it: SI base units (m, m², m⁴, m⁶) from any table.

Rolled I and H shapes, channels, rectangular and square HSS, round HSS and pipe. Each knows
its plate elements with the widths Table B4.1a of AISC 360-22 measures (b = bf/2 of an I
flange, bf of a channel flange, h = d − 2k of a web, B − 3t and H − 3t of an HSS wall). Single
angles and tees are refused: their buckling (AISC 360-22 E4, E5) is not covered.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal

from tools.shapes.member import IMember, i_member
from tools.shapes.tables import DATA, Shape, find_shape

Kind = Literal["I", "channel", "box", "round"]
KINDS: dict[str, Kind] = {
    **dict.fromkeys(("W", "M", "S", "HP", "IPE", "HEA", "HEB", "HEM", "UB", "UC"), "I"),
    **dict.fromkeys(("C", "MC"), "channel"),
    "HSS": "box",
    **dict.fromkeys(("HSS_R", "PIPE"), "round"),
}
COVERED = "rolled I and H shapes (W, M, S, HP, IPE, HE, UB), channels (C, MC), HSS and pipe"
_METRES = {"in": 0.0254, "mm": 1e-3, "cm": 1e-2}


@dataclass(frozen=True)
class Element:
    """A plate of the section: its width and thickness as Table B4.1a measures them, how many there are."""

    name: str
    width: float
    thickness: float
    count: int
    stiffened: bool
    hss_wall: bool = False

    @property
    def ratio(self) -> float:
        return self.width / self.thickness


@dataclass(frozen=True)
class ColumnSection:
    """Area, second moments and radii of gyration as the table gives them, J, Cw and the plates, in SI units."""

    designation: str
    family: str
    kind: Kind
    system: Literal["US", "SI"]
    area: float
    I_x: float
    I_y: float
    r_x: float
    r_y: float
    J: float
    warping: float
    elements: tuple[Element, ...]
    member: IMember | None = None  # rolled I and H shapes: the figures the flexure clauses use
    Z_y: float = 0.0  # rolled I and H shapes: the plastic modulus about the minor axis
    diameter: float = 0.0  # round HSS and pipe
    wall: float = 0.0  # the design wall thickness of HSS and pipe
    r_o: float = 0.0  # channels: polar radius of gyration about the shear centre (AISC E4-9)
    H: float = 1.0  # channels: flexural constant (AISC E4-8)


def column_section(designation: str, tool: str = "steel_column_check") -> ColumnSection:
    """The section a designation names, or a sentence saying what the check covers."""
    return _section(find_shape(designation).designation, tool)


@cache
def _section(designation: str, tool: str) -> ColumnSection:
    shape = find_shape(designation)
    kind = KINDS.get(shape.family)
    if kind is None:
        what = "a single angle (AISC 360-22 E5)" if shape.family == "L" else f"a {shape.family} shape"
        raise ValueError(
            f"{tool} covers {COVERED}; {shape.designation} is {what}, whose torsional and flexural-torsional "
            "buckling this product does not check. Use section_properties and check it by hand or in your software."
        )
    if kind == "I":
        return _rolled_i(shape)
    return {"channel": _channel, "box": _box, "round": _round}[kind](shape)


def si(shape: Shape, key: str) -> float:
    """A table figure in SI base units: in⁴ → m⁴, cm³ → m³, mm → m."""
    unit = shape.unit(key)
    base, _, power = unit.partition("**")
    return shape.properties[key] * _METRES[base] ** int(power or 1)


def _gross(shape: Shape, kind: Kind, warping: float, elements: tuple[Element, ...]) -> ColumnSection:
    return ColumnSection(
        designation=shape.designation,
        family=shape.family,
        kind=kind,
        system=shape.system,
        area=si(shape, "area"),
        I_x=si(shape, "I_major"),
        I_y=si(shape, "I_minor"),
        r_x=si(shape, "r_major"),
        r_y=si(shape, "r_minor"),
        J=si(shape, "J"),
        warping=warping,
        elements=elements,
    )


def _rolled_i(shape: Shape) -> ColumnSection:
    member = i_member(shape)
    elements = (
        Element("flange bf/2tf", member.width / 2, member.flange, 4, stiffened=False),
        Element("web h/tw", member.aisc_h, member.web, 1, stiffened=True),
    )
    return replace(_gross(shape, "I", member.warping, elements), member=member, Z_y=si(shape, "Z_minor"))


def _channel(shape: Shape) -> ColumnSection:
    depth, k = si(shape, "depth"), si(shape, "k_design")
    elements = (
        Element("flange bf/tf", si(shape, "width"), si(shape, "flange_thickness"), 2, stiffened=False),
        Element("web h/tw", depth - 2 * k, si(shape, "web_thickness"), 1, stiffened=True),
    )
    r_o, h = channel_torsion()[shape.designation]
    return replace(_gross(shape, "channel", si(shape, "warping_constant"), elements), r_o=r_o * 0.0254, H=h)


def _box(shape: Shape) -> ColumnSection:
    t = si(shape, "wall_thickness")
    elements = (
        Element("wall b/t (b = B − 3t)", si(shape, "width") - 3 * t, t, 2, stiffened=True, hss_wall=True),
        Element("wall h/t (h = H − 3t)", si(shape, "depth") - 3 * t, t, 2, stiffened=True, hss_wall=True),
    )
    return replace(_gross(shape, "box", 0.0, elements), wall=t)


def _round(shape: Shape) -> ColumnSection:
    section = _gross(shape, "round", 0.0, ())
    return replace(section, diameter=si(shape, "depth"), wall=si(shape, "wall_thickness"))


@cache
def channel_torsion() -> dict[str, tuple[float, float]]:
    """r̄o (in) and H of every AISC channel, as the Shapes Database v16.0 publishes them."""
    with (DATA / "aisc-channels-torsion-v16.csv").open(encoding="utf-8") as rows:
        return {row["designation"]: (float(row["ro"]), float(row["H"])) for row in csv.DictReader(rows)}
