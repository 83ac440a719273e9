"""`concrete_column_check`: a short tied rectangular column under axial load and uniaxial moment, by strain
compatibility, to ACI 318-19 (22.4, 21.2.2, 10.6.1.1) or EN 1992-1-1 (6.1, 9.5.2). The design interaction curve
and the load on it go with the result (`domain.calculations.InteractionDiagram`), the section with its bars."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.calculations import CalcResult, InteractionDiagram
from tools.catalogue import tool
from tools.concrete import column_codes
from tools.concrete.bars import read_bar, read_bars, read_stirrups
from tools.concrete.column_layout import ColumnBars, default_tie, drawing, fit_problem, rows
from tools.concrete.interaction import Point
from tools.concrete.materials import read_code, read_concrete, read_steel
from tools.concrete.readout import Findings, in_units, result, unit_of
from tools.concrete.section import default_cover
from tools.units.reading import require
from tools.units.showing import System, system_of

NOT_CHECKED = [
    "slenderness and second-order effects (a short column is assumed)",
    "biaxial bending (the moment is about one axis)",
    "shear in the column",
    "tie spacing and confinement for seismic design",
    "lap splices of the bars",
]


@dataclass(frozen=True)
class Column:
    """The column as read: its size, bars, cover, the load and the units' system."""

    width: float
    height: float
    bars: ColumnBars
    cover: float
    axial: float
    moment: float
    system: System
    tie_spacing: float | None


@tool("calculation", words=("concrete", "column", "pier", "interaction", "axial", "rebar", "tied", "aci", "eurocode"))
def concrete_column_check(
    width: str,
    height: str,
    bars: str,
    concrete: str,
    steel: str,
    axial_load: str,
    moment: str = "0",
    code: str = "ACI318-19",
    cover: str | None = None,
    ties: str | None = None,
    effective_depth: str | None = None,
    layout: str = "two faces",
) -> CalcResult:
    """Short tied rectangular concrete column, ACI 318-19 or EN 1992-1-1: P–M interaction by strain compatibility,
    OK/NG. Use it whenever asked if a concrete column carries an axial load and moment.

    Args:
        width: Face parallel to the bending axis, "16 in", "400 mm".
        height: Depth in the direction of bending.
        bars: All longitudinal bars, "8 #9", "8H25".
        concrete: "5000 psi", "fc' = 5 ksi", "C30/37".
        steel: "Grade 60", "B500B", "fy = 60 ksi".
        axial_load: Factored axial compression Pu or NEd (negative: tension).
        moment: Factored moment Mu or MEd about the axis parallel to width.
        code: ACI318-19, EN1992 or EN1992-UK.
        cover: Clear cover to the ties; default the usual.
        ties: Tie bar, "#3", "#3 @ 16 in", "H8 @ 300".
        effective_depth: d to the far row of bars.
        layout: "two faces" or "four faces".
    """
    code_name = read_code(code)
    aci = code_name == "ACI318-19"
    found = Findings()
    column = _column((width, height, bars, cover, ties, effective_depth, layout), (axial_load, moment), aci, found)
    materials = read_concrete(concrete), read_steel(steel)
    size, loads = (column.width, column.height), (column.axial, column.moment)
    if aci:
        check = column_codes.aci(*size, column.bars, materials, loads, column.system)
    else:
        variant = column_codes.UK if code_name == "EN1992-UK" else column_codes.EN
        check = column_codes.eurocode(*size, column.bars, materials, loads, variant, column.system)
    findings = column_codes.findings(check, found)
    column_codes.tie_checks(
        column.bars, column.tie_spacing, min(column.width, column.height), aci, findings, column.system
    )
    findings.not_checked += NOT_CHECKED
    return result(
        findings,
        column.system,
        interaction=_diagram(check.points, check.applied, column.system),
        section=drawing(column.bars, column.width, column.height, column.cover, column.system),
    )


def _column(
    texts: tuple[str, str, str, str | None, str | None, str | None, str],
    loads: tuple[str, str],
    aci: bool,
    found: Findings,
) -> Column:
    width_text, height_text, bars_text, cover_text, ties_text, depth_text, layout = texts
    width, height = require(width_text, "width", "length"), require(height_text, "height", "length")
    b, h = float(width.to("m").magnitude), float(height.to("m").magnitude)
    if not (0.1 <= b <= 5 and 0.1 <= h <= 5):
        raise ValueError("width and height should be a column's (100 mm to 5 m)")
    group = read_bars(bars_text, "bars")
    if group.bar is None:
        raise ValueError("bars should be a number of bars of one size, such as '8 #9' or '8H25', not a total area")
    tie, spacing = _ties(ties_text, group.bar, aci, found)
    cover = _cover(cover_text, aci, found)
    edge = cover + tie + group.bar.diameter / 2
    depth = float(require(depth_text, "effective_depth", "length").to("m").magnitude) if depth_text else None
    if depth is not None and not h / 2 < depth < h:
        raise ValueError("effective_depth must lie between half the height and the height")
    column_bars = ColumnBars(group.bar, rows(group, layout, h, edge, depth), tie, h - depth if depth else edge)
    axial, moment, given = _loads(*loads)
    system = system_of(width, height, *given)
    problem = fit_problem(column_bars, b, cover, aci, system)
    if problem:
        raise ValueError(f"{problem}: use fewer or smaller bars, or a wider column")
    return Column(b, h, column_bars, cover, axial, moment, system, spacing)


def _ties(text: str | None, bar: Any, aci: bool, found: Findings) -> tuple[float, float | None]:
    if text is None:
        tie = default_tie(bar, aci)
        found.notes.append(f"No ties given: {tie * 1000:.1f} mm ({tie / 0.0254:.3f} in) ties taken for d'.")
        return tie, None
    if "@" in text or "-" in text.strip()[1:]:
        links = read_stirrups(text, "ties")
        return links.bar.diameter, links.spacing
    return read_bar(text, "ties").diameter, None


def _cover(text: str | None, aci: bool, found: Findings) -> float:
    if text is None:
        cover = default_cover(aci, slab=False)
        found.notes.append(f"No cover given: {cover * 1000:.1f} mm ({cover / 0.0254:.2f} in) clear to the ties taken.")
        return cover
    cover = float(require(text, "cover", "length").to("m").magnitude)
    if not 0.01 <= cover <= 0.2:
        raise ValueError(f"cover '{text}' is not a column's cover (10 to 200 mm)")
    return cover


def _loads(axial_text: str, moment_text: str) -> tuple[float, float, list[Any]]:
    axial = require(axial_text, "axial_load", "force", positive=False)
    if moment_text.strip() in ("0", "0.0"):
        return float(axial.to("N").magnitude), 0.0, [axial]
    moment = require(moment_text, "moment", "moment (force × length)", positive=False)
    return float(axial.to("N").magnitude), abs(float(moment.to("N*m").magnitude)), [axial, moment]


def _diagram(points: list[Point], applied: tuple[float, float], system: System) -> InteractionDiagram:
    return InteractionDiagram(
        axial=[round(in_units(p.axial, "force", system), 4) for p in points],
        moment=[round(in_units(p.moment, "moment", system), 4) for p in points],
        axial_unit=unit_of("force", system),
        moment_unit=unit_of("moment", system),
        applied_axial=in_units(applied[0], "force", system),
        applied_moment=in_units(applied[1], "moment", system),
    )
