"""Working together in a shared workspace, live, in real Chromium: ann and vic (a viewer) on one web process, bob
on another, on one store (a SQLite file, or PostgreSQL), and a fake Ollama that answers slowly. Nobody reloads or
clicks to see the others: vic is told ann shared her workspace and finds it in his list; when bob asks, ann's and
vic's pages say "bob is asking…", then show his answer; ann's question sent meanwhile waits for his answer and says
so, and the two never interleave; ann is told bob checked her revision, dismisses that and approves it, and bob is
told; bob is told his question's file edit waits for him until he approves it; and a notification that came while
vic's tab was closed is there when he signs in again.

The walk is the working-together benchmark's (`bench/together_bench.py`), which times each of these; here the
times are printed as figures (the targets are the benchmark's: a timeout here only guards against a hang).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from app import start
from bench.office_pages import Office, menu, signed_in
from bench.together_bench import prepare, processes, respond, walk
from fakes.ollama import FakeOllama
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser
HANG_MS = 60_000  # a guard against a hang, not a target


def test_three_people_work_together_live_on_two_web_processes(store_target: str, isolated: Path) -> None:
    with FakeOllama() as fake:
        fake.responder = respond
        office = prepare(isolated, store_target, fake.url)
        with processes(office) as (web1, web2), sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            expect.set_options(timeout=HANG_MS)
            try:
                pages = walk(browser, web1, web2, office)
                pages["vic"].context.close()  # his tab closed: what comes meanwhile waits for him
                told_while_away(office, web2, browser)
            finally:
                expect.set_options(timeout=5_000)
                browser.close()
        requests = fake.chat_requests
    for name, samples in office.figures.items():
        print(f"{name}: {', '.join(f'{seconds:.2f} s' for seconds in samples)}")
    assert len(office.figures) == 9 and all(samples for samples in office.figures.values())
    never_interleaved(office, requests)


def told_while_away(office: Office, url: str, browser: object) -> None:
    base = start(office.folder / ".env", {})
    try:
        base.for_user(base.accounts.user("ann")).sharing.share(office.tower, "vic", "viewer")
    finally:
        base.close()
    vic = signed_in(browser, url, "vic")
    expect(vic.get_by_text("ann shared Tower with you (viewer).")).to_be_visible()
    expect(vic.get_by_text("Shared by ann")).to_have_count(2)  # both of ann's workspaces in his list


def never_interleaved(office: Office, requests: list[dict]) -> None:
    """Every turn is paired with its own answer, and each was asked of the model with every turn stored before it
    as its history: ann's question that waited saw bob's answer."""
    turns = office.db().get_turns(office.chat_id)
    asked = [turn.user for turn in turns]
    assert asked.index("Does it deflect too much, 1?") + 1 == asked.index("And its vibration, 1?")
    for place, turn in enumerate(turns[1:], start=1):
        if turn.user.startswith(("Is it OK", "Does it", "And its")):
            assert turn.assistant == f"Answer to {turn.user}"
            (request,) = [body for body in requests if body["messages"][-1]["content"] == turn.user]
            history = [m["content"] for m in request["messages"][1:-1] if m["role"] in ("user", "assistant")]
            assert history[-2:] == [turns[place - 1].user, turns[place - 1].assistant], turn.user
    db, ann, bob = office.db(), office.db().get_user("ann"), office.db().get_user("bob")
    assert ann is not None and bob is not None
    assert [note.text for note in db.notifications(ann.user_id)] == [], "the check's note dismissed, then settled"
    assert [note.text for note in db.notifications(bob.user_id)] == [
        "Revision A approved by ann (Footbridge).",  # his file edit's note went once he approved it
        "ann shared Footbridge with you (editor).",
    ]


def test_an_open_menu_stays_open_while_a_colleagues_turn_redraws_the_page(isolated: Path) -> None:
    """bob has the package open in the workspace's menu when ann's turn is stored: his page draws itself again
    (her question and answer appear without a click), and the menu stays open, its sign-off step still there."""
    with FakeOllama() as fake:
        fake.responder = respond
        office = prepare(isolated, str(isolated / "office.sqlite"), fake.url)
        with processes(office, count=1) as (web,), sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            expect.set_options(timeout=HANG_MS)
            try:
                bob = signed_in(browser, f"{web}/?chat={office.chat_id}", "bob")
                menu(bob, office.chat_id)
                bob.get_by_role("button", name="Calculation package…").click()
                step = bob.get_by_role("button", name="Sign off as checked")
                step.wait_for()
                office.db().add_to_history(office.chat_id, "Is the bearing OK?", "Yes, 40 % used.", asked_by="ann")
                expect(bob.get_by_text("Yes, 40 % used.")).to_be_visible()  # drawn again, without a click
                expect(step).to_be_visible()
                step.click()
                expect(bob.get_by_text("Revision A checked by bob").first).to_be_visible()
            finally:
                expect.set_options(timeout=5_000)
                browser.close()
