"""The design codes' clauses, one package per code and one module per chapter or topic, one function per clause
with its number in the docstring (as structuralcodes keeps them). Figures in SI base units (m, Pa, N) in and out;
the tools convert what the model sends and write what the engineer reads.

`aisc360` (AISC 360-22: `strength` φ and Ω, `flexure` F2, F3 and G2.1, `compression` E3, E4 and E7, `combined`
F6 and H1.1, `connections` J2 and J3), `en1993_1_1` (EN 1993-1-1: `resistance` 6.2 and 6.3.2, `compression` 6.3.1,
`combined` 6.2.9 and Annex B), `en1993_1_8` (EN 1993-1-8: `joints` 3 and 4), `aci318` (ACI 318-19: `materials`,
`flexure`, `shear`, `axial`, `two_way_shear`, `development`) and `en1992` (EN 1992-1-1: `materials`, `flexure`,
`shear`, `axial`, `punching`, `anchorage`).
"""
