"""Shear and moment diagrams as vector drawings: the stored points scaled into a frame, with the zero line, the
span's ticks and the peak labelled. The template only draws the shapes it is given.

Coordinates are in points, with y growing downward as on the page.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel

from app.presentation.formatting import pretty_units
from domain.calculations import Diagram

WIDTH = 200.0  # the plot's frame, in points: two side by side across the page
HEIGHT = 64.0


class Shape(BaseModel):
    """A line, a closed outline or a label of a drawing."""

    kind: Literal["polyline", "polygon", "label"]
    points: list[tuple[float, float]] = []
    style: Literal["curve", "fill", "axis", "tick", "mark"] = "axis"
    text: str = ""
    anchor: Literal["left", "center", "right"] = "center"


class Drawing(BaseModel):
    """One diagram: its title and shapes, or the sentence that says why it is not drawn."""

    title: str
    width: float = WIDTH
    height: float = HEIGHT
    shapes: list[Shape] = []
    problem: str = ""


def beam_drawings(diagram: Diagram) -> list[Drawing]:
    """The shear and moment drawings of a stored diagram record."""
    x_unit = _unit(diagram.x_unit)
    curves = (
        ("Shear", "V", diagram.shear, diagram.shear_unit),
        ("Bending moment", "M", diagram.moment, diagram.moment_unit),
    )
    drawings = []
    for title, symbol, along, unit_text in curves:
        unit = _unit(unit_text)
        heading = f"{title} {symbol} ({unit})" + (", sagging positive" if symbol == "M" else "")
        try:
            xs, values = _points(diagram.x, along)
        except ValueError as problem:
            drawings.append(Drawing(title=heading, problem=f"The {title.lower()} diagram {problem}."))
            continue
        drawings.append(Drawing(title=heading, shapes=_shapes(xs, values, x_unit, symbol, unit)))
    return drawings


def _unit(value: str) -> str:
    return pretty_units(value.replace("*", " * "))


def _points(xs: list[float], values: list[float]) -> tuple[list[float], list[float]]:
    """The diagram's points, or ValueError with the end of a sentence saying what is wrong."""
    if len(xs) != len(values):
        raise ValueError("is not drawn: its record has no matching positions and values")
    if len(xs) < 2:
        raise ValueError(f"is not drawn: its record has {len(xs)} point{'s' * (len(xs) != 1)}, and a line needs two")
    if not all(math.isfinite(item) for item in xs + values):
        raise ValueError("is not drawn: its record holds values that are not finite numbers")
    if not xs[-1] > xs[0] or any(b < a for a, b in zip(xs, xs[1:], strict=False)):
        raise ValueError("is not drawn: its positions do not run along the span")
    return xs, values


def _shapes(xs: list[float], values: list[float], x_unit: str, symbol: str, unit: str) -> list[Shape]:
    low, high = min(0.0, *values), max(0.0, *values)
    if high == low:
        high = low + 1.0
    start, span = xs[0], xs[-1] - xs[0]

    def at(x: float, value: float) -> tuple[float, float]:
        return (round((x - start) / span * WIDTH, 3), round((high - value) / (high - low) * HEIGHT, 3))

    zero = at(start, 0.0)[1]
    curve = [at(x, v) for x, v in zip(xs, values, strict=True)]
    shapes = [
        Shape(kind="polygon", points=[(0.0, zero), *curve, (WIDTH, zero)], style="fill"),
        Shape(kind="polyline", points=[(0.0, 0.0), (WIDTH, 0.0), (WIDTH, HEIGHT), (0.0, HEIGHT), (0.0, 0.0)]),
        Shape(kind="polyline", points=[(0.0, zero), (WIDTH, zero)], style="tick"),
        Shape(kind="polyline", points=curve, style="curve"),
        Shape(kind="label", points=[(-4.0, zero - 4.0)], text="0", anchor="right"),
    ]
    shapes += _span_ticks(start, span, x_unit)
    return shapes + _peak(xs, values, at, symbol, unit, x_unit)


def _span_ticks(start: float, span: float, x_unit: str) -> list[Shape]:
    shapes = []
    for value in tick_values(span):
        x = round(value / span * WIDTH, 3)
        shapes.append(Shape(kind="polyline", points=[(x, HEIGHT), (x, HEIGHT + 3.0)], style="tick"))
        shapes.append(Shape(kind="label", points=[(x, HEIGHT + 5.0)], text=f"{start + value:.4g}"))
    shapes.append(Shape(kind="label", points=[(WIDTH, HEIGHT + 15.0)], text=f"x ({x_unit})", anchor="right"))
    return shapes


def tick_values(span: float) -> list[float]:
    """Round positions along the span from its start, ending at the span itself (so its end is labelled)."""
    raw = span / 6
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    inner = [round(i * step, 9) for i in range(math.ceil(span / step)) if i * step <= span - 0.4 * step]
    return [*inner, span]


def _peak(xs: list[float], values: list[float], at: Any, symbol: str, unit: str, x_unit: str) -> list[Shape]:
    """The largest magnitude marked where it is, and said above the frame: "max |M| = 54 kN·m at x = 3 m"."""
    index = max(range(len(values)), key=lambda i: abs(values[i]))
    x, y = at(xs[index], values[index])
    mark = Shape(kind="polygon", points=[(x, y - 2.5), (x + 2.5, y), (x, y + 2.5), (x - 2.5, y)], style="mark")
    anchor: Literal["left", "center", "right"] = (
        "left" if x < 0.25 * WIDTH else "right" if x > 0.75 * WIDTH else "center"
    )
    text = f"max |{symbol}| = {abs(values[index]):.4g} {unit} at x = {xs[index]:.4g} {x_unit}"
    return [mark, Shape(kind="label", points=[(x, -11.0)], text=text, anchor=anchor)]
