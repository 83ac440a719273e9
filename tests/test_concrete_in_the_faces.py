"""Concrete questions end to end: the scripted model calls the tools, and the web card, the command line and the
calculation report show the demand, the strength, the ratio, the clause and OK/NG; the stored record keeps the
column's interaction curve and the beam's section for the faces to draw; the concrete designer agent has the tools
and the words engineers use bring them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agent import AIAgent
from app.agents import load_agents
from app.application import Application
from app.reports.exports import calculation_report
from engine.tool_selection import offered_tools
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.cli_helpers import run_cli
from tools import tool_specs

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


def ask(at: AppTest, text: str) -> AppTest:
    return at.chat_input(key="question").set_value(text).run()


def test_the_web_card_shows_the_beam_check_with_its_clause(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(BEAM), Reply.text("Yes: φMn = 274.5 kip·ft."))
    app.run()
    ask(app, BEAM_QUESTION)
    assert not app.exception
    table = app.table[0].value
    shown = dict(zip(table["result"].tolist(), table["value"].tolist(), strict=True))
    assert shown["design_moment"] == "274.5 kip·ft" and shown["phi"] == "0.900" and shown["verdict"] == "OK"
    lines = [m.value.replace("\\", "") for m in app.markdown if "φMn" in m.value]
    assert any("**OK** · Mu ≤ φMn (tension-controlled, φ = 0.900)" in line for line in lines), lines
    assert any("ACI 318-19 22.2, 21.2.2" in line for line in lines), lines


def test_the_cli_prints_the_column_check_with_its_ratio_and_clause(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(COLUMN), Reply.text("It works."))
    result = run_cli("--once", COLUMN_QUESTION, "--server", fake_ollama.url)
    assert result.returncode == 0, result.stderr
    assert "design_moment_at_axial 250.8 kip·ft" in result.stderr
    assert "[ACI 318-19 22.4, 21.2.2]" in result.stderr and "OK: Pu ≤ φPn,max = 0.80 φ Po" in result.stderr


async def test_the_report_and_the_stored_record_keep_the_checks_and_the_drawings(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system", select_tools=True)
    spaces = Application(ChatHistoryDB(isolated / "chat_history.sqlite"), agent)
    spaces.workspaces.create("Level 2 concrete")
    fake_ollama.script(Reply.tool_calls(BEAM, COLUMN), Reply.text("Both work."))
    async for _ in spaces.turns.ask(BEAM_QUESTION):
        pass
    chat = spaces.workspaces.current
    assert chat is not None
    turns = spaces.turns.of(chat.chat_id)
    report = calculation_report(chat, turns, generated=datetime(2026, 11, 23, tzinfo=UTC))
    assert "## 1. `concrete_beam_check`" in report and "## 2. `concrete_column_check`" in report
    assert "| design_moment | 274.5 kip·ft |" in report
    assert (
        "| Mu ≤ φMn (tension-controlled, φ = 0.900) | 250 kip·ft | ≤ 274.5 kip·ft | 0.911 | OK "
        "| ACI 318-19 22.2, 21.2.2 |" in report
    )
    stored = {call.name: call.calculation for call in turns[-1].tool_calls}
    beam, column = stored["concrete_beam_check"], stored["concrete_column_check"]
    assert beam is not None and beam.section is not None and len(beam.section.bars) == 4
    assert column is not None and column.interaction is not None
    assert column.interaction.applied_axial == pytest.approx(271) and column.interaction.moment_unit == "kip * ft"
    assert "crack widths" in beam.not_checked and "biaxial bending (the moment is about one axis)" in column.not_checked


def test_the_concrete_designer_has_the_tools_and_the_questions_bring_them(isolated: Path) -> None:
    designer = load_agents(isolated / "no-agents-here").profiles["concrete-designer"]
    assert designer.tools is not None
    names = {"concrete_beam_check", "concrete_column_check", "punching_shear_check", "development_length"}
    assert names <= set(designer.tools)
    everything = list(tool_specs)
    for question, tool in (
        (BEAM_QUESTION, "concrete_beam_check"),
        ("What rebar does a 200 mm slab need for 20 kN·m per metre, C30/37?", "concrete_beam_check"),
        (COLUMN_QUESTION, "concrete_column_check"),
        ("Punching shear at an interior column of a 250 mm flat slab, 600 kN?", "punching_shear_check"),
        ("Lap length of H20 bars in C30/37?", "development_length"),
        ("Anchorage of #8 bars into a 4000 psi footing?", "development_length"),
    ):
        assert tool in offered_tools(question, everything), question


@pytest.mark.parametrize(
    ("name", "cue"),
    [
        ("concrete_beam_check", "whenever asked if a concrete beam or slab"),
        ("concrete_column_check", "whenever asked if a concrete column"),
        ("punching_shear_check", "whenever asked about punching"),
        ("development_length", "whenever asked for a development, anchorage, hook or lap length"),
    ],
)
def test_the_descriptions_tell_a_small_model_when_to_reach_for_each_tool(name: str, cue: str) -> None:
    assert cue in tool_specs[name].description.lower()
