"""Inputs far outside practice: the result is still computed, and carries a warning that says what is unusual.

A typing slip ("500 m" for "5.00 m", K = 0.01 for 1.0) gives a number that looks like an
answer; these warnings make the engineer look at the input before trusting it.
"""

from __future__ import annotations

MAX_SPAN_M = 100.0  # longer than building and most bridge girders span in one piece
MAX_ROLLED_SPAN_TO_DEPTH = 40.0  # rolled beams are used at about 10 to 30
MIN_ROLLED_SPAN_TO_DEPTH = 3.0  # shorter, the member is a deep beam or a bracket, not a beam
MIN_EFFECTIVE_LENGTH_FACTOR = 0.5  # both ends fixed (AISC 360-22 Commentary Table C-A-7.1, theoretical)
MAX_EFFECTIVE_LENGTH_FACTOR = 3.0  # past a flagpole (2.0) or a sway frame with flexible beams


def span_warnings(span_m: float, shown: str) -> list[str]:
    """A warning when a span is longer than any single span in buildings; `shown` is the span as given."""
    if span_m > MAX_SPAN_M:
        return [
            f"The span of {shown} is longer than any single beam span in practice (over {MAX_SPAN_M:g} m): "
            "check the number and its unit."
        ]
    return []


def rolled_span_warnings(span_m: float, depth_m: float, shown: str, designation: str) -> list[str]:
    """A warning when a rolled beam's span is far outside the span-to-depth ratios it is used at."""
    ratio = span_m / depth_m
    if ratio > MAX_ROLLED_SPAN_TO_DEPTH:
        return [
            f"The span of {shown} is {ratio:.0f} times the depth of {designation}; rolled beams are used at span/depth "
            f"of about 10 to 30 (over {MAX_ROLLED_SPAN_TO_DEPTH:g} is far outside practice): check the span and "
            "the section."
        ]
    if ratio < MIN_ROLLED_SPAN_TO_DEPTH:
        return [
            f"The span of {shown} is only {ratio:.1f} times the depth of {designation}: a member this short is a deep "
            "beam or a bracket, which these beam clauses do not describe; check the span and the section."
        ]
    return []


def effective_length_warnings(factor: float) -> list[str]:
    """A warning when an effective-length factor K lies outside what any support condition gives."""
    if factor < MIN_EFFECTIVE_LENGTH_FACTOR:
        return [
            f"K = {factor:g} is below {MIN_EFFECTIVE_LENGTH_FACTOR:g}, the value for a column fixed at both ends "
            "(AISC 360-22 Commentary Table C-A-7.1): no support condition gives less; check K."
        ]
    if factor > MAX_EFFECTIVE_LENGTH_FACTOR:
        return [
            f"K = {factor:g} is above {MAX_EFFECTIVE_LENGTH_FACTOR:g}: more than a flagpole (2.0) or most sway frames; "
            "check K."
        ]
    return []
