"""End to end in a real browser: `streamlit run` against the fake Ollama, driven by Playwright in Chromium."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import expect

from fakes.ollama import FakeOllama, Hang, Reply
from history import ChatHistoryDB
from tests.browser.conftest import ARTIFACTS, ROOT, Browser, send
from tests.test_store_sharing import fresh_look


def test_question_with_a_tool_call_survives_a_reload(browser: Browser, web_app: str, fake_ollama: FakeOllama) -> None:
    page = browser.page
    hostile = (
        "<img src=x onerror=alert(1)> ![plan](http://example.com/plan.png) [click](javascript:alert(3)) "
        "</div><style>body{display:none}</style>"
    )
    fake_ollama.script(
        Reply.tool_calls(("sqrt", {"x": 2025}), ("beam_analysis", {"span": "6 m", "load": "12 kN/m"})),
        Reply.text(f"The square root of 2025 is **45**. {hostile}"),
    )
    page.goto(web_app)
    page.get_by_role("button", name="New workspace").click()
    page.wait_for_url("**/?chat=1")
    send(page, "What is the square root of 2025? <script>alert(1)</script>")
    answer = page.get_by_text("The square root of 2025 is")
    answer.first.wait_for()
    tool = page.get_by_text("sqrt(x=2025)")
    tool.first.wait_for()
    assert page.get_by_text("<script>alert(1)</script>").count() >= 1, "the user's HTML is shown as text"
    page.reload()
    page.get_by_text("The square root of 2025 is").first.wait_for()
    page.get_by_text("sqrt(x=2025)").first.click()
    page.get_by_text("45.0").first.wait_for()
    page.get_by_text("beam_analysis(span='6 m'").first.click()
    page.get_by_text("M = wL²/8 = 12 kN/m × (6 m)²/8 = 54 kN·m").first.wait_for()
    page.locator("[data-testid='stVegaLiteChart']").first.wait_for()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-app.png"))
    assert page.url.endswith("?chat=1")
    assert page.locator("a[href^='javascript']").count() == 0
    assert page.get_by_text("</div><style>body{display:none}</style>").count() >= 1, "shown as text"
    assert page.get_by_test_id("stChatInputTextArea").is_visible(), "no injected style hides the page"
    assert browser.dialogs == [], "nothing executed"
    assert browser.outside_requests == [], "no request may leave the machine"


def test_stop_keeps_the_partial_answer(browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path) -> None:
    page = browser.page
    fake_ollama.script(Reply.then("The first part of a long answer", Hang(30)), Reply.text("Next answer."))
    page.goto(web_app)
    send(page, "Explain the load path")
    page.get_by_text("The first part of a long answer").first.wait_for()
    page.get_by_role("button", name="Stop").click()
    page.get_by_text("Stopped before the end of the answer.").first.wait_for()
    (turn,) = ChatHistoryDB(isolated / "chat_history.sqlite").get_turns(1)
    assert (turn.status, turn.assistant) == ("stopped", "The first part of a long answer")


def test_the_downloads_hold_the_whole_workspace_and_its_calculations(
    browser: Browser, web_app: str, fake_ollama: FakeOllama
) -> None:
    page = browser.page
    fake_ollama.script(Reply.tool_calls(("divide", {"a": 10, "b": 4})), Reply.text("Space them at 2.5 m."))
    page.goto(web_app)
    send(page, "Spacing for 10 m over 4 bays?")
    answer = page.get_by_text("Space them at 2.5 m.", exact=True)
    answer.first.wait_for()  # the streamed copy (with its cursor) may linger while the page is redrawn
    expect(answer).to_have_count(1)
    page.get_by_role("button", name="⋮").click()  # the open workspace's menu
    with page.expect_download() as exported:
        page.get_by_role("button", name="Export as Markdown").click()
    text = Path(exported.value.path()).read_text(encoding="utf-8")
    assert exported.value.suggested_filename == "workspace-1.md"
    assert text.startswith("# Spacing for 10 m over 4 bays?") and "**Tool `divide`**" in text
    assert '"a": 10' in text and "2.5" in text and "Space them at 2.5 m." in text
    with page.expect_download() as report:
        page.get_by_role("button", name="Calculation report").click()
    text = Path(report.value.path()).read_text(encoding="utf-8")
    assert "## 1. `divide`" in text and "Spacing for 10 m over 4 bays?" in text
    assert browser.outside_requests == []


def test_two_tabs_and_a_cli_run_beside_them_lose_nothing(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    """Two tabs answer at the same time while the CLI runs turns on the same file and exits."""
    fake_ollama.responder = lambda body: Reply.slow(f"Answer to: {body['messages'][-1]['content']}", 0.05)
    # the workspace stays open past SUMMARY_EVERY_TURNS: its summary must not repeat the answers looked for
    fake_ollama.summary_reply = Reply.text("- Shared: questions from two tabs and the command line.")
    shared = ChatHistoryDB(isolated / "chat_history.sqlite")
    shared.create_chat("Shared")
    shared.close()
    tabs = [browser.page, browser.page.context.new_page()]
    for tab in tabs:
        tab.goto(web_app)
        tab.get_by_text("Shared").first.wait_for()
    expected = []
    for i in range(4):
        for name, tab in zip(("first", "second"), tabs, strict=True):
            send(tab, f"{name} tab {i}")
            expected.append(f"{name} tab {i}")
        cli = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), "--workspace", "Shared", "--once", f"cli question {i}"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=isolated,
            env={**os.environ, "ENDPOINT": fake_ollama.url},
        )
        assert cli.returncode == 0, cli.stderr
        expected.append(f"cli question {i}")
        for name, tab in zip(("first", "second"), tabs, strict=True):
            tab.get_by_text(f"Answer to: {name} tab {i}").first.wait_for()
    seen = fresh_look(isolated / "chat_history.sqlite")
    assert seen["integrity"] == "ok" and sorted(seen["questions"]) == sorted(expected)
    assert all(tab.get_by_test_id("stException").count() == 0 for tab in tabs)
