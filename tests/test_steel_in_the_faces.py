"""A steel question end to end: the scripted model calls the tool, and each face shows Mu, φMn, the ratio,
the clause and OK/NG; the calculation report carries the same checks with their clauses."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agent import AIAgent
from app.application import Application
from app.reports.exports import calculation_report
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.cli_helpers import run_cli

QUESTION = "Is a W18x50 OK for 35 ft with 0.45 kip/ft dead and 0.75 kip/ft live?"
CHECK = (
    "steel_beam_check",
    {"designation": "W18x50", "span": "35 ft", "dead_load": "0.45 kip/ft", "live_load": "0.75 kip/ft"},
)
FAILING = ("steel_beam_check", {**CHECK[1], "designation": "W12x26", "unbraced_length": "35 ft"})


def ask(at: AppTest, text: str) -> AppTest:
    return at.chat_input(key="question").set_value(text).run()


def test_the_web_card_shows_the_demand_the_strength_the_ratio_the_clause(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(CHECK), Reply.text("Yes: Mu = 266 kip·ft against φMn = 379 kip·ft."))
    app.run()
    ask(app, QUESTION)
    assert not app.exception
    table = app.table[0].value
    shown = dict(zip(table["result"].tolist(), table["value"].tolist(), strict=True))
    assert shown["required_moment"] == "266.4 kip·ft" and shown["design_moment"] == "378.7 kip·ft"
    assert shown["moment_ratio"] == "0.703" and shown["verdict"] == "OK"
    lines = [m.value.replace("\\", "") for m in app.markdown if "φMn" in m.value]
    assert any(
        "**OK** · Mu ≤ φMn: yielding: 266.4 kip·ft ≤ limit 378.7 kip·ft (ratio 0.703)" in line
        and "AISC 360-22 F2.1 eq. F2-1" in line
        for line in lines
    ), lines
    assert len(app.get("vega_lite_chart")) == 2  # shear and moment along the 35 ft span


def test_a_beam_that_fails_is_red_in_the_web_card(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(FAILING), Reply.text("No, it fails."))
    app.run()
    ask(app, "Is a W12x26 OK over 35 ft, braced at the ends only?")
    red = [m.value.replace("\\", "") for m in app.markdown if ":red[**NG**" in m.value]
    assert red and all("**NG**" in line and ("AISC 360-22" in line or "IBC 2021" in line) for line in red)
    assert any("lateral-torsional buckling" in line and "F2.2" in line for line in red), red


def test_the_cli_prints_the_check_with_its_ratio_and_clause(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(CHECK), Reply.text("Yes, it works."))
    result = run_cli("--once", QUESTION, "--server", fake_ollama.url)
    assert result.returncode == 0, result.stderr
    assert "required_moment 266.4 kip·ft" in result.stderr and "design_moment 378.7 kip·ft" in result.stderr
    assert (
        "OK: Mu ≤ φMn: yielding (266.4 kip·ft ≤ 378.7 kip·ft) · ratio 0.703 [AISC 360-22 F2.1 eq. F2-1]"
        in result.stderr
    )


def test_a_continuous_beam_prints_its_lists_in_support_order(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply.tool_calls(("continuous_beam", {"spans": ["6 m", "6 m"], "load": "10 kN/m"})), Reply.text("Done.")
    )
    result = run_cli("--once", "Support moment of a two-span beam, 6 m spans, 10 kN/m?", "--server", fake_ollama.url)
    assert result.returncode == 0, result.stderr
    assert "reactions 22.5 kN, 75 kN, 22.5 kN" in result.stderr
    assert "support_moments 0 kN·m, -45 kN·m, 0 kN·m" in result.stderr


async def test_the_report_lists_each_check_with_its_ratio_and_clause(fake_ollama: FakeOllama, isolated: Path) -> None:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system", tool_context=None)
    spaces = Application(ChatHistoryDB(isolated / "chat_history.sqlite"), agent)
    spaces.workspaces.create("Level 3 framing")
    fake_ollama.script(Reply.tool_calls(CHECK), Reply.text("It works."))
    async for _ in spaces.turns.ask(QUESTION):
        pass
    chat = spaces.workspaces.current
    assert chat is not None
    report = calculation_report(chat, spaces.turns.of(chat.chat_id), generated=datetime(2026, 11, 23, tzinfo=UTC))
    assert "## 1. `steel_beam_check`" in report
    assert "| check | value | limit | ratio | status | clause |" in report
    assert "| Mu ≤ φMn: yielding | 266.4 kip·ft | ≤ 378.7 kip·ft | 0.703 | OK | AISC 360-22 F2.1 eq. F2-1 |" in report
    assert (
        "| live-load deflection ≤ L/360 (governs) | 1.092 in | ≤ 1.167 in | 0.936 | OK | "
        "IBC 2021 Table 1604.3 (floor members) |" in report
    )


@pytest.mark.parametrize("name", ["section_properties", "steel_beam_check", "continuous_beam"])
def test_the_descriptions_tell_a_small_model_when_to_reach_for_each_tool(name: str) -> None:
    from tools import tool_specs

    description = tool_specs[name].description.lower()
    cue = {
        "section_properties": "never guess",
        "steel_beam_check": "whenever asked if a beam works",
        "continuous_beam": "two or more spans",
    }
    assert cue[name] in description


LONG = ("steel_beam_check", {**CHECK[1], "span": "500 m"})
LONG_SPAN_WARNING = "The span of 500 m is longer than any single beam span in practice"


def test_a_warning_is_shown_above_the_web_card(app: AppTest, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(LONG), Reply.text("It fails."))
    app.run()
    ask(app, "Is a W18x50 OK over 500 m?")
    warnings = [w.value.replace("\\", "") for w in app.warning]
    assert any(LONG_SPAN_WARNING in text for text in warnings), warnings


def test_the_cli_prints_the_warning(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(LONG), Reply.text("It fails."))
    result = run_cli("--once", "Is a W18x50 OK over 500 m?", "--server", fake_ollama.url)
    assert result.returncode == 0, result.stderr
    assert f"Warning: {LONG_SPAN_WARNING}" in result.stderr


async def test_the_report_carries_the_warning(fake_ollama: FakeOllama, isolated: Path) -> None:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system", tool_context=None)
    spaces = Application(ChatHistoryDB(isolated / "chat_history.sqlite"), agent)
    spaces.workspaces.create("Long span")
    fake_ollama.script(Reply.tool_calls(LONG), Reply.text("It fails."))
    async for _ in spaces.turns.ask("Is a W18x50 OK over 500 m?"):
        pass
    chat = spaces.workspaces.current
    assert chat is not None
    report = calculation_report(chat, spaces.turns.of(chat.chat_id), generated=datetime(2026, 11, 23, tzinfo=UTC))
    assert f"**Warning:** {LONG_SPAN_WARNING}" in report
