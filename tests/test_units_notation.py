"""Quantities as engineers write them ("54 kN·m", "m³"), in tool results and in what the unit tools read back."""

from __future__ import annotations

import pytest

from tests.test_engineering import calculate
from tools import ToolContext, run_tool
from tools.units.reading import parse_quantity
from tools.units.showing import engineering_units


@pytest.mark.parametrize(
    ("pint_text", "engineers_text"),
    [
        ("54 kN * m", "54 kN·m"),
        ("12 kN / m", "12 kN/m"),
        ("4.8 m ** 3", "4.8 m³"),
        ("1.5 kN / m ** 2", "1.5 kN/m²"),
        ("8.5e7 mm ** 4", "8.5e7 mm⁴"),
        ("2 m ** -1", "2 m⁻¹"),
        ("x ** 0.5", "x ** 0.5"),
        ("(6 m)**2", "(6 m)²"),
    ],
)
def test_units_are_written_as_engineers_write_them_and_read_back(pint_text: str, engineers_text: str) -> None:
    assert engineering_units(pint_text) == engineers_text
    if not pint_text.startswith("x"):
        assert parse_quantity(engineers_text) == parse_quantity(pint_text)


@pytest.mark.parametrize("markdown", ["The root is **12**.", "**2** bays at **6 m**", "* a list\n  * item", "a *b* c"])
def test_markdown_in_a_models_text_is_not_taken_for_units(markdown: str) -> None:
    assert engineering_units(markdown) == markdown


def test_results_in_engineers_notation_are_read_back_by_the_unit_tools() -> None:
    moment = calculate("beam_analysis", span="6 m", load="12 kN/m").results["max_moment"]
    assert moment == "54 kN·m"
    converted = calculate("convert_units", quantity=moment, to_unit="kip·ft").results["result"]
    assert converted == "39.83 kip·ft"
    per_metre = calculate("evaluate_quantity", expression="54 kN·m/m * 2 m", result_unit="kN·m").results
    assert per_metre["result"] == "108 kN·m"
    area = calculate("convert_units", quantity="10 m²", to_unit="ft²").results["result"]
    assert area == "107.6 ft²"


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("0.45 k/ft", "0.45 kip/ft"),  # pint alone: Boltzmann's constant per foot
        ("10 kn/m", "10 kN/m"),  # pint alone: knots per metre
        ("10 KN/M", "10 kN/m"),  # pint alone: M is molar
        ("20 FT", "20 ft"),
        ("12 IN", "12 inch"),
        ("2 KIPS", "2 kip"),
        ("5 kips", "5 kip"),
        ("0.8 KLF", "0.8 kip/ft"),
        ("90.48 kNm", "90.48 kN*m"),  # pint alone: a length per mass
        ("250 kip-ft", "250 kip*ft"),
        ("3/16 in", "0.1875 inch"),  # not 3 divided by 16 inches
        ("1-3/8 in", "1.375 inch"),
        ("1 3/8 in", "1.375 inch"),
        ("1/2 kN/m", "0.5 kN/m"),
        ("20 FT 6 IN", "20.5 ft"),
        ("30 Mpa", "30 MPa"),
        ('3/4"', "0.75 inch"),
        ("3/4”", "0.75 inch"),  # the curly quote a word processor makes of an inch mark
        ("5/16″", "0.3125 inch"),  # the double prime
        ('1-1/8"', "1.125 inch"),
        ("20′-6″", "20.5 ft"),
        ("20’-6”", "20.5 ft"),
    ],
)
def test_quantities_are_read_as_engineers_type_them(written: str, meant: str) -> None:
    value, expected = parse_quantity(written), parse_quantity(meant)
    assert value.dimensionality == expected.dimensionality, f"{written} read as {value}"
    assert value.to(expected.units).magnitude == pytest.approx(expected.magnitude, rel=1e-12)


def test_a_unit_that_could_be_two_is_refused_with_a_sentence() -> None:
    outcome = run_tool("evaluate_quantity", {"expression": "5 K"}, ToolContext())
    assert outcome.error and "'K' could be kips or kelvin" in outcome.error and not outcome.crashed
    converted = calculate("convert_units", quantity="1 klf", to_unit="KN/M").results["result"]
    assert converted == "14.59 kN/m"
    moment = calculate("convert_units", quantity="250 kip-ft", to_unit="kN·m").results["result"]
    assert moment == "339 kN·m"
