"""Steel: rolled shapes from the published tables and member checks to AISC 360-22 and EN 1993-1-1.

`tables` reads the shape tables in `data/` (sources in `data/SOURCES.md`); `rolled_i` computes
European and British properties from dimensions; `member` gives the design codes one view of an
I shape; `aisc360` and `en1993` hold the clauses, `moment_gradient` Cb and C1, `verdicts` the
segment-by-segment checks; `sections_and_checks` the section lookup and the beam check.
Columns: `column_section` (I, channel, HSS and pipe as compression members), `aisc_compression`
(AISC 360-22 E3, E4, E7) and `en_compression` (EN 1993-1-1 6.3.1), `columns` the column check;
beam-columns: `aisc_combined` (F6, H1.1) and `en_combined` (6.2.9, Annex B), `beam_column_checks`
the two code checks, `beam_columns` the tool; `column_inputs` (grades, lengths) and `readout`
(figures in the inputs' units) serve both.
"""

from tools.steel.beam_columns import steel_beam_column_check
from tools.steel.columns import steel_column_check
from tools.steel.sections_and_checks import section_properties, steel_beam_check

__all__ = ["section_properties", "steel_beam_check", "steel_beam_column_check", "steel_column_check"]
