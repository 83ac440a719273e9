"""A column's interaction diagram and a concrete section as Vega-Lite charts (drawn by the Vega-Lite Streamlit
bundles; nothing is fetched).

The interaction diagram: the design curve with moment along x and axial load up y (compression positive), the
applied load plotted and labelled, and where it stands (inside or outside the curve) in the title and the legend.
The section: its outline, the stirrup or tie inside the cover, each bar a circle to scale; one scale on both axes,
so the section keeps its proportions, and its dimensions in the axis titles.
"""

from __future__ import annotations

from typing import Any

from app.presentation.interaction import PresentedInteraction
from app.presentation.sections import length, section_title
from domain.calculations import SectionDrawing

INK, INSIDE, OUTSIDE, ZERO = "#1f3a5f", "#2e7d32", "#c0392b", "#999999"
CONCRETE, EDGE, STEEL = "#e3e3e3", "#555555", "#1f3a5f"
INTERACTION_HEIGHT = 320
SECTION_SIZE = 260  # pixels of the section's longer side
SVG = {"embedOptions": {"renderer": "svg"}}  # axes and labels readable in the page
# The plot itself is `width` × `height`, axes, title and legend around it (Streamlit's default fits all of them into
# the size, which would shrink the section's plot and so its scale); the curve's plot fits the card's width.
TO_SCALE = {"type": "pad", "contains": "padding"}
ACROSS = {"type": "fit-x", "contains": "padding"}


def interaction_spec(shown: PresentedInteraction) -> dict[str, Any]:
    """The design curve and the applied load on it, with where the load stands said in the title and legend."""
    curve, applied = shown.curve, shown.applied
    applied_name = "applied load, " + {True: "inside", False: "outside", None: "not measured"}[shown.inside]
    colour = {
        "field": "series",
        "type": "nominal",
        "title": None,
        "scale": {"domain": ["design curve", applied_name], "range": [INK, INSIDE if shown.inside else OUTSIDE]},
        "legend": {"orient": "bottom", "direction": "vertical", "labelLimit": 1000},
    }
    x = {"field": "moment", "type": "quantitative", "title": f"moment M ({shown.moment_unit})"}
    y = {"field": "axial", "type": "quantitative", "title": f"axial load P, compression positive ({shown.axial_unit})"}
    line = [
        {"moment": m, "axial": p, "order": index, "series": "design curve"}
        for index, (m, p) in enumerate(zip(curve.moment, curve.axial, strict=False))
    ]
    label = f"({applied.moment_text}, {applied.axial_text})"
    load = {"values": [{"moment": applied.moment, "axial": applied.axial, "series": applied_name, "label": label}]}
    return {
        "height": INTERACTION_HEIGHT,
        "autosize": ACROSS,
        "usermeta": SVG,
        "title": {"text": f"Interaction diagram: the applied load {shown.standing}", "anchor": "start"},
        "layer": [
            {
                "data": {"values": [{"axial": 0}]},
                "mark": {"type": "rule", "color": ZERO, "strokeDash": [4, 3]},
                "encoding": {"y": y},
            },
            {
                "data": {"values": line},
                "mark": {"type": "line", "interpolate": "linear"},
                "encoding": {"x": x, "y": y, "order": {"field": "order", "type": "quantitative"}, "color": colour},
            },
            {
                "data": load,
                "mark": {"type": "point", "filled": True, "size": 90, "shape": "diamond", "opacity": 1},
                "encoding": {"x": x, "y": y, "color": colour},
            },
            {
                "data": load,
                "mark": {"type": "text", "align": "left", "dx": 9, "dy": -9, "fontWeight": "bold"},
                "encoding": {"x": x, "y": y, "text": {"field": "label", "type": "nominal"}},
            },
        ],
    }


def section_spec(section: SectionDrawing) -> dict[str, Any]:
    """The section to scale: outline, stirrup or tie, and bars (y down from the top face)."""
    width, height, unit = section.width, section.height, section.unit
    pixels = SECTION_SIZE / max(width, height)  # one scale on both axes
    x = {
        "field": "x",
        "type": "quantitative",
        "title": f"width b = {length(width, unit)} (x from the left face, {unit})",
        "scale": {"domain": [0, width], "nice": False, "zero": False, "padding": 0},
    }
    y = {
        "field": "y",
        "type": "quantitative",
        "title": f"height h = {length(height, unit)} (y down from the top face, {unit})",
        "scale": {"domain": [0, height], "nice": False, "zero": False, "padding": 0, "reverse": True},
    }
    box = {"x": x, "x2": {"field": "x2"}, "y": y, "y2": {"field": "y2"}}
    outline = {"type": "rect", "fill": CONCRETE, "stroke": EDGE, "strokeWidth": 1.5}
    layers: list[dict[str, Any]] = [
        {"data": {"values": [{"x": 0, "x2": width, "y": 0, "y2": height}]}, "mark": outline, "encoding": box}
    ]
    if section.stirrup_diameter > 0:
        inset = section.cover + section.stirrup_diameter / 2  # the stirrup's centre line
        thickness = max(section.stirrup_diameter * pixels, 0.75)
        stirrup = {"type": "rect", "filled": False, "stroke": EDGE, "strokeWidth": thickness, "cornerRadius": thickness}
        corners = {"x": inset, "x2": width - inset, "y": inset, "y2": height - inset}
        layers.append({"data": {"values": [corners]}, "mark": stirrup, "encoding": box})
    bars = [
        {"x": bar.x, "y": bar.y, "diameter": bar.diameter, "size": (bar.diameter * pixels) ** 2} for bar in section.bars
    ]
    layers.append(
        {
            "data": {"values": bars},
            "mark": {"type": "point", "shape": "circle", "filled": True, "color": STEEL, "opacity": 1},
            # a symbol's size is the area of its bounding square in pixels: the bar's diameter squared, unscaled
            "encoding": {"x": x, "y": y, "size": {"field": "size", "type": "quantitative", "scale": None}},
        }
    )
    return {
        "width": round(width * pixels, 3),
        "height": round(height * pixels, 3),
        "autosize": TO_SCALE,
        "usermeta": SVG,
        "title": {"text": section_title(section), "anchor": "start"},
        "layer": layers,
    }
