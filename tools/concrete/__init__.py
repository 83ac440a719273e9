"""Reinforced concrete design to ACI 318-19 and EN 1992-1-1: the beam and one-way slab check (`beams`, with
`beam_aci` and `beam_en`), the column check (`columns`, with `column_codes`, `column_layout` and `interaction`),
punching shear (`punching`) and development and lap lengths (`development`). What they read from the model's text
is in `bars` and `materials` (bar sizes from `bar_tables`), the section's geometry in `section`, strain
compatibility in `strain_compatibility`, and figures written in the inputs' units by `readout`. The clauses are in
`tools.codes.aci318` and `tools.codes.en1992`."""

from tools.concrete.beams import concrete_beam_check
from tools.concrete.columns import concrete_column_check
from tools.concrete.development import development_length
from tools.concrete.punching import punching_shear_check

__all__ = ["concrete_beam_check", "concrete_column_check", "development_length", "punching_shear_check"]
