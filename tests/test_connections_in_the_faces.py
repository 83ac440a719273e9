"""Welds and bolts end to end: the scripted model calls the tool, and the web card, the CLI's check line and the
calculation report each show the demand, the strength, the ratio, the clause and OK/NG (AISC Design Examples
v16.0, J.1 and J.3); the steel designer has both tools, and an engineer's words bring them."""

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

WELD = (
    "fillet_weld_check",
    {"size": "3/16 in", "length": "27 in", "dead_load": "33 kip", "live_load": "100 kip", "welds": 2},
)
BOLT = (
    "bolt_check",
    {
        "diameter": "3/4 in", "grade": "A325", "bolts": 1, "shear_dead": "1.33 kip", "shear_live": "4 kip",
        "tension_dead": "3.5 kip", "tension_live": "12 kip",
    },
)  # fmt: skip
BOLT_QUESTION = "Is a 3/4 in A325-N bolt OK for 3.5 kip dead and 12 kip live tension with 1.33 and 4 kip shear?"


def test_the_web_card_shows_the_bolts_strength_ratio_and_clause(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(BOLT), Reply.text("Yes: Tu = 23.4 kips against φRn = 25.4 kips."))
    app.run()
    app.chat_input(key="question").set_value(BOLT_QUESTION).run()
    assert not app.exception
    table = app.table[0].value
    shown = dict(zip(table["result"].tolist(), table["value"].tolist(), strict=True))
    assert shown["required_tension"] == "23.4 kip" and shown["design_tension"] == "25.44 kip"
    assert shown["ratio"] == "0.920" and shown["verdict"] == "OK"
    lines = [m.value.replace("\\", "") for m in app.markdown if "φRn" in m.value]
    assert any(
        "**OK** · Tu ≤ φRn: bolt tension with shear: 23.4 kip ≤ limit 25.44 kip (ratio 0.920) · **governs**" in line
        and "AISC 360-22 J3.8 eq. J3-2, J3-3a" in line
        for line in lines
    ), lines
    warned = [w.value.replace("\\", "") for w in app.warning]
    assert any("Not checked: bearing and tear-out at the holes (J3.11)" in warning for warning in warned), warned
    verdicts = [m.value.replace("\\", "") for m in app.markdown if "Verdict" in m.value]
    assert any("OK for" in verdict and "only" in verdict for verdict in verdicts), verdicts


def test_the_cli_prints_the_welds_check_line_with_its_clause(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(WELD), Reply.text("The welds work."))
    question = "Are two 3/16 in fillet welds 27 in long OK for 33 kip dead and 100 kip live?"
    result = run_cli("--once", question, "--server", fake_ollama.url)
    assert result.returncode == 0, result.stderr
    assert "required_strength 199.6 kip · design_strength 205.7 kip · ratio 0.970" in result.stderr
    assert (
        "OK: Pu ≤ φRn: weld shear rupture (199.6 kip ≤ 205.7 kip) · ratio 0.970 "
        "[AISC 360-22 J2.4(a) eq. J2-4, J2-5; J2.2b(d)]" in result.stderr
    )


async def test_the_report_lists_the_connection_checks_with_their_clauses(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system", tool_context=None)
    spaces = Application(ChatHistoryDB(isolated / "chat_history.sqlite"), agent)
    spaces.workspaces.create("Bracing connections")
    fake_ollama.script(Reply.tool_calls(WELD, BOLT), Reply.text("Both work."))
    async for _ in spaces.turns.ask("Check the gusset's welds and the bolt."):
        pass
    chat = spaces.workspaces.current
    assert chat is not None
    report = calculation_report(chat, spaces.turns.of(chat.chat_id), generated=datetime(2026, 11, 23, tzinfo=UTC))
    assert "## 1. `fillet_weld_check`" in report and "## 2. `bolt_check`" in report
    assert (
        "| Pu ≤ φRn: weld shear rupture | 199.6 kip | ≤ 205.7 kip | 0.970 | OK | "
        "AISC 360-22 J2.4(a) eq. J2-4, J2-5; J2.2b(d) |" in report
    )
    assert "| Vu ≤ φRn: bolt shear | 7.996 kip | ≤ 17.89 kip | 0.447 | OK | AISC 360-22 J3.7 eq. J3-1 |" in report
    assert "**Not checked:** bearing and tear-out at the holes (J3.11)" in report


def test_the_steel_designer_has_both_tools_and_an_engineers_words_bring_them() -> None:
    designer = load_agents().get("steel-designer")
    assert designer.tools is not None and {"fillet_weld_check", "bolt_check"} <= set(designer.tools)
    every = list(tool_specs)
    asked = {
        "Is a 5/16 fillet weld 16 in long each side enough for the gusset?": "fillet_weld_check",
        "How many bolts for a 102 kip splice, slip-critical class A?": "bolt_check",
        "Is the bolted splice adequate?": "bolt_check",
        "Is the welded bracket strong enough?": "fillet_weld_check",
        "Will the friction joint slip?": "bolt_check",
    }
    for question, tool in asked.items():
        assert tool in offered_tools(question, every), question
