"""Calculations in the record: the report, the CLI's lines and the web app's calculation cards."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agent import AIAgent
from app.application import Application
from app.reports.exports import calculation_report
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB

ROOT = Path(__file__).resolve().parents[1]
BEAM = (
    "beam_analysis",
    {"span": "6 m", "load": "12 kN/m", "elastic_modulus": "200 GPa", "moment_of_inertia": "8.5e7 mm**4"},
)
COMBINATION = ("load_combination", {"dead": "10 kN/m", "live": "5 kN/m"})


async def ask(spaces: Application, question: str) -> None:
    async for _ in spaces.turns.ask(question):
        pass


@pytest.fixture
def spaces(fake_ollama: FakeOllama, isolated: Path) -> Application:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system", tool_context=None)
    service = Application(ChatHistoryDB(isolated / "chat_history.sqlite"), agent)
    service.workspaces.create("Tower A — transfer beam TB3")
    return service


async def test_report_lists_each_calculation_in_order_with_its_question(
    spaces: Application, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(
        Reply.tool_calls(COMBINATION),
        Reply.text("Use 20 kN/m."),
        Reply.tool_calls(BEAM, ("evaluate_expression", {"expression": "9**9**9"})),
        Reply.text("54 kN·m."),
        Reply.tool_calls(("read_file", {"path": "nothing.txt"})),
        Reply.text("No file."),
    )
    await ask(spaces, "Factored load on TB3 for D = 10, L = 5 kN/m?")
    await ask(spaces, "Moment and deflection of TB3 over 6 m?")
    await ask(spaces, "Read nothing.txt")
    chat = spaces.workspaces.current
    assert chat is not None
    report = calculation_report(chat, spaces.turns.of(chat.chat_id), generated=datetime(2026, 11, 22, tzinfo=UTC))
    assert report.startswith("# Calculation report: Tower A — transfer beam TB3")
    assert "generated 2026-11-22 00:00 UTC · model qwen3:4b" in report
    first, second = report.index("## 1. `load_combination`"), report.index("## 2. `beam_analysis`")
    assert first < second and "## 3." not in report, "file tools and failed calls are not calculations"
    assert "> Factored load on TB3 for D = 10, L = 5 kN/m?" in report[first:second]
    assert "| 1.2D + 1.6L | 20 kN/m | 20 kN/m |" in report
    beam = report[second:]
    assert "> Moment and deflection of TB3 over 6 m?" in beam
    assert '| span | "6 m" |' in beam and "**Formula:** M = wL²/8; δ = 5wL⁴/(384EI)" in beam
    assert "**Substituted:** M = wL²/8 = 12 kN/m × (6 m)²/8 = 54 kN·m" in beam
    assert "| max_deflection | 11.91 mm | 11.9117647059 mm |" in beam
    assert "| deflection ≤ L/360 | 11.91 mm | ≤ 16.67 mm | 0.715 | OK | IBC 2021 Table 1604.3 (floor members) |" in beam
    assert "**Reference:** AISC Steel Construction Manual" in beam
    assert "1 tool calls that ended in an error are not listed" in report


async def test_cli_shows_the_substitution_and_writes_the_report(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.tool_calls(BEAM), Reply.text("The moment is 54 kN·m."))
    script = "/new TB3\nMoment of TB3?\n/report tb3.md\n/exit\n"
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--server", fake_ollama.url],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ},
    )
    assert result.returncode == 0, result.stderr
    assert "→ beam_analysis(span='6 m', load='12 kN/m'" in result.stdout
    assert "    M = wL²/8 = 12 kN/m × (6 m)²/8 = 54 kN·m" in result.stdout
    assert "OK: deflection ≤ L/360 (11.91 mm ≤ 16.67 mm)" in result.stdout
    assert "Wrote the calculation report to tb3.md." in result.stdout
    assert "## 1. `beam_analysis`" in (isolated / "tb3.md").read_text()


def test_web_app_shows_a_calculation_card_with_the_beam_diagrams(
    fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    fake_ollama.script(Reply.tool_calls(BEAM), Reply.text("54 kN·m."))
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=20).run()
    app.chat_input(key="question").set_value("Moment of TB3?").run()
    assert not app.exception
    (assistant,) = [m for m in app.chat_message if m.name == "assistant"]
    codes = [c.value for c in assistant.code]
    assert "M = wL²/8 = 12 kN/m × (6 m)²/8 = 54 kN·m" in codes
    table = assistant.table[0].value
    assert list(table["result"]) == ["reaction_left", "reaction_right", "max_shear", "max_moment", "max_deflection"]
    assert list(table["value"])[3] == "54 kN·m"
    assert len(assistant.get("vega_lite_chart")) == 2, "shear and moment diagrams"
    assert app.get("download_button"), "the report can be downloaded"
