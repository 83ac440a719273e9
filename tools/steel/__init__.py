"""Steel: rolled shapes from the published tables and member checks to AISC 360-22 and EN 1993-1-1.

`tables` reads the shape tables in `data/` (sources in `data/SOURCES.md`); `rolled_i` computes
European and British properties from dimensions; `member` gives the design codes one view of an
I shape; `aisc360` and `en1993` hold the clauses, `moment_gradient` Cb and C1, `verdicts` the
segment-by-segment checks; `sections_and_checks` the two tools the model calls.
"""

from tools.steel.sections_and_checks import section_properties, steel_beam_check

__all__ = ["TOOLS", "section_properties", "steel_beam_check"]

TOOLS = [section_properties, steel_beam_check]
