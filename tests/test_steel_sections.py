"""`section_properties` against the published tables: shapes from the three systems, with their sources.

Sources of the expected figures:
- AISC: Steel Construction Manual, 16th edition (2023), Tables 1-1 (W), 1-5 (C), 1-7 (L), 1-12 (HSS),
  i.e. the AISC Shapes Database v16.0.
- European: ArcelorMittal, "Sections and Merchant Bars" sales programme (IPE, HE A/B).
- British: SCI P363, "Steel building design: design data" (the Blue Book), universal beams.
"""

from __future__ import annotations

import pytest

from tools import ToolContext, run_tool
from tools.steel import section_properties

# designation: (area, I_major, S_major, Z_major, mass_per_length) in the table's own units
AISC = {
    "W18X50": (14.7, 800, 88.9, 101, 50),
    "W24X62": (18.2, 1550, 131, 153, 62),
    "W14X90": (26.5, 999, 143, 157, 90),
    "W12X26": (7.65, 204, 33.4, 37.2, 26),
    "W21X44": (13.0, 843, 81.6, 95.4, 44),
    "W16X26": (7.68, 301, 38.4, 44.2, 26),
    "W10X33": (9.71, 171, 35.0, 38.8, 33),
    "W8X31": (9.13, 110, 27.5, 30.4, 31),
    "W14X22": (6.49, 199, 29.0, 33.2, 22),
    "C10X15.3": (4.48, 67.3, 13.5, 15.9, 15.3),
}
EUROPEAN = {
    "IPE 200": (28.48, 1943, 194.3, 220.6, 22.4),
    "IPE 300": (53.81, 8356, 557.1, 628.4, 42.2),
    "IPE 330": (62.61, 11770, 713.1, 804.3, 49.1),
    "IPE 400": (84.46, 23130, 1156, 1307, 66.3),
    "IPE 500": (115.5, 48200, 1928, 2194, 90.7),
    "HEA 200": (53.83, 3692, 388.6, 429.5, 42.3),
    "HEA 300": (112.5, 18260, 1260, 1383, 88.3),
    "HEB 200": (78.08, 5696, 569.6, 642.5, 61.3),
    "HEB 300": (149.1, 25170, 1678, 1869, 117),
}
BRITISH = {
    "UB 457x191x67": (85.5, 29400, 1300, 1470, 67.1),
    "UB 305x165x40": (51.3, 8500, 560, 623, 40.3),
    "UB 533x210x92": (117, 55200, 2070, 2360, 92.1),
    "UB 254x146x31": (39.7, 4410, 351, 393, 31.1),
    "UB 406x178x54": (69.0, 18700, 930, 1050, 54.1),
}
KEYS = ("area", "I_major", "S_major", "Z_major", "mass_per_length")


def number(text: str | list[str]) -> float:
    assert isinstance(text, str)
    return float(text.split()[0])


@pytest.mark.parametrize(("designation", "published"), AISC.items())
def test_aisc_shapes_carry_the_published_figures(designation: str, published: tuple[float, ...]) -> None:
    results = section_properties(designation).results
    for key, value in zip(KEYS, published, strict=True):
        assert number(results[key]) == pytest.approx(value, rel=0.005), key


@pytest.mark.parametrize(("designation", "published"), {**EUROPEAN, **BRITISH}.items())
def test_european_and_british_shapes_agree_with_their_catalogues(
    designation: str, published: tuple[float, ...]
) -> None:
    results = section_properties(designation).results
    for key, value in zip(KEYS, published, strict=True):
        assert number(results[key]) == pytest.approx(value, rel=0.01), key


