"""Quantities as engineers write them ("54 kN·m", "m³"), in tool results and in what the unit tools read back."""

from __future__ import annotations

import pytest

from tests.test_engineering import calculate
from tools.quantity_text import engineering_units
from tools.units import parse_quantity


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
    moment = calculate("beam_analysis", span="6 m", load="12 kN/m")["results"]["max_moment"]
    assert moment == "54 kN·m"
    converted = calculate("convert_units", quantity=moment, to_unit="kip·ft")["results"]["result"]
    assert converted == "39.83 kip·ft"
    per_metre = calculate("evaluate_quantity", expression="54 kN·m/m * 2 m", result_unit="kN·m")["results"]
    assert per_metre["result"] == "108 kN·m"
    area = calculate("convert_units", quantity="10 m²", to_unit="ft²")["results"]["result"]
    assert area == "107.6 ft²"
