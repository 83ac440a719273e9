"""EN 1992-1-1:2004+A1:2014, one module per topic: `materials` (3.1, 3.2, 2.4.2.4), `flexure` (6.1, 9.2.1.1,
9.3.1.1, 5.6.3), `shear` (6.2.2, 6.2.3, 9.2.2), `axial` (6.1(4), 9.5.2), `punching` (6.4) and `anchorage`
(8.4, 8.7.3)."""