# SCI P363 (the Blue Book), universal beams: mass per metre (kg/m) and plastic modulus Wpl,y (cm³), one section of
# each serial size whose root radius the tables once carried as 20 mm; BS 4-1:2005 gives the radius (mm).
BS4_ROOT_RADIUS = {
    "UB 914x305x201": (19.1, 200.9, 8350),
    "UB 838x292x176": (17.8, 175.9, 6810),
    "UB 762x267x147": (16.5, 146.9, 5160),
    "UB 686x254x125": (15.2, 125.2, 3990),
    "UB 610x305x149": (16.5, 149.2, 4590),
    "UB 610x229x125": (12.7, 125.1, 3680),
    "UB 533x210x92": (12.7, 92.1, 2360),
    "UB 457x191x67": (10.2, 67.1, 1470),
    "UB 305x165x40": (8.9, 40.3, 623),
    "UB 254x146x31": (7.6, 31.1, 393),
}


@pytest.mark.parametrize(("designation", "published"), BS4_ROOT_RADIUS.items())
def test_british_beams_take_the_root_radius_of_bs_4_1(designation: str, published: tuple[float, ...]) -> None:
    radius, mass, plastic = published
    results = section_properties(designation).results
    assert number(results["root_radius"]) == radius
    assert number(results["mass_per_length"]) == pytest.approx(mass, rel=0.003)
    assert number(results["Z_major"]) == pytest.approx(plastic, rel=0.003)


def test_w_shapes_are_not_listed_again_as_british_beams() -> None:
    outcome = run_tool("section_properties", {"designation": "UB 920x420x1377"}, ToolContext())
    assert outcome.error and "is not in the shape tables" in outcome.error  # it is the W36X925 (ASTM A6)
    assert section_properties("W36X925").results["designation"] == "W36X925"


def test_units_are_the_tables_own_and_the_reference_names_the_edition() -> None:
    w = section_properties("W18x50")
    assert w.results["I_major"] == "800 in⁴" and w.results["mass_per_length"] == "50 plf"
    assert w.reference is not None and "AISC Shapes Database v16.0" in w.reference
    ipe = section_properties("IPE300")
    assert ipe.results["I_major"].endswith("cm⁴") and ipe.results["depth"] == "300 mm"
    assert ipe.results["mass_per_length"].endswith("kg/m") and ipe.reference and "EN 10365" in ipe.reference


def test_every_spelling_of_a_designation_finds_the_same_shape() -> None:
    same = {section_properties(name).results["designation"] for name in ("W18X50", "W18x50", "w 18 x 50", "W18×50")}
    assert same == {"W18X50"}
    assert {section_properties(n).results["designation"] for n in ("IPE 300", "IPE300", "ipe 300")} == {"IPE 300"}
    assert section_properties("HE 300 A").results["designation"] == "HEA 300"
    assert section_properties("457x191x67 UB").results["designation"] == "UB 457x191x67"


@pytest.mark.parametrize(
    ("written", "designation"),
    [
        ("IPE-300", "IPE 300"),
        ("HE 200 B", "HEB 200"),
        ("HE-200-B", "HEB 200"),
        ("HSS6x6x0.25", "HSS6X6X1/4"),
        ("HSS6X6X.250", "HSS6X6X1/4"),  # AISC's EDI_Std_Nomenclature
        ("L4X4X0.5", "L4X4X1/2"),
        ("L6X3-1/2X1/2", "L6X3-1/2X1/2"),  # once stored as L6X3.1.2X1/2
        ("L6x3.5x0.5", "L6X3-1/2X1/2"),
        ("HSS5-1/2X5-1/2X3/8", "HSS5-1/2X5-1/2X3/8"),
        ("Pipe3/4STD", "PIPE3/4STD"),
        ("W18X50.0", "W18X50"),
        # AISC Shapes Database v16.0, its metric half (AISC_Manual_Label):
        ("W460x74", "W18X50"),
        ("W610X155", "W24X104"),
        ("HSS152.4X152.4X6.4", "HSS6X6X1/4"),
        ("L102X102X12.7", "L4X4X1/2"),
        ("C250X22.8", "C10X15.3"),
    ],
)
def test_a_section_is_found_however_engineers_write_it(written: str, designation: str) -> None:
    assert section_properties(written).results["designation"] == designation


