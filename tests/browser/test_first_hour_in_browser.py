"""What a new user meets in the first hour, where only a browser shows it: an answer that survives its tab
being closed, the summary's note arriving without a click, a long workspace name keeping its menu on its
row, and the Memory panel staying open after Add."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from fakes.ollama import FakeOllama, Gate, Reply, is_summary_request, wait_until
from fakes.replies import chunk, final
from history import ChatHistoryDB
from tests.browser.conftest import Browser, send

WHOLE_ANSWER = "The load goes down through the slab, the beams and the columns to the footings."


def test_closing_the_tab_mid_answer_keeps_the_whole_answer(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    rest = Gate()
    fake_ollama.script(
        Reply([chunk(content="The load goes down "), rest, chunk(content=WHOLE_ANSWER[19:]), final("stop", 42, 20)])
    )
    page = browser.page
    page.goto(web_app)
    send(page, "Explain the load path")
    page.get_by_text("The load goes down").first.wait_for()
    page.close()
    reopened = page.context.new_page()
    reopened.goto(f"{web_app}/?chat=1")
    reopened.get_by_text("An answer is being written in this workspace").first.wait_for()
    rest.gate.set()
    reopened.get_by_text(WHOLE_ANSWER).first.wait_for(timeout=30_000)  # without a click: the page is redrawn
    (turn,) = ChatHistoryDB(isolated / "chat_history.sqlite").get_turns(1)
    assert (turn.status, turn.assistant) == ("complete", WHOLE_ANSWER)
    assert browser.outside_requests == []


def test_stop_still_stops_and_keeps_what_arrived(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    rest = Gate()
    fake_ollama.script(Reply([chunk(content="The load goes down "), rest, chunk(content="never sent")]))
    page = browser.page
    page.goto(web_app)
    send(page, "Explain the load path")
    page.get_by_text("The load goes down").first.wait_for()
    page.get_by_role("button", name="Stop").click()
    page.get_by_text("Stopped before the end of the answer.").first.wait_for()
    rest.gate.set()
    (turn,) = ChatHistoryDB(isolated / "chat_history.sqlite").get_turns(1)
    assert (turn.status, turn.assistant) == ("stopped", "The load goes down")


def test_the_summary_note_comes_without_a_click(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    written = Gate()

    def answers(body: dict[str, Any]) -> Reply:
        if is_summary_request(body):
            return Reply([written, *Reply.text("- Tower A: 45 m tall.").steps])
        return Reply.text("It is 45 m tall.")

    fake_ollama.responder = answers
    tower = ChatHistoryDB(isolated / "chat_history.sqlite").create_chat("Tower A")
    page = browser.page
    page.goto(f"{web_app}/?chat={tower}")
    send(page, "How tall is tower A?")
    expect(page.get_by_text("It is 45 m tall.", exact=True)).to_have_count(1)
    page.get_by_role("button", name="New workspace").first.click()
    page.get_by_text("No turns here yet").first.wait_for()
    assert wait_until(lambda: any(is_summary_request(r) for r in fake_ollama.chat_requests), timeout=30)
    written.gate.set()
    page.get_by_text("Updated the summary of Tower A.").first.wait_for(timeout=30_000)


def test_a_long_workspace_name_keeps_its_menu_on_its_row(browser: Browser, web_app: str, isolated: Path) -> None:
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    names = [
        "Maximum moment and deflection of a 6 m simply supported beam…",
        "MAXIMUM MOMENT AND DEFLECTION OF A WIDE MEMBER",
        "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm",
        "塔楼基础设计计算书第一部分与第二部分",
        "Tower A",
    ]
    chats = [db.create_chat(name) for name in names]
    page = browser.page
    page.goto(f"{web_app}/?chat={chats[-1]}")

    def misplaced_menus(prefix: str) -> list[int]:
        """The workspaces whose menu is not beside their button (measured at one instant, in the page)."""
        return page.evaluate(
            """([prefix, chats]) => chats.filter(chat => {
                const button = document.querySelector(`.st-key-${prefix}-${chat} button`);
                const menu = document.querySelector(`.st-key-menu-${chat} button`);
                if (!button || !menu) return true;
                const b = button.getBoundingClientRect(), m = menu.getBoundingClientRect();
                const middle = b.top + b.height / 2;
                return !(m.top <= middle && middle <= m.bottom);
            })""",
            [prefix, chats],
        )

    page.get_by_text("Ollama 0.12.6").first.wait_for()  # the sidebar is drawn to its end
    assert wait_until(lambda: misplaced_menus("workspace") == [], timeout=30), misplaced_menus("workspace")
    search = page.get_by_placeholder("Name or words from a message")
    search.fill("m")
    search.press("Enter")
    page.locator(f".st-key-hit-{chats[0]}").wait_for()
    chats = [chat for chat in chats if page.locator(f".st-key-hit-{chat}").count()]
    assert len(chats) >= 3
    assert wait_until(lambda: misplaced_menus("hit") == [], timeout=30), misplaced_menus("hit")


def test_the_memory_panel_stays_open_after_add(browser: Browser, web_app: str, isolated: Path) -> None:
    page = browser.page
    page.goto(web_app)
    page.get_by_text("Memory", exact=True).click()
    field = page.get_by_placeholder("Something to remember")
    field.fill("Works in SI units, Eurocodes")
    page.get_by_role("button", name="Add").click()
    expect(page.locator(".st-key-memory-1 input")).to_have_value("Works in SI units, Eurocodes")
    expect(field).to_be_visible()
    expect(field).to_have_value("")
