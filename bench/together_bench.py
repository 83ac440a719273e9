"""Working together, live, as the office sees it in Chromium: two web processes on one store (a SQLite file, or
PostgreSQL), ann and vic on one, bob on the other, and a fake Ollama that answers slowly (about 2.4 s a question).

Timed, each in the machine's one clock (the page's `Date.now()` when a text first shows, against `time.time()`
when bob sends, or the time the store wrote a turn or a notification):
- bob sends → "bob is asking…" on ann's page and on vic's (target: within 3 s);
- bob's answer stored → shown on their pages (target: within 5 s);
- a notification stored → shown in its user's sidebar: a workspace shared, a revision checked, a revision approved,
  a file edit waiting (target: within 5 s).
`walk` runs the office's scenario once and notes these figures in its `Office`; the browser test
(`tests/browser/test_working_together_in_browser.py`) walks it too, and checks what it leaves behind. What it costs
(idle tabs, a turn beside a second tab) is `bench/together_costs.py`; `run` is the `together` suite.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from app import start
from bench.harness import Result, summarise
from bench.office_pages import (
    PASSWORD,
    WORKSPACE,
    Browser,
    Office,
    Page,
    menu,
    seen_at,
    send,
    signed_in,
    stored_at,
    watch,
    web_process,
)
from domain.records import ToolCall
from fakes.ollama import FakeOllama, Reply, is_summary_request
from history import ChatHistoryDB
from store import is_postgres_url
from tools.steel import steel_beam_check

PAUSE_SECONDS = 0.6  # before each of an answer's four pieces: about 2.4 s a question
NOTE = "Note the span in notes.md"
EDIT = ("edit_file", {"path": "notes.md", "old_text": "", "new_text": "Span: 35 ft\n"})


def respond(body: dict[str, Any]) -> Reply:
    """The slow fake model: "Answer to <question>" in about 2.4 s; NOTE proposes a file edit."""
    last = body["messages"][-1]
    if is_summary_request(body):
        return Reply.text("- a footbridge of 35 ft")
    if last["role"] == "tool":
        return Reply.text("I proposed the edit to notes.md: approve it to apply it.")
    if last["content"] == NOTE:
        return Reply.tool_calls(EDIT)
    return Reply.slow(f"Answer to {last['content']}", PAUSE_SECONDS)


def prepare(folder: Path, store: str, ollama_url: str) -> Office:
    """The office's settings in `folder/.env`, its users and ann's workspaces."""
    named = f"DATABASE_URL={store}" if is_postgres_url(store) else f"CHAT_HISTORY_DB_PATH={store}"
    (folder / ".env").write_text(f"AUTH=accounts\nENDPOINT={ollama_url}\n{named}\nEMBED_MODEL=\n", encoding="utf-8")
    base = start(folder / ".env", {})
    try:
        for name, role in (("ann", "engineer"), ("bob", "engineer"), ("vic", "viewer")):
            base.accounts.add(name, role, PASSWORD[name])
        ann = base.for_user(base.accounts.user("ann"))
        chat_id, tower = ann.workspaces.create(WORKSPACE).chat_id, ann.workspaces.create("Tower").chat_id
        beam = steel_beam_check("W18X50", "35 ft", "0.45 kip/ft", "0.75 kip/ft")
        call = ToolCall(id="c1", name="steel_beam_check", arguments={}, output="{}", calculation=beam)
        ChatHistoryDB(store).add_to_history(chat_id, "Is a W18x50 OK over 35 ft?", "Yes.", tool_calls=[call],
                                            asked_by="ann")  # fmt: skip
        ann.sharing.share(chat_id, "bob", "editor")
    finally:
        base.close()
    return Office(folder, store, chat_id, tower)


@contextmanager
def processes(office: Office, count: int = 2) -> Iterator[list[str]]:
    """`count` web processes on the office's store: their URLs."""
    with ExitStack() as stack:
        yield [stack.enter_context(web_process(office.folder, {}, office.folder / f"web{n}.log"))[0]
               for n in range(1, count + 1)]  # fmt: skip