def test_a_metric_name_is_given_and_a_clash_with_a_us_name_said() -> None:
    assert section_properties("W18X50").results["metric_designation"] == "W460X74"
    pipe = section_properties("Pipe20STD")  # the US 20 in pipe; AISC's metric Pipe20STD is the 3/4 in one
    assert pipe.results["designation"] == "PIPE20STD"
    assert any("also AISC's metric name of PIPE3/4STD" in note for note in pipe.notes)


def test_an_hss_weight_is_the_tables_nominal_figure_not_area_times_density() -> None:
    hss = section_properties("HSS6X6X1/4")  # Manual Table 1-12: 19.02 lb/ft, A = 5.24 in² (design wall 0.233 in)
    assert hss.results["mass_per_length"] == "19.02 plf" and hss.results["area"] == "5.24 in²"
    assert 5.24 * 490 / 144 != pytest.approx(19.02, rel=0.01)  # what area × density would have said: 17.8


# ArcelorMittal, "Sections and Merchant Bars" sales programme: Iz (cm⁴), It (cm⁴), Iw (cm⁶); It by the ECCS
# formula and Iw of the flanges, tf b³ (h − tf)² / 24, as that table computes them.
EUROPEAN_TORSION = {
    "IPE 200": (142.4, 6.98, 12990),
    "IPE 240": (283.6, 12.88, 37390),
    "IPE 300": (603.8, 20.12, 125900),
    "IPE 400": (1318, 51.08, 490000),
    "IPE 500": (2142, 89.29, 1249000),
    "HEA 200": (1336, 20.98, 108000),
    "HEA 300": (6310, 85.17, 1200000),
    "HEA 400": (8564, 189.0, 2942000),
    "HEB 300": (8563, 185.0, 1688000),
    "HEM 300": (19400, 1408, 4386000),
}
# SCI P363 (the Blue Book), universal beams: Iz (cm⁴), It (cm⁴), Iw (dm⁶ = 10⁶ cm⁶); It with the fillet
# correction of El Darwish and Johnston and Iw = Iz (h − tf)² / 4, as the Blue Book computes them.
BRITISH_TORSION = {
    "UB 914x305x201": (9420, 291, 18.4),
    "UB 762x267x197": (8170, 404, 11.3),
    "UB 686x254x152": (5780, 220, 6.42),
    "UB 610x229x125": (3930, 154, 3.45),
    "UB 533x210x92": (2390, 75.7, 1.60),
    "UB 457x191x67": (1450, 37.1, 0.705),
    "UB 356x171x67": (1360, 55.7, 0.412),
    "UB 254x146x31": (448, 8.55, 0.0660),
}


@pytest.mark.parametrize(("designation", "published"), EUROPEAN_TORSION.items())
def test_european_weak_axis_torsion_and_warping_reproduce_arcelormittal(
    designation: str, published: tuple[float, float, float]
) -> None:
    results = section_properties(designation).results
    for key, value in zip(("I_minor", "J", "warping_constant"), published, strict=True):
        assert number(results[key]) == pytest.approx(value, rel=0.002), key


@pytest.mark.parametrize(("designation", "published"), BRITISH_TORSION.items())
def test_british_weak_axis_torsion_and_warping_reproduce_the_blue_book(
    designation: str, published: tuple[float, float, float]
) -> None:
    results = section_properties(designation).results
    minor, torsion, warping = published
    assert number(results["I_minor"]) == pytest.approx(minor, rel=0.005)
    assert number(results["J"]) == pytest.approx(torsion, rel=0.005)
    assert number(results["warping_constant"]) == pytest.approx(warping * 1e6, rel=0.005)


def test_an_unknown_designation_names_the_nearest_and_invents_nothing() -> None:
    outcome = run_tool("section_properties", {"designation": "W18x51"}, ToolContext())
    assert outcome.error and "'W18x51' is not in the shape tables" in outcome.error
    assert "W18X50, W18X55" in outcome.error and outcome.calculation is None
    uc = run_tool("section_properties", {"designation": "UC 305x305x96"}, ToolContext())
    assert uc.error and "UC 305x305x97" in uc.error and "356x406" in uc.error
