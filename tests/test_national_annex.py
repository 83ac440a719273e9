"""`national_annex="UK"` on the three steel member tools and on the plies of `bolt_check`: fy and fu by thickness from
BS EN 10025-2 (Tables 7 and 8), as the UK National Annex to EN 1993-1-1 (NA.2.4) and SCI P363 (the Blue Book) take
them: S355 345 MPa for 16 < t ≤ 40 mm, fu 470 MPa; S275 fu 410 MPa. Without an annex, EN 1993-1-1 Table 3.1: S355
355 MPa up to 40 mm, S275 fu 430 MPa."""

from __future__ import annotations

import pytest

from tests.test_engineering import calculate
from tools import ToolContext, run_tool


@pytest.mark.parametrize(("tool", "arguments"), [
    ("steel_column_check", {"designation": "HE 300 B", "length": "4 m", "dead_load": "500 kN", "live_load": "300 kN"}),
    ("steel_beam_check", {"designation": "HE 300 B", "span": "6 m", "dead_load": "10 kN/m", "live_load": "10 kN/m"}),
    ("steel_beam_column_check", {"designation": "HE 300 B", "length": "4 m", "axial_load": "500 kN",
                                 "moment_major": "100 kN*m"}),
])  # fmt: skip
def test_uk_annex_takes_345_mpa_for_a_19_mm_flange(tool: str, arguments: dict[str, str]) -> None:
    """HE 300 B: tf = 19 mm. BS EN 10025-2 Table 7: S355, 16 < t ≤ 40 mm: ReH = 345 MPa (Table 3.1: 355 MPa)."""
    uk = calculate(tool, **arguments, code="EN1993", national_annex="UK")
    recommended = calculate(tool, **arguments, code="EN1993")
    assert "fy = 345 MPa" in str(uk.results["grade"]) and "fy = 355 MPa" in str(recommended.results["grade"])
    assert any("BS EN 10025-2" in note for note in uk.notes)


@pytest.mark.parametrize(("annex", "published"), [(None, 89), ("UK", 89 * 410 / 430)])
def test_the_ply_takes_fu_of_its_annex(annex: str | None, published: float) -> None:
    """SBiE's fin plate (fu = 430 MPa, Table 3.1): Fb,ver,Rd = 89 kN; with the UK annex fu = 410 MPa (BS EN 10025-2
    Table 8), Fb,Rd scales with fu while αb stays at e1/(3d0): 89 × 410/430 = 84.9 kN (hand-derived)."""
    result = calculate("bolt_check", diameter="M20 8.8", grade="", bolts=10, columns=2, shear_dead="100 kN",
                       shear_live="0 kN", code="EN1993", spacing="70 mm", gauge="60 mm", end_distance="40 mm",
                       edge_distance="50 mm", ply_thickness="10 mm", ply_grade="S275", eccentricity="80 mm",
                       national_annex=annex)  # fmt: skip
    assert float(str(result.results["design_bearing_end"]).split()[0]) == pytest.approx(published, rel=0.01)


def test_an_unknown_annex_is_refused_with_a_sentence() -> None:
    arguments = {"designation": "IPE 300", "length": "3 m", "dead_load": "10 kN", "live_load": "10 kN",
                 "code": "EN1993", "national_annex": "Narnia"}  # fmt: skip
    outcome = run_tool("steel_column_check", arguments, ToolContext())
    assert outcome.error and "national_annex 'Narnia' is not one these checks know" in outcome.error
