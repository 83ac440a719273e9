"""Stop, and switching while a summary is written, in a real browser (the timings themselves are in bench/)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from fakes.ollama import FakeOllama, Hang, Reply, is_summary_request, wait_until
from history import ChatHistoryDB
from tests.browser.conftest import Browser, send

# A bound that only catches a hang: Stop and a switch must not wait for the model (which hangs for
# 600 s here); how fast they are is measured in bench/ (browser_bench.py), not asserted.
PROMPT_SECONDS = 30


def answers_or_hangs(body: dict[str, Any]) -> Reply:
    question = body["messages"][-1]["content"]
    if is_summary_request(body) or question.startswith("long"):
        return Reply.then(f"The first part of {question}", Hang(600))
    return Reply.text(f"Answer to {question}.")


def test_stop_takes_effect_at_once_keeps_what_arrived_and_leaves_the_tab_normal(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    page = browser.page
    fake_ollama.responder = answers_or_hangs
    page.goto(web_app)
    send(page, "long explanation of the load path")
    page.get_by_text("The first part of long explanation").first.wait_for()
    started = time.monotonic()
    page.get_by_role("button", name="Stop").click()
    page.get_by_text("Stopped before the end of the answer.").first.wait_for()
    stopped_after = time.monotonic() - started
    (turn,) = ChatHistoryDB(isolated / "chat_history.sqlite").get_turns(1)
    assert (turn.status, turn.assistant) == ("stopped", "The first part of long explanation of the load path")
    assert stopped_after < PROMPT_SECONDS, f"Stop took {stopped_after:.1f} s"
    started = time.monotonic()
    send(page, "next question")
    page.get_by_text("Answer to next question.").first.wait_for()
    assert time.monotonic() - started < PROMPT_SECONDS, "the tab is back to normal: no wait after a Stop"
    assert page.get_by_text("Waiting for the model").count() == 0
    assert browser.outside_requests == []


def test_a_question_sent_while_the_summary_is_written_goes_to_the_workspace_on_the_screen(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    page = browser.page
    fake_ollama.responder = answers_or_hangs
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    tower = db.create_chat("Tower A")
    page.goto(f"{web_app}/?chat={tower}")
    send(page, "How tall is tower A?")
    tower_answer = page.get_by_text("Answer to How tall is tower A?.", exact=True)
    tower_answer.first.wait_for()  # the streamed copy (with its cursor) may linger while the page is redrawn
    expect(tower_answer).to_have_count(1)
    started = time.monotonic()
    page.get_by_role("button", name="New workspace").first.click()
    page.get_by_text("No turns here yet").first.wait_for()
    switched_after = time.monotonic() - started
    assert wait_until(lambda: any(is_summary_request(r) for r in fake_ollama.chat_requests), timeout=10)
    send(page, "Span of the bridge?")
    answer = page.get_by_text("Answer to Span of the bridge?.")
    answer.first.wait_for()  # while the page is redrawn after the live turn, the old copy may linger a moment
    expect(answer).to_have_count(1)
    bridge = next(chat for chat in db.recent_chats() if chat.chat_id != tower)
    assert [t.user for t in db.get_turns(bridge.chat_id)] == ["Span of the bridge?"]
    assert [t.user for t in db.get_turns(tower)] == ["How tall is tower A?"]
    assert page.url.endswith(f"?chat={bridge.chat_id}")
    assert switched_after < PROMPT_SECONDS, f"the switch waited {switched_after:.1f} s for the summary"
    assert db.get_context_summary(tower) is None, "the summary is still being written"
