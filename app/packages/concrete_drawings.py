"""A column's interaction diagram and a concrete section as vector drawings, in the shapes the template draws
(`app.packages.diagrams`). Coordinates are in points, y growing downward as on the page.

The interaction diagram: the design curve scaled into a frame, moment along x and axial load up (compression
positive), round values on both axes, the applied load marked and labelled, and where it stands in the title.
The section: one scale on both axes, so it keeps its proportions; the outline, the stirrup or tie's centre line
inside the cover, each bar a circle to scale, and its width and height written beside it.
"""

from __future__ import annotations

import math
from typing import Literal

from app.packages.diagrams import WIDTH, Drawing, Shape
from app.presentation.interaction import PresentedInteraction, curve_problem, number_text
from app.presentation.sections import length, section_problem, section_title
from domain.calculations import SectionDrawing

CURVE_HEIGHT = 150.0  # the interaction diagram's frame is WIDTH × CURVE_HEIGHT points
SECTION_WIDTH, SECTION_HEIGHT = 170.0, 150.0  # the most a section takes, leaving room for its height's label
CIRCLE_POINTS = 24
Point = tuple[float, float]


def interaction_drawing(shown: PresentedInteraction) -> Drawing:
    """The design curve with the applied load on it, or the sentence saying why it is not drawn."""
    title = f"Interaction diagram P–M: the applied load {shown.standing}"
    problem = curve_problem(shown.curve)
    if problem:
        return Drawing(title=title, problem=f"The interaction diagram is not drawn: {problem}.")
    return Drawing(title=title, height=CURVE_HEIGHT, shapes=_curve_shapes(shown))


def _curve_shapes(shown: PresentedInteraction) -> list[Shape]:
    curve, applied = shown.curve, shown.applied
    moments, axials = [*curve.moment, applied.moment], [*curve.axial, applied.axial]
    right = max(0.0, *moments) * 1.08 or 1.0
    spread = (max(0.0, *axials) - min(0.0, *axials)) or 1.0
    low, high = min(0.0, *axials) - 0.05 * spread, max(0.0, *axials) + 0.05 * spread

    def at(moment: float, axial: float) -> Point:
        return (round(moment / right * WIDTH, 3), round((high - axial) / (high - low) * CURVE_HEIGHT, 3))

    line = [at(m, p) for m, p in zip(curve.moment, curve.axial, strict=True)]
    zero = at(0.0, 0.0)[1]
    shapes = [
        Shape(kind="polygon", points=line, style="fill"),
        Shape(kind="polyline", points=_rectangle(0.0, 0.0, WIDTH, CURVE_HEIGHT)),
        Shape(kind="polyline", points=[(0.0, zero), (WIDTH, zero)], style="tick"),
        Shape(kind="polyline", points=line, style="curve"),
    ]
    for value in round_values(0.0, right):
        x = at(value, 0.0)[0]
        shapes.append(Shape(kind="polyline", points=[(x, CURVE_HEIGHT), (x, CURVE_HEIGHT + 3.0)], style="tick"))
        shapes.append(Shape(kind="label", points=[(x, CURVE_HEIGHT + 5.0)], text=number_text(value)))
    for value in round_values(low, high):
        y = at(0.0, value)[1]
        shapes.append(Shape(kind="polyline", points=[(-3.0, y), (0.0, y)], style="tick"))
        shapes.append(Shape(kind="label", points=[(-4.0, y - 4.0)], text=number_text(value), anchor="right"))
    shapes.append(
        Shape(kind="label", points=[(WIDTH, CURVE_HEIGHT + 15.0)], text=f"M ({shown.moment_unit})", anchor="right")
    )
    axis = f"P ({shown.axial_unit}), compression positive"
    shapes.append(Shape(kind="label", points=[(0.0, -11.0)], text=axis, anchor="left"))
    return shapes + _applied(shown, at(applied.moment, applied.axial))


def _applied(shown: PresentedInteraction, where: Point) -> list[Shape]:
    """The applied load as a diamond labelled "applied" on the side with room, its figures under the frame."""
    x, y = where
    mark = Shape(kind="polygon", points=[(x, y - 3.0), (x + 3.0, y), (x, y + 3.0), (x - 3.0, y)], style="mark")
    anchor: Literal["left", "right"] = "left" if x < 0.6 * WIDTH else "right"
    side = 5.0 if anchor == "left" else -5.0
    figures = f"◆ applied: M = {shown.applied.moment_text}, P = {shown.applied.axial_text}"
    return [
        mark,
        Shape(kind="label", points=[(x + side, y - 4.0)], text="applied", anchor=anchor),
        Shape(kind="label", points=[(0.0, CURVE_HEIGHT + 15.0)], text=figures, anchor="left"),
    ]


def round_values(low: float, high: float) -> list[float]:
    """Round values from `low` to `high`, about six of them, 0 among them when it lies between."""
    raw = (high - low) / 6
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step - 1e-9)
    return [round(i * step, 9) for i in range(first, math.floor(high / step + 1e-9) + 1)]


def section_drawing(section: SectionDrawing) -> Drawing:
    """The section to scale with its bars, or the sentence saying why it is not drawn."""
    title = section_title(section)
    problem = section_problem(section)
    if problem:
        return Drawing(title=title, problem=f"The section is not drawn: {problem}.")
    scale = min(SECTION_WIDTH / section.width, SECTION_HEIGHT / section.height)  # one scale on both axes
    width, height = round(section.width * scale, 3), round(section.height * scale, 3)
    return Drawing(title=title, width=width, height=height, shapes=_section_shapes(section, scale))


def _section_shapes(section: SectionDrawing, scale: float) -> list[Shape]:
    width, height, unit = section.width * scale, section.height * scale, section.unit
    outline = _rectangle(0.0, 0.0, width, height)
    shapes = [
        Shape(kind="polygon", points=outline, style="fill"),
        Shape(kind="polyline", points=outline, style="curve"),
    ]
    if section.stirrup_diameter > 0:
        inset = (section.cover + section.stirrup_diameter / 2) * scale
        shapes.append(Shape(kind="polyline", points=_rectangle(inset, inset, width - inset, height - inset)))
    for bar in section.bars:
        disc = circle(bar.x * scale, bar.y * scale, bar.diameter * scale / 2)
        shapes.append(Shape(kind="polygon", points=disc, style="mark"))
    breadth, depth = f"b = {length(section.width, unit)}", f"h = {length(section.height, unit)}"
    shapes.append(Shape(kind="label", points=[(width / 2, height + 4.0)], text=breadth))
    shapes.append(Shape(kind="label", points=[(width + 4.0, height / 2 - 4.0)], text=depth, anchor="left"))
    return shapes


def _rectangle(left: float, top: float, right: float, bottom: float) -> list[Point]:
    corners = [(left, top), (right, top), (right, bottom), (left, bottom), (left, top)]
    return [(round(x, 3), round(y, 3)) for x, y in corners]


def circle(x: float, y: float, radius: float) -> list[Point]:
    """A circle as a polygon of CIRCLE_POINTS points."""
    turns = [2 * math.pi * i / CIRCLE_POINTS for i in range(CIRCLE_POINTS)]
    return [(round(x + radius * math.cos(a), 3), round(y + radius * math.sin(a), 3)) for a in turns]
