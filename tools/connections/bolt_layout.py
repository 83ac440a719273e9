"""Where the bolts stand and what they bear on: `columns` lines of `bolts/columns` rows, the spacing along the lines
(the shear's direction), the gauge between them, the end and edge distances, the ply, the shear's eccentricity and
angle, and prying's b. Lengths in m; what was not given is None, and the checks that need it say so."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.codes.aisc360.bolt_groups import bolt_positions
from tools.connections.inputs import angle as read_angle
from tools.connections.inputs import length
from tools.connections.plies import PlySteel, ply_steel


@dataclass(frozen=True)
class Layout:
    """The group's geometry and ply as given, in m and radians."""

    rows: int
    columns: int
    spacing: float | None
    gauge: float | None
    end: float | None
    edge: float | None
    thickness: float | None
    steel: PlySteel | None
    eccentricity: float
    angle: float
    stem: float | None

    @property
    def eccentric(self) -> bool:
        return self.eccentricity > 0

    @property
    def rotated(self) -> bool:
        """The bolts' forces do not all run along the lines: an eccentric or inclined shear."""
        return self.eccentric or self.angle > 1e-9

    def positions(self) -> list[tuple[float, float]]:
        """The bolts about the centroid; a missing spacing or gauge (one row or one line) is zero."""
        return bolt_positions(self.rows, self.columns, self.spacing or 0.0, self.gauge or 0.0)

    def missing(self, *names: str) -> list[str]:
        """The arguments among `names` this check needs that were not given."""
        needed = {"spacing": self.rows > 1, "gauge": self.columns > 1}
        return [name for name in names if getattr(self, _FIELDS[name]) is None and needed.get(name, True)]


_FIELDS = {"spacing": "spacing", "gauge": "gauge", "end_distance": "end", "edge_distance": "edge",
           "ply_thickness": "thickness", "ply_grade": "steel", "stem_distance": "stem"}  # fmt: skip


def read_layout(bolts: int, columns: int, given: dict[str, str | None], annex: str | None) -> Layout:
    """The layout from the tool's arguments (each length as engineers write it)."""
    if columns < 1 or bolts % columns:
        raise ValueError(
            f"columns must divide bolts: {bolts} bolts cannot stand in {columns} equal lines; give the lines of bolts "
            "along the shear (columns) so that each has bolts/columns rows"
        )
    sizes = {name: _length(given[name], name) for name in ("spacing", "gauge", "end_distance", "edge_distance",
                                                           "ply_thickness", "stem_distance")}  # fmt: skip
    eccentricity = _length(given["eccentricity"], "eccentricity", zero=True) or 0.0
    grade, thickness = given["ply_grade"], sizes["ply_thickness"]
    if grade is not None and thickness is None:
        raise ValueError(
            "ply_grade was given without ply_thickness; give the thickness bearing one way, such as '10 mm'"
        )
    steel = ply_steel(grade, thickness, annex) if grade is not None and thickness is not None else None
    if thickness is not None and grade is None:
        raise ValueError("ply_thickness was given without ply_grade; give the ply's steel: A36, A572-50, A992, A588, "
                         "S235, S275 or S355")  # fmt: skip
    theta = read_angle(given["angle"] or "0 deg")
    rows = bolts // columns
    if (eccentricity > 0 or theta > 0) and ((rows > 1 and sizes["spacing"] is None) or
                                            (columns > 1 and sizes["gauge"] is None)):  # fmt: skip
        raise ValueError(
            "an eccentric or inclined shear turns the group about a centre, which depends on where the bolts stand: "
            "give spacing (between rows) and, for more than one line, gauge"
        )
    return Layout(bolts // columns, columns, sizes["spacing"], sizes["gauge"], sizes["end_distance"],
                  sizes["edge_distance"], thickness, steel, eccentricity, theta, sizes["stem_distance"])  # fmt: skip


def _length(text: str | None, name: str, zero: bool = False) -> float | None:
    if text is None or not str(text).strip():
        return None
    quantity = length(text, name)
    metres = float(quantity.to("m").magnitude)
    if metres < 0 or (metres == 0 and not zero) or not math.isfinite(metres):
        raise ValueError(f"{name} must be a length more than zero; got {text.strip()}")
    if metres > 10:
        raise ValueError(f"{name} = {text.strip()} is not a bolted joint's dimension; check the number and its unit")
    return metres
