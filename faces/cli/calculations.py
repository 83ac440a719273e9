"""The terminal's layout of a calculation: short lines, each with its ANSI style.

Warnings first (in yellow: an input far outside practice), then the substitution (or the formula), the results, each
check with its ratio and clause (the governing one first, a failed one in red), the verdict with what it covers, what
was not checked, and the reference. The text itself is `app.presentation.calculation`'s, as every face's is.
"""

from __future__ import annotations

from app.presentation.calculation import PresentedCheck, present
from domain.calculations import CalcResult

DIM, WARNING, FAILED = "2", "33", "31"


def calculation_lines(result: CalcResult) -> list[tuple[str, str]]:
    """A calculation result as (style, line) pairs: warnings, formula or substitution, results, checks, verdict,
    what was not checked, reference."""
    shown = present(result)
    lines = [(WARNING, f"Warning: {warning}") for warning in shown.warnings]
    if shown.substituted or shown.formula:
        lines.append((DIM, shown.substituted or shown.formula))
    if shown.results:
        lines.append((DIM, " · ".join(f"{item.name} {item.value}" for item in shown.results)))
    lines += [(DIM if check.passed else FAILED, check_line(check)) for check in shown.checks]
    if shown.verdict_line:
        lines.append((DIM if shown.verdict == "OK" else FAILED, f"Verdict: {shown.verdict_line}"))
    if shown.not_checked:
        lines.append((WARNING, f"Not checked: {'; '.join(shown.not_checked)}"))
    if shown.reference:
        lines.append((DIM, f"[{shown.reference}]"))
    return lines


def check_line(check: PresentedCheck) -> str:
    """ "NG: deflection ≤ L/360 (50.62 mm > 16.67 mm) · ratio 3.037 · governs [IBC 2021 Table 1604.3]"."""
    ratio = f" · ratio {check.ratio}" if check.ratio else ""
    governs = " · governs" if check.governs else ""
    clause = f" [{check.clause}]" if check.clause else ""
    return f"{check.status}: {check.name} ({check.value} {check.relation} {check.limit}){ratio}{governs}{clause}"
