"""Calculation cards: formula, results, design checks with their ratios, and a beam's diagrams.

A failed check is red and says by how much it fails; the governing check (the highest
ratio of value to limit) comes first. Diagrams are Vega-Lite specs drawn over exactly
the span, with the peak of each labelled.
"""

from __future__ import annotations

import math
import re
from typing import Any

import streamlit as st

from app.formatting import pretty_units, result_text
from faces.web.markdown import escape_markdown

DIAGRAM_HEIGHT = 180
LABEL_ROOM = 18  # pixels above and below the curve, for the peak's label
_AMOUNT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")
_DIAGRAMS = (("shear", "V"), ("moment", "M"))


def calculation_card(data: dict[str, Any]) -> None:
    """Warnings first, formula with the numbers in, results with units, checks, reference, and a beam's diagrams."""
    for warning in data.get("warnings", []):
        st.warning(escape_markdown(warning))
    if data.get("formula"):
        st.caption("Formula")
        st.code(data["formula"], language=None, wrap_lines=True)
    if data.get("substituted"):
        st.code(pretty_units(data["substituted"]), language=None, wrap_lines=True)
    results = data.get("results", {})
    st.table({"result": list(results), "value": [result_text(value) for value in results.values()]})
    checks = governing_first(data.get("checks", []))
    for check in checks:
        st.markdown(check_line(check, governs=len(checks) > 1 and check is checks[0]))
    for line in ([data["reference"]] if data.get("reference") else []) + data.get("notes", []):
        st.caption(escape_markdown(line))
    if data.get("diagram"):
        diagrams(data["diagram"])


def _amount(text: str) -> tuple[float, str] | None:
    """ "31.25 mm" → (31.25, "mm")."""
    match = _AMOUNT.match(text)
    return (float(match.group(1)), match.group(2)) if match else None


def ratio(check: dict[str, Any]) -> float | None:
    """How much of its limit the check uses (over 1: it fails); None when value and limit do not compare."""
    if isinstance(check.get("ratio"), int | float):
        return float(check["ratio"])
    value, limit = _amount(str(check.get("value", ""))), _amount(str(check.get("limit", "")))
    if value is None or limit is None or value[1] != limit[1]:
        return None
    at_least = "≥" in str(check.get("name", ""))  # a minimum: the ratio is limit / value
    numerator, denominator = (limit[0], value[0]) if at_least else (value[0], limit[0])
    return numerator / denominator if denominator else None


def failed(check: dict[str, Any]) -> bool:
    return check.get("status") != "OK"


def governing_first(checks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Failed checks before passed ones, each by its ratio, highest first."""
    return sorted(checks, key=lambda check: (not failed(check), -(ratio(check) or 0.0)))


def check_line(check: dict[str, Any], governs: bool = False) -> str:
    """`:red[NG · deflection ≤ L/360: 31.25 mm > limit 16.67 mm (ratio 1.88)]`, or a plain OK line."""
    minimum = "≥" in str(check.get("name", ""))
    sign = ("<" if minimum else ">") if failed(check) else ("≥" if minimum else "≤")
    share = ratio(check)
    text = (
        f"**{escape_markdown(str(check.get('status', '?')))}** · {escape_markdown(str(check.get('name', '')))}: "
        f"{escape_markdown(pretty_units(str(check.get('value', ''))))} {sign} "
        f"limit {escape_markdown(pretty_units(str(check.get('limit', ''))))}"
        + (f" (ratio {share:.2f})" if share is not None else "")
        + (" · **governs**" if governs else "")
        + (f" · {escape_markdown(str(check['clause']))}" if check.get("clause") else "")
    )
    return f":material/cancel: :red[{text}]" if failed(check) else f":material/check_circle: {text}"


def diagrams(diagram: dict[str, Any]) -> None:
    """Shear and bending-moment diagrams along the span."""
    for key, symbol in _DIAGRAMS:
        unit = pretty_units(str(diagram[f"{key}_unit"]).replace("*", " * "))
        spec = diagram_spec(diagram["x"], diagram[key], str(diagram["x_unit"]), symbol, unit)
        st.vega_lite_chart(spec=spec, width="stretch")


def span_ticks(span: float) -> list[float]:
    """Round tick values along the span, ending at the span itself (so its end is labelled)."""
    if span <= 0 or not math.isfinite(span):
        return [0.0]
    raw = span / 6
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    inner = [round(i * step, 9) for i in range(math.ceil(span / step)) if i * step <= span - 0.4 * step]
    return [*inner, span]


def peak(xs: list[float], values: list[float]) -> tuple[float, float]:
    """Where the magnitude is largest (the first such point), and the value there."""
    index = max(range(len(values)), key=lambda i: abs(values[i]))
    return xs[index], values[index]


def diagram_spec(xs: list[float], values: list[float], x_unit: str, symbol: str, unit: str) -> dict[str, Any]:
    """A Vega-Lite line over exactly [0, span] with its peak marked and labelled ("max |M| = 54 kN·m")."""
    span = xs[-1]
    at, top = peak(xs, values)
    label = f"max |{symbol}| = {abs(top):.4g} {unit}"
    align = "left" if at < 0.25 * span else "right" if at > 0.75 * span else "center"
    x = {
        "field": "x",
        "type": "quantitative",
        "title": f"x ({x_unit})",
        "scale": {"domain": [0, span], "nice": False, "zero": False, "padding": 0},
        "axis": {"values": span_ticks(span), "format": ".4~g"},  # 7.5 as 7.5, not rounded to the step
    }
    y = {"field": "y", "type": "quantitative", "title": f"{symbol} ({unit})", "scale": {"padding": LABEL_ROOM}}
    point = {"values": [{"x": at, "y": top, "label": label}]}
    return {
        "height": DIAGRAM_HEIGHT,
        "usermeta": {"embedOptions": {"renderer": "svg"}},  # axes and labels readable in the page
        "encoding": {"x": x, "y": y},
        "layer": [
            {  # Vega sorts by x stably: the two values at a point load keep their order, and draw the jump
                "data": {"values": [{"x": a, "y": b} for a, b in zip(xs, values, strict=True)]},
                "mark": {"type": "line", "interpolate": "linear"},
            },
            {"data": point, "mark": {"type": "point", "filled": True, "size": 50}},
            {
                "data": point,
                "mark": {"type": "text", "align": align, "dy": -10 if top >= 0 else 14, "fontWeight": "bold"},
                "encoding": {"text": {"field": "label", "type": "nominal"}},
            },
        ],
    }
