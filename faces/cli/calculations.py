"""The terminal's rendering of a calculation: short lines, each with its ANSI style.

Warnings first (in yellow: an input far outside practice), then the substitution (or the
formula), the results, each check with its ratio and clause (a failed one in red), and the reference.
"""

from __future__ import annotations

from app.formatting import pretty_units, result_text
from domain.calculations import CalcResult, Check

DIM, WARNING, FAILED = "2", "33", "31"


def calculation_lines(result: CalcResult) -> list[tuple[str, str]]:
    """A calculation result as (style, line) pairs: warnings, formula or substitution, results, checks, reference."""
    lines = [(WARNING, f"Warning: {warning}") for warning in result.warnings]
    if result.substituted:
        lines.append((DIM, pretty_units(result.substituted)))
    elif result.formula:
        lines.append((DIM, result.formula))
    results = " · ".join(f"{key} {result_text(value)}" for key, value in result.results.items())
    if results:
        lines.append((DIM, results))
    lines += [(DIM if check.passed else FAILED, check_line(check)) for check in result.checks]
    if result.reference:
        lines.append((DIM, f"[{result.reference}]"))
    return lines


def check_line(check: Check) -> str:
    """ "NG: deflection ≤ L/360 (50.62 mm vs 16.67 mm) · ratio 3.04 (304 %) [IBC 2021 Table 1604.3]"."""
    ratio = "" if check.ratio is None else f" · ratio {check.ratio:.2f} ({check.ratio:.0%})".replace("%", " %")
    clause = f" [{check.clause}]" if check.clause else ""
    return f"{check.status}: {check.name} ({pretty_units(check.value)} vs {pretty_units(check.limit)}){ratio}{clause}"