def turn_stored(office: Office, question: str, timeout: float = 60) -> float:
    """When the store wrote the turn that asked `question` (waited for up to `timeout`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [turn for turn in office.db().get_turns(office.chat_id) if turn.user == question]
        if found:
            return stored_at(found[-1].created_at)
        time.sleep(0.05)
    raise TimeoutError(f"the turn {question!r} was not stored")


def notified(office: Office, user: str, text: str, timeout: float = 60) -> float:
    """When the store wrote `user`'s notification that says `text`."""
    db = office.db()
    account = db.get_user(user)
    assert account is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [note for note in db.notifications(account.user_id) if note.text == text]
        if found:
            return stored_at(found[0].created_at)
        time.sleep(0.05)
    raise TimeoutError(f"{user} was not told {text!r}")


def told(office: Office, page: Page, user: str, text: str, figure: str) -> None:
    """`user`'s notification `text` (watched on their `page`): from stored to shown, noted as `figure`."""
    office.note(figure, seen_at(page, text) - notified(office, user, text))


def asked_and_answered(office: Office, asker: Page, watchers: dict[str, Page], question: str) -> None:
    """bob asks; each watcher's page says who is asking, then shows the answer: both timed."""
    answer = f"Answer to {question}"
    for page in watchers.values():
        watch(page, "bob is asking…")
        watch(page, answer)
    sent = send(asker, question)
    for name, page in watchers.items():
        office.note(f"bob sends → 'bob is asking…' on {name}'s page", seen_at(page, "bob is asking…") - sent)
    stored = turn_stored(office, question)
    for name, page in watchers.items():
        office.note(f"bob's answer stored → shown on {name}'s page", seen_at(page, answer) - stored)
    asker.get_by_text(answer).first.wait_for()


def results_of(office: Office, backend: str) -> list[Result]:
    """The figures as rows: the medians against the issue's targets (3 s to say who asks, 5 s for the rest)."""
    rows = []
    for name, samples in office.figures.items():
        limit = 3.0 if "is asking" in name else 5.0
        rows.append(summarise(f"together ({backend}): {name}", samples, "s", f"≤ {limit:.0f} s", limit))
    return rows


def shared_with_vic(office: Office, ann: Page, vic: Page) -> None:
    """ann shares her workspace with vic from its menu: vic's sidebar tells him, and lists it, without a click."""
    shared = f"ann shared {WORKSPACE} with you (viewer)."
    watch(vic, shared)
    watch(vic, "Shared by ann")
    menu(ann, office.chat_id)
    ann.get_by_label("Share with").fill("vic")
    ann.get_by_role("button", name="Share", exact=True).click()
    stored = notified(office, "vic", shared)
    office.note("workspace shared → notified in vic's sidebar", seen_at(vic, shared) - stored)
    office.note("workspace shared → listed in vic's sidebar", seen_at(vic, "Shared by ann") - stored)
    ann.keyboard.press("Escape")
    vic.locator("[class*='st-key-note-']", has_text=shared).get_by_role("button", name="Open").click()
    vic.get_by_text("Is a W18x50 OK").first.wait_for()


def asked_while_another_answers(office: Office, ann: Page, bob: Page, vic: Page, turn: int) -> None:
    """bob asks; ann asks meanwhile in the same workspace: her page says whose answer hers waits for, vic's page
    says bob is asking, and both answers come, bob's first."""
    for page in (ann, vic):
        watch(page, "bob is asking…")
    send(bob, f"Does it deflect too much, {turn}?")
    seen_at(ann, "bob is asking…")
    seen_at(vic, "bob is asking…")
    send(ann, f"And its vibration, {turn}?")
    ann.get_by_text("bob is asking in this workspace: your question waits").first.wait_for()
    ann.get_by_text(f"Answer to And its vibration, {turn}?").first.wait_for()
    vic.get_by_text(f"Answer to And its vibration, {turn}?").first.wait_for()


