"""The concrete tools' drawings wherever a calculation is shown: the web card draws a column's interaction diagram
(the applied load where the result puts it, and whether it lies inside the curve) and the section with its bars
where the record has them; the package draws both as vectors on the calculation's sheet, a signed one too; the
Markdown report lists the curve's key points and the bars; the terminal keeps to its check lines."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from statistics import mean
from typing import Any

import pypdfium2.raw as pdfium
import pytest
from streamlit.testing.v1 import AppTest

from app.packages.content import sheet
from app.packages.records import package_calculations
from app.presentation.calculation import present
from app.reports.exports import calculation_report
from domain.calculations import CalcResult, SectionDrawing
from domain.packages import Signer
from domain.records import ToolCall
from faces.cli.calculations import calculation_lines
from faces.web.concrete_charts import INSIDE, OUTSIDE, interaction_spec
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.package_helpers import ask, object_kinds, pages, service, text_of
from tools.concrete import concrete_beam_check, concrete_column_check

COLUMN_QUESTION = "Check a 16 x 16 in column with 8 #9, 5000 psi, for Pu = 271 kips and Mu = 200 kip-ft."
COLUMN = (
    "concrete_column_check",
    {
        "width": "16 in",
        "height": "16 in",
        "bars": "8 #9",
        "concrete": "5000 psi",
        "steel": "Grade 60",
        "axial_load": "271 kip",
        "moment": "200 kip*ft",
        "effective_depth": "13.5 in",
    },
)
BEAM_QUESTION = "Is a 12 x 24 in beam with 4 #8 bars OK for Mu = 250 kip-ft, 4000 psi, Grade 60?"
BEAM = (
    "concrete_beam_check",
    {
        "width": "12 in",
        "height": "24 in",
        "tension_bars": "4 #8",
        "concrete": "4000 psi",
        "steel": "Grade 60",
        "moment": "250 kip*ft",
        "shear": "40 kip",
        "stirrups": "#3 @ 10 in",
    },
)
OVERLOADED = {  # a column the load lies outside of (EN 1992, interaction ratio 1.088)
    "width": "300 mm",
    "height": "500 mm",
    "bars": "12H25",
    "concrete": "C30/37",
    "steel": "B500B",
    "axial_load": "3000 kN",
    "moment": "450 kN*m",
    "code": "EN1992",
    "layout": "four faces",
}
INSIDE_TITLE = "the applied load lies inside the design curve (ratio 0.832 at its eccentricity)"
COLUMN_SECTION = "Section 16 × 16 in: 8 bars Ø 1.128 in, ties or stirrups Ø 0.375 in, clear cover 1.5 in"
BEAM_SECTION = "Section 12 × 24 in: 4 bars Ø 1 in, ties or stirrups Ø 0.375 in, clear cover 1.5 in"


def ask_web(at: AppTest, text: str) -> AppTest:
    return at.chat_input(key="question").set_value(text).run()


def layer(spec: dict[str, Any], mark: str, index: int = 0) -> dict[str, Any]:
    return [item for item in spec["layer"] if item["mark"]["type"] == mark][index]


def check_section_spec(spec: dict[str, Any], section: SectionDrawing) -> None:
    """Bars where the drawing puts them, to scale, one scale on both axes, dimensions in the axis titles."""
    bars = layer(spec, "point")
    drawn = bars["data"]["values"]
    assert len(drawn) == len(section.bars)
    assert [(b["x"], b["y"], b["diameter"]) for b in drawn] == [(b.x, b.y, b.diameter) for b in section.bars]
    pixels = spec["width"] / section.width
    assert spec["height"] / section.height == pytest.approx(pixels), "one scale on both axes"
    assert all(b["size"] == pytest.approx((b["diameter"] * pixels) ** 2) for b in drawn), "bars to scale"
    assert bars["encoding"]["size"]["scale"] is None
    x, y = bars["encoding"]["x"], bars["encoding"]["y"]
    assert x["scale"]["domain"] == [0, section.width] and y["scale"]["domain"] == [0, section.height]
    assert y["scale"]["reverse"], "y down from the top face"
    assert x["title"] == f"width b = {section.width:g} {section.unit} (x from the left face, {section.unit})"
    assert y["title"].startswith(f"height h = {section.height:g} {section.unit}")
    outline, stirrup = layer(spec, "rect", 0)["data"]["values"][0], layer(spec, "rect", 1)["data"]["values"][0]
    assert outline == {"x": 0, "x2": section.width, "y": 0, "y2": section.height}
    inset = section.cover + section.stirrup_diameter / 2
    assert stirrup == {"x": inset, "x2": section.width - inset, "y": inset, "y2": section.height - inset}


def test_a_column_card_plots_the_applied_load_on_its_curve_and_draws_its_bars(
    app: AppTest, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(Reply.tool_calls(COLUMN), Reply.text("It works."))
    app.run()
    ask_web(app, COLUMN_QUESTION)
    assert not app.exception
    result = concrete_column_check(**COLUMN[1])
    assert result.interaction is not None and result.section is not None
    curve, drawn = (json.loads(chart.proto.spec) for chart in app.get("vega_lite_chart"))
    (applied,) = layer(curve, "point")["data"]["values"]
    assert (applied["moment"], applied["axial"]) == (
        result.interaction.applied_moment,
        result.interaction.applied_axial,
    )
    line = layer(curve, "line")
    assert [(p["moment"], p["axial"]) for p in line["data"]["values"]] == list(
        zip(result.interaction.moment, result.interaction.axial, strict=True)
    )
    assert line["encoding"]["x"]["title"] == "moment M (kip·ft)"
    assert line["encoding"]["y"]["title"] == "axial load P, compression positive (kip)"
    assert curve["title"]["text"] == f"Interaction diagram: {INSIDE_TITLE}"
    assert layer(curve, "text")["data"]["values"][0]["label"] == "(200 kip·ft, 271 kip)"
    assert line["encoding"]["color"]["scale"] == {
        "domain": ["design curve", "applied load, inside"],
        "range": ["#1f3a5f", INSIDE],
    }
    assert drawn["title"]["text"] == COLUMN_SECTION
    check_section_spec(drawn, result.section)


def test_a_beam_card_draws_its_section_to_scale_and_no_curve(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(BEAM), Reply.text("Yes."))
    app.run()
    ask_web(app, BEAM_QUESTION)
    assert not app.exception
    (spec,) = (json.loads(chart.proto.spec) for chart in app.get("vega_lite_chart"))
    section = concrete_beam_check(**BEAM[1]).section
    assert section is not None and spec["title"]["text"] == BEAM_SECTION
    assert spec["height"] == pytest.approx(2 * spec["width"]), "12 × 24 in keeps its proportions"
    check_section_spec(spec, section)


@pytest.mark.parametrize(("arguments", "inside"), [(COLUMN[1], True), (OVERLOADED, False)])
def test_the_presentation_carries_the_drawings_and_measures_the_load_as_the_tool_does(
    arguments: dict[str, str], inside: bool
) -> None:
    result = concrete_column_check(**arguments)
    shown = present(result)
    assert shown.interaction is not None and shown.interaction.curve == result.interaction
    assert shown.section == result.section and shown.diagram is None
    ratio = next(check.ratio for check in result.checks if "eccentricity" in check.name)
    assert ratio is not None and (ratio <= 1) is inside
    assert shown.interaction.inside is inside and shown.interaction.ratio == pytest.approx(ratio, abs=5e-4)
    where = "inside" if inside else "outside"
    assert shown.interaction.standing == f"lies {where} the design curve (ratio {ratio:.3f} at its eccentricity)"
    beam = present(concrete_beam_check(**BEAM[1]))
    assert beam.interaction is None and beam.section is not None and len(beam.section.bars) == 4


def test_a_load_outside_the_curve_is_said_in_red() -> None:
    shown = present(concrete_column_check(**OVERLOADED)).interaction
    assert shown is not None
    spec = interaction_spec(shown)
    assert spec["title"]["text"] == (
        "Interaction diagram: the applied load lies outside the design curve (ratio 1.088 at its eccentricity)"
    )
    assert layer(spec, "point")["encoding"]["color"]["scale"]["range"][1] == OUTSIDE
    assert layer(spec, "line")["encoding"]["x"]["title"] == "moment M (kN·m)"


async def test_a_signed_package_draws_the_curve_and_the_sections_on_their_sheets(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat = spaces.workspaces.create("Level 2 concrete")
    fake_ollama.script(Reply.tool_calls(COLUMN, BEAM), Reply.text("Both work."))
    await ask(spaces, COLUMN_QUESTION)
    spaces.packages.sign_off(chat.chat_id, "checked", Signer(name="Ben Checker"))
    spaces.packages.sign_off(chat.chat_id, "approved", Signer(name="Cara Approver"))
    signed = spaces.packages.pdf(chat.chat_id)
    assert signed.issued
    texts = pages(signed.data)
    first = next(i for i, text in enumerate(texts) if "1. concrete_column_check Asked" in text)
    second = next(i for i, text in enumerate(texts) if "2. concrete_beam_check Asked" in text)
    column, beam = " ".join(texts[first:second]), " ".join(texts[second:])
    assert f"Interaction diagram P–M: {INSIDE_TITLE}" in column
    assert "◆ applied: M = 200 kip·ft, P = 271 kip" in column
    assert "M (kip·ft)" in column and "P (kip), compression positive" in column
    assert COLUMN_SECTION in column and "b = 16 in" in column and "h = 16 in" in column
    assert BEAM_SECTION in beam and "b = 12 in" in beam and "h = 24 in" in beam and "Interaction" not in beam
    assert pdfium.FPDF_PAGEOBJ_PATH in object_kinds(signed.data)


async def test_the_package_s_drawings_put_the_bars_and_the_load_where_the_record_does(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat = spaces.workspaces.create("Level 2 concrete")
    fake_ollama.script(Reply.tool_calls(COLUMN), Reply.text("It works."))
    await ask(spaces, COLUMN_QUESTION)
    (found,), _ = package_calculations(spaces.turns.of(chat.chat_id))
    record = found.record
    assert record is not None and record.section is not None and record.interaction is not None
    curve, section = sheet(1, found).drawings
    assert not curve.problem and not section.problem
    scale = section.width / record.section.width
    assert section.height / record.section.height == pytest.approx(scale), "one scale on both axes"
    discs = [shape.points for shape in section.shapes if shape.kind == "polygon" and shape.style == "mark"]
    assert len(discs) == len(record.section.bars) == 8
    for disc, bar in zip(discs, record.section.bars, strict=True):
        centre = (mean(x for x, _ in disc), mean(y for _, y in disc))
        assert centre == pytest.approx((bar.x * scale, bar.y * scale), abs=0.01)
        assert max(x for x, _ in disc) - min(x for x, _ in disc) == pytest.approx(bar.diameter * scale, abs=0.01)
    (diamond,) = [shape.points for shape in curve.shapes if shape.kind == "polygon" and shape.style == "mark"]
    line = next(shape.points for shape in curve.shapes if shape.style == "curve")
    tension, cap = line[0], line[-1]  # (0, -432 kip) and (0, 797.68 kip)
    centre = (mean(x for x, _ in diamond), mean(y for _, y in diamond))
    per_kip = (tension[1] - cap[1]) / (record.interaction.axial[-1] - record.interaction.axial[0])
    assert centre[1] == pytest.approx(cap[1] + (797.68 - 271) * per_kip, abs=0.01)
    assert tension[0] == cap[0] == 0


async def test_a_drawing_that_cannot_be_made_says_why_and_the_sheet_is_there(
    fake_ollama: FakeOllama, isolated: Path, app: AppTest
) -> None:
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    chat = store.create_chat("Odd record")
    curve = {"axial": [1.0], "moment": [0.0], "axial_unit": "kN", "moment_unit": "kN*m"}
    section = {"width": 300, "height": 500, "unit": "mm", "bars": [{"x": 400, "y": 50, "diameter": 20}]}
    data = {
        "results": {"pure_bending": "120 kN * m"},
        "interaction": {**curve, "applied_axial": 900.0, "applied_moment": 40.0},
        "section": section,
    }
    call = ToolCall(
        id="call_1",
        name="concrete_column_check",
        arguments={"width": "300 mm"},
        output="{}",
        calculation=CalcResult.model_validate(data),
    )
    store.add_to_history(chat, "Column?", "Done.", tool_calls=[call], asked_by="Ana")
    text = text_of(service(fake_ollama, isolated).packages.pdf(chat).data)
    assert "The interaction diagram is not drawn: its record has fewer than two points." in text
    assert "The section is not drawn: a bar lies outside it." in text
    assert "pure_bending 120 kN·m" in text
    app.run()
    assert not app.exception and not app.get("vega_lite_chart")
    captions = [caption.value.replace("\\", "") for caption in app.caption]
    assert "The interaction diagram is not drawn: its record has fewer than two points." in captions
    assert "The section is not drawn: a bar lies outside it." in captions


async def test_the_report_lists_the_curve_s_key_points_and_the_bars(fake_ollama: FakeOllama, isolated: Path) -> None:
    spaces = service(fake_ollama, isolated)
    chat = spaces.workspaces.create("Level 2 concrete")
    fake_ollama.script(Reply.tool_calls(COLUMN, BEAM), Reply.text("Both work."))
    await ask(spaces, COLUMN_QUESTION)
    report = calculation_report(chat, spaces.turns.of(chat.chat_id), generated=datetime(2026, 11, 23, tzinfo=UTC))
    column, beam = report.split("## 2. `concrete_beam_check`")
    assert (
        "**Interaction diagram** (design values, compression positive)\n\n"
        "| point | moment | axial load |\n|---|---|---|\n"
        "| pure tension | 0 kip·ft | -432 kip |\n"
        "| pure bending | 213.9 kip·ft | 0 kip |\n"
        "| balance | 250.8 kip·ft | 270.9 kip |\n"
        "| compression cap | 0 kip·ft | 797.7 kip |\n"
        "| applied load | 200 kip·ft | 271 kip |\n\n"
        f"The applied load {INSIDE_TITLE.removeprefix('the applied load ')}.\n" in column
    )
    assert (
        f"**{COLUMN_SECTION}**\n\n"
        "| bars | depth from the top face | from the left face |\n|---|---|---|\n"
        "| 4 Ø 1.128 in | 2.5 in | 2.439, 6.146, 9.854, 13.56 in |\n"
        "| 4 Ø 1.128 in | 13.5 in | 2.439, 6.146, 9.854, 13.56 in |\n" in column
    )
    assert f"**{BEAM_SECTION}**" in beam and "| 4 Ø 1 in | 21.62 in | 2.375, 4.792, 7.208, 9.625 in |" in beam
    assert "Interaction diagram" not in beam


def test_the_terminal_keeps_to_its_check_lines_governing_first_then_the_verdict() -> None:
    lines = [line for _, line in calculation_lines(concrete_column_check(**COLUMN[1]))]
    checks = [line for line in lines if line.startswith(("OK: ", "NG: "))]
    assert checks[0].startswith("OK: (Pu, Mu) inside (φPn, φMn) at the same eccentricity (0.8317 ≤ 1) · ratio 0.832")
    assert "· governs" in checks[0] and not any("governs" in line for line in checks[1:])
    verdict = lines.index("Verdict: OK for axial load with uniaxial bending of the section, and its longitudinal steel")
    assert verdict == lines.index(checks[-1]) + 1
    assert not any(word in line for line in lines for word in ("Interaction diagram", "Section ", "applied load"))
