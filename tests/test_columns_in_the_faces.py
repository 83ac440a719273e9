"""A column and a beam-column end to end: the scripted model calls the tool, and the web card, the command line and
the calculation report show the demand, the strength, the ratio, the clause and OK/NG; the steel designer agent
has both tools and a question about a column brings them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

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

COLUMN_QUESTION = "Is a W14x90 column OK, 30 ft, braced at mid-height about y, 140 kip dead and 420 kip live?"
COLUMN = (
    "steel_column_check",
    {
        "designation": "W14X90",
        "length": "30 ft",
        "dead_load": "140 kip",
        "live_load": "420 kip",
        "length_weak": "15 ft",
    },
)
BEAM_COLUMN_QUESTION = "Check a W14x99 beam-column, 14 ft: Pu = 400 kips, Mux = 250 kip-ft, Muy = 80 kip-ft."
BEAM_COLUMN = (
    "steel_beam_column_check",
    {
        "designation": "W14X99",
        "length": "14 ft",
        "axial_load": "400 kip",
        "moment_major": "250 kip*ft",
        "moment_minor": "80 kip*ft",
    },
)


def ask(at: AppTest, text: str) -> AppTest:
    return at.chat_input(key="question").set_value(text).run()


def shown_results(at: AppTest) -> dict[str, str]:
    table = at.table[0].value
    return dict(zip(table["result"].tolist(), table["value"].tolist(), strict=True))


def test_the_web_card_shows_the_column_check_with_its_clause(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(COLUMN), Reply.text("Yes: Pu = 840 kips against φcPn = 927 kips."))
    app.run()
    ask(app, COLUMN_QUESTION)
    assert not app.exception
    shown = shown_results(app)
    assert shown["required_axial"] == "840 kip" and shown["design_axial"] == "927.5 kip"
    assert shown["ratio"] == "0.906" and shown["governing_axis"] == "x-x (major)" and shown["slenderness"] == "58.6"
    lines = [m.value.replace("\\", "") for m in app.markdown if "φcPn" in m.value]
    assert any(
        "**OK** · Pu ≤ φcPn: flexural buckling about the major axis" in line
        and "840 kip ≤ limit 927.5 kip (ratio 0.906) · **governs** · AISC 360-22 E3 (E3-4, E3-2)" in line
        for line in lines
    ), lines


def test_the_web_card_shows_a_failing_beam_column_in_red(app: AppTest, fake_ollama: FakeOllama) -> None:
    failing = ("steel_beam_column_check", {**BEAM_COLUMN[1], "axial_load": "900 kip"})
    fake_ollama.script(Reply.tool_calls(failing), Reply.text("No, it fails H1-1a."))
    app.run()
    ask(app, "Does a W14x99 carry 900 kips with those moments?")
    assert shown_results(app)["verdict"] == "NG"
    red = [m.value.replace("\\", "") for m in app.markdown if ":red[" in m.value]
    assert any("**NG** · Pr/Pc + 8/9 (Mrx/Mcx + Mry/Mcy) ≤ 1.0" in line and "H1.1 eq. H1-1a" in line for line in red)


def test_the_cli_prints_the_column_and_beam_column_checks(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(COLUMN), Reply.text("It works."))
    result = run_cli("--once", COLUMN_QUESTION, "--server", fake_ollama.url)
    assert result.returncode == 0, result.stderr
    assert "required_axial 840 kip · design_axial 927.5 kip · ratio 0.906" in result.stderr
    assert "OK: Pu ≤ φcPn: flexural buckling about the major axis" in result.stderr
    assert "· ratio 0.906 · governs [AISC 360-22 E3 (E3-4, E3-2)]" in result.stderr
    fake_ollama.script(Reply.tool_calls(BEAM_COLUMN), Reply.text("It works."))
    result = run_cli("--once", BEAM_COLUMN_QUESTION, "--server", fake_ollama.url)
    assert result.returncode == 0, result.stderr
    assert "interaction_ratio 0.929 · equation AISC 360-22 eq. H1-1a" in result.stderr
    assert "OK: Pr/Pc + 8/9 (Mrx/Mcx + Mry/Mcy) ≤ 1.0 (Pr/Pc = 0.355 ≥ 0.2) (0.9295 ≤ 1)" in result.stderr
    assert "[AISC 360-22 F6.2 eq. F6-2]" in result.stderr


async def test_the_report_lists_the_checks_with_their_clauses(fake_ollama: FakeOllama, isolated: Path) -> None:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system", select_tools=True)  # as the application's agent
    spaces = Application(ChatHistoryDB(isolated / "chat_history.sqlite"), agent)
    spaces.workspaces.create("Level 1 columns")
    fake_ollama.script(Reply.tool_calls(COLUMN, BEAM_COLUMN), Reply.text("Both work."))
    async for _ in spaces.turns.ask(COLUMN_QUESTION):
        pass
    chat = spaces.workspaces.current
    assert chat is not None
    report = calculation_report(chat, spaces.turns.of(chat.chat_id), generated=datetime(2026, 11, 23, tzinfo=UTC))
    assert "## 1. `steel_column_check`" in report and "## 2. `steel_beam_column_check`" in report
    assert "| required_axial | 840 kip |" in report and "| interaction_ratio | 0.929 |" in report
    assert "| 840 kip | ≤ 927.5 kip | 0.906 | OK | AISC 360-22 E3 (E3-4, E3-2) |" in report
    assert "| 0.9295 | ≤ 1 | 0.929 | OK | AISC 360-22 H1.1 eq. H1-1a |" in report
    assert "- The loads are required strengths from a second-order analysis" in report


def test_the_steel_designer_has_both_tools_and_the_questions_bring_them(isolated: Path) -> None:
    designer = load_agents(isolated / "no-agents-here").profiles["steel-designer"]
    assert designer.tools is not None
    assert {"steel_column_check", "steel_beam_column_check"} <= set(designer.tools)
    everything = list(tool_specs)
    for question in (
        COLUMN_QUESTION,
        "Buckling resistance of an HEB 300 strut, 8 m, 900 kN axial compression?",
        "Is an HSS8x8x1/4 post OK for 12 ft with 40 kip dead and 60 kip live?",  # "post": a cue, not a name
    ):
        assert "steel_column_check" in offered_tools(question, everything), question
    for question in (
        BEAM_COLUMN_QUESTION,
        "Axial compression and bending interaction of an IPE 450?",
        "Combined axial and biaxial moments on a W14x99?",  # "combined", "biaxial": cues, not names
    ):
        assert "steel_beam_column_check" in offered_tools(question, everything), question


def test_the_descriptions_tell_a_small_model_when_to_reach_for_each_tool() -> None:
    cues: dict[str, str] = {
        "steel_column_check": "whenever asked if a column or strut carries a load",
        "steel_beam_column_check": "whenever a column carries moments",
    }
    for name, cue in cues.items():
        assert cue in tool_specs[name].description.lower()
