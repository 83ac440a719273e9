"""Steel members to AISC 360-22 and EN 1993-1-1: the tools the model calls.

The shapes come from `tools.shapes`, the clauses from `tools.codes`. `sections_and_checks` holds the section lookup
and the beam check (segment-by-segment verdicts in `verdicts`, Cb and C1 in `moment_gradient`); `columns` the column
check; `beam_column_checks` the two codes' beam-column checks and `beam_columns` the tool; `column_inputs` (grades,
lengths) and `readout` (figures in the inputs' units) serve them all.
"""

from tools.steel.beam_columns import steel_beam_column_check
from tools.steel.columns import steel_column_check
from tools.steel.sections_and_checks import section_properties, steel_beam_check

__all__ = ["section_properties", "steel_beam_check", "steel_beam_column_check", "steel_column_check"]
