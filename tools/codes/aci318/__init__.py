"""ACI 318-19, one module per chapter or topic: `materials` (19.2, 20.2, 21.2, 22.2.2), `flexure` (9.3.3, 9.6.1,
7.6.1), `shear` (22.5, 9.6.3, 9.7.6), `axial` (22.4, 10.6.1), `two_way_shear` (22.6, 8.4.2, 8.4.4) and
`development` (25.4.2, 25.4.3, 25.5.2)."""
