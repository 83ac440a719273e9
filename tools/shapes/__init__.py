"""Rolled steel shapes: the published tables in `data/` (sources in `data/SOURCES.md`) read by `tables`, European and
British properties computed from dimensions by `rolled_i`, one view of an I shape for the codes (`member`) and of any
shape as a compression member (`column_section`)."""