def package_signed(office: Office, ann: Page, bob: Page) -> None:
    """bob checks ann's revision: her sidebar says it is ready to approve; she dismisses that, approves it, and
    bob's sidebar says so."""
    checked = f"Revision A checked by bob — ready to approve ({WORKSPACE})."
    approved = f"Revision A approved by ann ({WORKSPACE})."
    watch(ann, checked)
    watch(bob, approved)
    sign_off(bob, office.chat_id, "Sign off as checked")
    told(office, ann, "ann", checked, "revision checked → notified in ann's sidebar")
    note = ann.locator("[class*='st-key-note-']", has_text="ready to approve")
    note.get_by_role("button", name="Dismiss").click()
    note.wait_for(state="detached")
    sign_off(ann, office.chat_id, "Approve and issue")
    told(office, bob, "bob", approved, "revision approved → notified in bob's sidebar")


def sign_off(page: Page, chat_id: int, step: str) -> None:
    menu(page, chat_id)
    page.get_by_role("button", name="Calculation package…").click()
    page.get_by_role("button", name=step).click()
    page.get_by_text(f"Revision A {'checked' if step.startswith('Sign') else 'approved'} by").first.wait_for()
    page.keyboard.press("Escape")


def edit_waiting(office: Office, bob: Page) -> None:
    """bob's question proposes a file edit: his sidebar says it waits for him, until he approves it."""
    waiting = f"An edit to notes.md waits for your approval ({WORKSPACE})."
    watch(bob, waiting)
    send(bob, NOTE)
    told(office, bob, "bob", waiting, "file edit proposed → notified in bob's sidebar")
    bob.get_by_role("button", name="Approve", exact=True).click()
    bob.get_by_text(waiting).first.wait_for(state="detached")


def walk(browser: Browser, web1: str, web2: str, office: Office, questions: int = 2) -> dict[str, Page]:
    """The office's scenario once, its figures noted in `office`: ann and vic on web process 1, bob on 2."""
    ann = signed_in(browser, f"{web1}/?chat={office.chat_id}", "ann")
    bob = signed_in(browser, f"{web2}/?chat={office.chat_id}", "bob")
    vic = signed_in(browser, web1, "vic")
    shared_with_vic(office, ann, vic)
    for number in range(questions):
        asked_and_answered(office, bob, {"ann": ann, "vic": vic}, f"Is it OK at {30 + number} ft?")
    asked_while_another_answers(office, ann, bob, vic, 1)
    package_signed(office, ann, bob)
    edit_waiting(office, bob)
    return {"ann": ann, "bob": bob, "vic": vic}


def instant(body: dict[str, Any]) -> Reply:
    """A fake model that answers at once: what the application adds to a turn shows whole."""
    if is_summary_request(body):
        return Reply.text("- a footbridge")
    return Reply.text(f"Answer to {body['messages'][-1]['content']}")


def backends(server: Any, folder: Path) -> list[tuple[str, str]]:
    """(name, store) for SQLite, and PostgreSQL when a throwaway server runs."""
    stores = [("SQLite", str(folder / "office.sqlite"))]
    if server is not None:
        stores.append(("PostgreSQL", server.new_database()))
    return stores


def run(quick: bool) -> list[Result]:
    from playwright.sync_api import sync_playwright

    from bench import together_costs
    from bench.office_pages import CHROMIUM, CHROMIUM_ARGS
    from fakes.postgres import PostgresServer, unavailable

    results: list[Result] = []
    with ExitStack() as stack, FakeOllama() as fake, sync_playwright() as playwright:
        server = stack.enter_context(PostgresServer()) if unavailable() is None else None
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for backend, store in backends(server, Path(stack.enter_context(tempfile.TemporaryDirectory()))):
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            fake.responder = respond
            office = prepare(folder, store, fake.url)
            with processes(office) as (web1, web2):
                walk(browser, web1, web2, office, questions=1 if quick else 5)
            results += results_of(office, backend)
            with web_process(folder, {}, folder / "idle.log") as (url, pid):
                results += together_costs.idle_tabs(browser, url, office, pid, 6 if quick else 60, backend)
                if backend == "SQLite":
                    fake.responder = instant
                    results += together_costs.turn_latency(browser, url, office, 1 if quick else 7)
        browser.close()
    return results
