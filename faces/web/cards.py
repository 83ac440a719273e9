"""Calculation cards: formula, results, design checks with their ratios, and the drawings: a beam's diagrams, a
column's interaction diagram, a concrete section with its bars.

A failed check is red and says by how much it fails; the governing check (the highest ratio
of value to limit) comes first; the text is `app.presentation.calculation`'s, as every face's is. Diagrams are Vega-Lite
specs drawn over exactly the span, with the peak of each labelled; the concrete charts are
`faces.web.concrete_charts`'.
"""

from __future__ import annotations

import math
from typing import Any

import streamlit as st

from app.presentation.calculation import PresentedCheck, present
from app.presentation.formatting import pretty_units
from app.presentation.interaction import PresentedInteraction, curve_problem
from app.presentation.sections import section_problem
from domain.calculations import CalcResult, Diagram, SectionDrawing
from faces.web.concrete_charts import interaction_spec, section_spec
from faces.web.markdown import escape_markdown

DIAGRAM_HEIGHT = 180
LABEL_ROOM = 18  # pixels above and below the curve, for the peak's label


def calculation_card(result: CalcResult) -> None:
    """Warnings first, formula with the numbers in, results with units, checks (the governing one first), the
    verdict with what it covers, what was not checked, reference, and the drawings."""
    shown = present(result)
    for warning in shown.warnings:
        st.warning(escape_markdown(warning))
    if shown.formula:
        st.caption("Formula")
        st.code(shown.formula, language=None, wrap_lines=True)
    if shown.substituted:
        st.code(shown.substituted, language=None, wrap_lines=True)
    st.table({"result": [item.name for item in shown.results], "value": [item.value for item in shown.results]})
    for check in shown.checks:
        st.markdown(check_line(check))
    if shown.verdict_line:
        st.markdown(verdict_line(shown.verdict_line, shown.verdict == "OK"))
    if shown.not_checked:
        st.warning(escape_markdown(f"Not checked: {'; '.join(shown.not_checked)}"))
    for line in ([shown.reference] if shown.reference else []) + list(shown.notes):
        st.caption(escape_markdown(line))
    if shown.diagram:
        diagrams(shown.diagram)
    if shown.interaction:
        interaction_chart(shown.interaction)
    if shown.section:
        section_chart(shown.section)


def check_line(check: PresentedCheck) -> str:
    """`:red[NG · deflection ≤ L/360: 31.25 mm > limit 16.67 mm (ratio 1.875)]`, or a plain OK line."""
    text = (
        f"**{check.status}** · {escape_markdown(check.name)}: "
        f"{escape_markdown(check.value)} {check.relation} limit {escape_markdown(check.limit)}"
        + (f" (ratio {check.ratio})" if check.ratio else "")
        + (" · **governs**" if check.governs else "")
        + (f" · {escape_markdown(check.clause)}" if check.clause else "")
    )
    return f":material/check_circle: {text}" if check.passed else f":material/cancel: :red[{text}]"


def verdict_line(text: str, passed: bool) -> str:
    """ "**Verdict:** OK for bolt shear and tension only", red when it fails."""
    line = f"**Verdict:** {escape_markdown(text)}"
    return line if passed else f":red[{line}]"


def diagrams(diagram: Diagram) -> None:
    """Shear and bending-moment diagrams along the span."""
    for values, symbol, unit in ((diagram.shear, "V", diagram.shear_unit), (diagram.moment, "M", diagram.moment_unit)):
        spec = diagram_spec(diagram.x, values, diagram.x_unit, symbol, pretty_units(unit.replace("*", " * ")))
        st.vega_lite_chart(spec=spec, width="stretch")


def interaction_chart(interaction: PresentedInteraction) -> None:
    """A column's design curve with the applied load, or the sentence saying why it is not drawn."""
    problem = curve_problem(interaction.curve)
    if problem:
        st.caption(escape_markdown(f"The interaction diagram is not drawn: {problem}."))
    else:
        st.vega_lite_chart(spec=interaction_spec(interaction), width="stretch")


def section_chart(section: SectionDrawing) -> None:
    """A concrete section to scale with its bars, or the sentence saying why it is not drawn."""
    problem = section_problem(section)
    if problem:
        st.caption(escape_markdown(f"The section is not drawn: {problem}."))
    else:
        st.vega_lite_chart(spec=section_spec(section), width="content")


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
