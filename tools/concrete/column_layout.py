"""Where a column's bars sit: rows parallel to the bending axis from the count, the layout, the cover and the ties.
SI base units (m, m²).

"two faces": half the bars on each face parallel to the bending axis. "four faces": the bars spread round, as many on
each face (corners shared), so a multiple of four. d' = cover + tie + bar/2 (cover is the clear cover to the ties);
d = h − d', or the effective_depth given. Ties left out are #3 for bars up to #10 and #4 above (ACI 318-19
25.7.2.2), or max(6 mm, φ/4) rounded up to a bar size (EN 1992-1-1 9.5.3(1)).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.calculations import SectionBar, SectionDrawing
from tools.concrete.bar_tables import EN_DIAMETERS, astm_bar
from tools.concrete.bars import Bar, Bars
from tools.concrete.readout import in_units, shown
from tools.concrete.strain_compatibility import Layer
from tools.units.showing import System

INCH = 0.0254
LAYOUTS = ("two faces", "four faces")


@dataclass(frozen=True)
class ColumnBars:
    """The rows of bars, each with its depth from the compression face and its number of bars."""

    bar: Bar
    rows: tuple[tuple[float, int], ...]
    tie: float
    edge: float  # d'

    @property
    def layers(self) -> tuple[Layer, ...]:
        return tuple(Layer(depth, count * self.bar.area) for depth, count in self.rows)

    @property
    def area(self) -> float:
        return sum(count for _, count in self.rows) * self.bar.area


def default_tie(bar: Bar, aci: bool) -> float:
    """The tie's diameter when none is given (see the module's docstring)."""
    if aci:
        size = 3 if bar.diameter <= 1.27 * INCH + 1e-9 else 4
        return astm_bar(size)[0]
    least = max(0.006, bar.diameter / 4)
    return next(d for d in EN_DIAMETERS if d / 1000 >= least - 1e-9) / 1000


def rows(bars: Bars, layout: str, height: float, edge: float, depth: float | None) -> tuple[tuple[float, int], ...]:
    """(depth, count) of each row for `layout`."""
    if bars.bar is None or bars.spacing is not None:
        raise ValueError("bars should be a number of bars of one size, such as '8 #9' or '8H25'")
    key = " ".join(layout.lower().replace("-", " ").split())
    if key not in LAYOUTS:
        raise ValueError(f"layout '{layout}' is not one this tool knows: give 'two faces' or 'four faces'")
    count = bars.count
    if count < 4:
        raise ValueError(f"{bars.text}: a tied rectangular column needs at least 4 bars (ACI 318-19 10.7.3.1)")
    bottom = depth if depth is not None else height - edge
    top = height - bottom
    if key == "two faces":
        if count % 2:
            raise ValueError(f"{bars.text}: 'two faces' puts half the bars on each face; give an even number")
        return ((top, count // 2), (bottom, count // 2))
    if count % 4:
        raise ValueError(f"{bars.text}: 'four faces' puts as many bars on each face; give a multiple of 4")
    per_face = count // 4 + 1
    inner = [(top + (bottom - top) * i / (per_face - 1), 2) for i in range(1, per_face - 1)]
    return ((top, per_face), *inner, (bottom, per_face))


def fit_problem(column: ColumnBars, width: float, cover: float, aci: bool, system: System) -> str | None:
    """The sentence saying the widest row does not fit the width, or None."""
    widest = max(count for _, count in column.rows)
    if widest <= 1:
        return None
    room = width - 2 * (cover + column.tie)
    clear = (room - widest * column.bar.diameter) / (widest - 1)
    diameter = column.bar.diameter
    needed = max(1.5 * INCH, 1.5 * diameter) if aci else max(diameter, 0.020)
    if clear >= needed:
        return None
    clause = "ACI 318-19 25.2.3" if aci else "EN 1992-1-1 8.2(2)"
    return (
        f"{widest} bars of {column.bar.name} do not fit across the {shown(width, 'length', system)} face: the clear "
        f"spacing would be {shown(max(clear, 0.0), 'length', system)}, less than {shown(needed, 'length', system)} "
        f"({clause})"
    )


def drawing(column: ColumnBars, width: float, height: float, cover: float, system: System) -> SectionDrawing:
    """The section with its bars, in inches or millimetres, y down from the compression face."""

    def unit(value: float) -> float:
        return round(in_units(value, "length", system), 6)

    edge = cover + column.tie + column.bar.diameter / 2
    bars = []
    for depth, count in column.rows:
        xs = [width / 2] if count == 1 else [edge + (width - 2 * edge) * i / (count - 1) for i in range(count)]
        bars += [SectionBar(x=unit(x), y=unit(depth), diameter=unit(column.bar.diameter)) for x in xs]
    return SectionDrawing(
        width=unit(width),
        height=unit(height),
        unit="in" if system == "US" else "mm",
        bars=bars,
        stirrup_diameter=unit(column.tie),
        cover=unit(cover),
    )
