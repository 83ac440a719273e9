"""Calculation cards: formula, results, design checks with their ratios, and a beam's diagrams.

A failed check is red and says by how much it fails; the governing check (the highest
ratio of value to limit) comes first.
"""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from app.formatting import pretty_units
from faces.web.markdown import escape_markdown

_AMOUNT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(.*?)\s*$")


def calculation_card(data: dict[str, Any]) -> None:
    """Formula with the numbers in, results with units, checks, reference, and a beam's diagrams."""
    if data.get("formula"):
        st.caption("Formula")
        st.code(data["formula"], language=None, wrap_lines=True)
    if data.get("substituted"):
        st.code(pretty_units(data["substituted"]), language=None, wrap_lines=True)
    results = data.get("results", {})
    st.table({"result": list(results), "value": [pretty_units(value) for value in results.values()]})
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
    )
    return f":material/cancel: :red[{text}]" if failed(check) else f":material/check_circle: {text}"


def diagrams(diagram: dict[str, Any]) -> None:
    """Shear and bending-moment diagrams along the span."""
    x = f"x ({diagram['x_unit']})"
    for key in ("shear", "moment"):
        column = f"{key} ({pretty_units(diagram[key + '_unit'].replace('*', ' * '))})"
        st.line_chart({x: diagram["x"], column: diagram[key]}, x=x, y=column, height=180)
