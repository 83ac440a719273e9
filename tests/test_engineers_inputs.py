"""Inputs as engineers write them (issue 34): read right, or refused with one sentence, never read as something else.

The UC rows are checked against the Blue Book's (SCI P363) areas and radii of gyration as steelcalculator.app's "UK
Universal Column Guide" reproduces them (152x152 and 203x203 series), UC 254x254x73 against the Blue Book's
A = 93.1 cm², iy = 11.1 cm, and the heavier series against the Blue Book's A, iy and iz as a public column designer
transcribes them (github, a JavaScript "steelSection()" table of every UC; see tools/shapes/data/SOURCES.md)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_engineering import calculate
from tools import ToolContext, run_tool
from tools.shapes.tables import find_shape
from tools.units.reading import parse_quantity


@pytest.mark.parametrize(("written", "area", "iy", "iz"), [
    ("UC 152x152x23", 29.2, 6.54, 3.70), ("152x152x30 UKC", 38.3, 6.76, 3.82), ("UC152x152x37", 47.1, 6.85, 3.87),
    ("UC 152x152x44", 56.1, 6.93, 3.91), ("UC 152x152x51", 64.9, 7.00, 3.95), ("UC 203x203x46", 58.7, 8.82, 5.13),
    ("UC 203x203x52", 66.3, 8.90, 5.17), ("UC 203x203x60", 76.4, 8.96, 5.19), ("203x203x71 UC", 90.4, 9.17, 5.30),
    ("UC 203x203x86", 110, 9.27, 5.34), ("UC 203x203x100", 127, 9.38, 5.39), ("254x254x73 UKC", 93.1, 11.1, None),
    ("UC 254x254x89", 113, 11.2, 6.55), ("UC 254x254x107", 136, 11.3, 6.59), ("UC 254x254x132", 168, 11.6, 6.69),
    ("UC 254x254x167", 213, 11.9, 6.81), ("305x305x97 UKC", 123, 13.4, 7.69), ("UC 305x305x118", 150, 13.6, 7.77),
    ("UC 305x305x137", 174, 13.7, 7.83), ("UC 305x305x158", 201, 13.9, 7.90), ("UC 305x305x198", 252, 14.2, 8.04),
    ("UC 305x305x240", 306, 14.5, 8.15), ("UC 305x305x283", 360, 14.8, 8.27), ("UC 356x368x129", 164, 15.6, 9.43),
    ("UC 356x368x153", 195, 15.8, 9.49), ("UC 356x368x177", 226, 15.9, 9.54), ("UC 356x368x202", 257, 16.1, 9.60),
    ("UC 356x406x235", 299, 16.3, 10.2), ("UC 356x406x287", 366, 16.5, 10.3), ("UC 356x406x340", 433, 16.8, 10.4),
    ("UC 356x406x393", 501, 17.1, 10.5), ("UC 356x406x467", 595, 17.5, 10.7), ("UC 356x406x551", 702, 18.0, 10.9),
    ("356x406x634 UKC", 808, 18.4, 11.0),
])  # fmt: skip
def test_british_columns_agree_with_the_blue_book(written: str, area: float, iy: float, iz: float | None) -> None:
    properties = find_shape(written).properties
    mass = properties["mass_per_length"]
    assert mass == pytest.approx(float(written.split("x")[2].split()[0]), rel=0.01), "the serial mass, kg/m"
    assert properties["area"] == pytest.approx(area, rel=0.01)
    assert properties["r_major"] == pytest.approx(iy, rel=0.01)
    if iz is not None:
        assert properties["r_minor"] == pytest.approx(iz, rel=0.01)


@pytest.mark.parametrize(("written", "meant"), [
    ("54 kN.m", "54 kN*m"), ("35 ft.", "35 ft"), ("355 N/mm2", "355 MPa"), ("5 kN/m2", "5 kPa"),
    ("8356 cm4", "8356 cm**4"),
])  # fmt: skip
def test_units_as_engineers_write_them(written: str, meant: str) -> None:
    value, expected = parse_quantity(written), parse_quantity(meant)
    assert value.to(expected.units).magnitude == pytest.approx(expected.magnitude)


@pytest.mark.parametrize(("tool", "arguments", "key", "expected"), [
    ("steel_column_check", {"designation": "W14X90 A992", "length": "30 ft", "dead_load": "140 kip",
                            "live_load": "420 kip", "length_weak": "15 ft"}, "grade", "A992 (Fy = 50 ksi)"),
    ("steel_beam_check", {"designation": "IPE 300 S275", "span": "6 m", "dead_load": "5 kN/m", "live_load": "5 kN/m",
                          "code": "EN1993"}, "grade", "S275 (fy = 275 MPa)"),
    ("steel_beam_check", {"designation": "533x210x92 UKB", "span": "8 m", "dead_load": "20 kN/m",
                          "live_load": "20 kN/m", "code": "BS EN 1993-1-1", "grade": "ASTM A992"}, "grade",
     "A992 (fy = 344.7 MPa)"),
    ("steel_column_check", {"designation": "254x254x73 UKC", "length": "4 m", "dead_load": "600 kN",
                            "live_load": "400 kN", "code": "EN1993"}, "grade", "S355 (fy = 355 MPa)"),
    ("bolt_check", {"diameter": "M20 8.8", "grade": "", "bolts": 2, "shear_dead": "20 kN", "shear_live": "20 kN",
                    "code": "EN1993", "shear_planes": "double"}, "bolts",
     "2 × M20 class 8.8 (fub = 800 MPa), 2 shear plane(s), threads included"),
    ("bolt_check", {"diameter": "3/4 in", "grade": "A325-X", "bolts": 2, "shear_dead": "10 kip",
                    "shear_live": "10 kip"}, "bolts",
     "2 × 3/4 in Group 120 (A325), 1 shear plane(s), threads excluded"),
    ("bolt_check", {"diameter": "3/4 in", "grade": "A325", "bolts": 2, "shear_dead": "10 kip", "shear_live": "10 kip",
                    "slip_class": "SC-B"}, "governing", "slip (Class B, standard holes)"),
])  # fmt: skip
def test_arguments_as_engineers_write_them(tool: str, arguments: dict[str, Any], key: str, expected: str) -> None:
    assert calculate(tool, **arguments).results[key] == expected


@pytest.mark.parametrize(("tool", "arguments", "sentence"), [
    ("convert_units", {"quantity": "50 t", "to_unit": "kN"}, "'t' could be tonnes of mass or tonnes-force"),
    ("steel_column_check", {"designation": "W14X90", "length": "30 ft", "dead_load": "140 kip", "live_load": "40 kip",
                            "length_weak": "0 ft"}, "reads as braced continuously about the weak axis"),
    ("steel_column_check", {"designation": "W14X90 A992", "length": "30 ft", "dead_load": "140 kip",
                            "live_load": "40 kip", "grade": "A36"}, "names the grade A992 but grade is 'A36'"),
    ("bolt_check", {"diameter": "M20 8.8", "grade": "10.9", "bolts": 2, "shear_dead": "20 kN", "shear_live": "20 kN",
                    "code": "EN1993"}, "names class 8.8 but grade is '10.9'"),
    ("bolt_check", {"diameter": "M20", "grade": "8.8", "bolts": 2, "shear_dead": "20 kN", "shear_live": "20 kN",
                    "code": "EN1993", "shear_planes": "many"}, "shear_planes must be 1 (single shear) or 2"),
    ("bolt_check", {"diameter": "M20", "grade": "8.8", "bolts": 5, "columns": 2, "shear_dead": "20 kN",
                    "shear_live": "20 kN", "code": "EN1993"}, "columns must divide bolts"),
    ("bolt_check", {"diameter": "M20", "grade": "8.8", "bolts": 2, "shear_dead": "20 kN", "shear_live": "20 kN",
                    "code": "EN1993", "ply_grade": "S355"}, "ply_grade was given without ply_thickness"),
    ("bolt_check", {"diameter": "M20", "grade": "8.8", "bolts": 4, "columns": 2, "shear_dead": "20 kN",
                    "shear_live": "20 kN", "code": "EN1993", "spacing": "70 mm", "eccentricity": "80 mm"},
     "give spacing (between rows) and, for more than one line, gauge"),
    ("bolt_check", {"diameter": "M20", "grade": "8.8", "bolts": 2, "shear_dead": "20 kN", "shear_live": "20 kN",
                    "code": "EN1993", "ply_thickness": "10 mm", "ply_grade": "S999"}, "ply_grade 'S999' is not one"),
])  # fmt: skip
def test_inputs_that_cannot_be_read_right_are_refused(tool: str, arguments: dict[str, Any], sentence: str) -> None:
    outcome = run_tool(tool, arguments, ToolContext())
    assert outcome.error and sentence in outcome.error and not outcome.crashed, outcome.error
