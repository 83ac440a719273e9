"""Accounts in a real browser: two engineers signed in, in two browser contexts, against one web server with
AUTH=accounts. Neither ever sees the other's workspace: not in the list, not by searching the conversations,
not by `?chat=`, not in an export, not through a document search. Passwords are in no page and no log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect, sync_playwright

from app import start
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, send, streamlit_server

PASSWORDS = {"ann": "ann's long passphrase 71", "bob": "bob's long passphrase 93"}
ANN_SECRET = "Zanzibar footing load"  # in ann's workspace only


@pytest.fixture
def office(isolated: Path, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Users ann and bob (engineers), each with a workspace of one turn; the workspaces' ids."""
    monkeypatch.setenv("AUTH", "accounts")
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    base = start(isolated / ".env", {})
    ids = {}
    try:
        for name, password in PASSWORDS.items():
            base.accounts.add(name, "engineer", password)
        for name, workspace, question in (
            ("ann", "Ann tower", f"What is the {ANN_SECRET}?"),
            ("bob", "Bob bridge", "What is the deck span?"),
        ):
            ids[name] = base.for_user(base.accounts.user(name)).workspaces.create(workspace).chat_id
            ChatHistoryDB(isolated / "chat_history.sqlite").add_to_history(ids[name], question, "An answer.")
    finally:
        base.close()
    return ids


@pytest.fixture
def accounts_app(office: dict[str, int], fake_ollama: FakeOllama, isolated: Path) -> Iterator[str]:
    """`streamlit run` with AUTH=accounts, its output kept in `server.log`."""
    env = {"AUTH": "accounts", "ENDPOINT": fake_ollama.url}
    with streamlit_server(isolated, env, "--logger.level", "debug", log=isolated / "server.log") as (url, _):
        yield url


@pytest.fixture
def contexts() -> Iterator[tuple[BrowserContext, BrowserContext]]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        expect.set_options(timeout=30_000)  # a shared machine: a redraw may take a while
        made = tuple(chromium.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True) for _ in "ab")
        try:
            yield made[0], made[1]
        finally:
            expect.set_options(timeout=5_000)
            chromium.close()


def signed_in(context: BrowserContext, url: str, name: str, page: Page | None = None) -> Page:
    """`name` signed in at `url`: the browser's session when it has one, else by the sign-in form."""
    if page is None:
        page = context.new_page()
        page.set_default_timeout(30_000)
    page.goto(url)
    form, bar = page.get_by_label("User name"), page.get_by_text(f"Signed in as {name}")
    expect(form.or_(bar).first).to_be_visible()
    if form.count():
        form.fill(name)
        page.get_by_label("Password", exact=True).fill(PASSWORDS[name])
        page.get_by_role("button", name="Sign in").click()
    expect(bar).to_be_visible()
    return page


def sidebar(page: Page, showing: str) -> str:
    """The sidebar's text, once it shows `showing` (the page is drawn in steps)."""
    bar = page.get_by_test_id("stSidebar")
    expect(bar).to_contain_text(showing)
    expect(bar).to_contain_text("Ollama 0.12.6")  # its last element: drawn whole
    return bar.inner_text()


def exported(page: Page, chat_id: int) -> str:
    """The open workspace exported as Markdown, through its menu."""
    page.locator(f".st-key-menu-{chat_id} button").first.click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Export as Markdown").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    page.keyboard.press("Escape")
    return text


def test_one_engineer_never_sees_the_others_workspace(
    accounts_app: str,
    office: dict[str, int],
    contexts: tuple[BrowserContext, BrowserContext],
    fake_ollama: FakeOllama,
    isolated: Path,
) -> None:
    ann = signed_in(contexts[0], accounts_app, "ann")
    bob = signed_in(contexts[1], accounts_app, "bob")
    expect(ann.get_by_text(ANN_SECRET)).to_be_visible()  # her own workspace, open
    expect(bob.get_by_text("What is the deck span?")).to_be_visible()
    assert "Bob bridge" not in sidebar(ann, "Ann tower")
    assert "Ann tower" not in sidebar(bob, "Bob bridge")  # the list

    bob.get_by_label("Search workspaces").fill("Zanzibar")  # the conversations' search
    bob.get_by_label("Search workspaces").press("Enter")
    expect(bob.get_by_text("No workspace mentions that.")).to_be_visible()
    bob.get_by_label("Search workspaces").fill("")
    bob.get_by_label("Search workspaces").press("Enter")

    signed_in(contexts[1], f"{accounts_app}/?chat={office['ann']}", "bob", bob)  # a guessed id: as if missing
    expect(bob.get_by_text(f"There is no workspace {office['ann']}; showing the most recent one")).to_be_visible()
    expect(bob.get_by_text("What is the deck span?")).to_be_visible()
    assert "Ann tower" not in bob.content() and ANN_SECRET not in bob.content()
    signed_in(contexts[1], f"{accounts_app}/?chat=999", "bob", bob)
    expect(bob.get_by_text("There is no workspace 999; showing the most recent one")).to_be_visible()

    markdown = exported(bob, office["bob"])  # the export of what he may see
    assert "deck span" in markdown and ANN_SECRET not in markdown and "Ann tower" not in markdown

    fake_ollama.script(Reply.tool_calls(("search_documents", {"query": ANN_SECRET})), Reply.text("Nothing on that."))
    send(bob, "Is there anything on the Zanzibar footing?")  # a document search, for what only ann's holds
    expect(bob.get_by_text("Nothing on that.").first).to_be_visible()
    found = [m for m in fake_ollama.chat_requests if any(x.get("role") == "tool" for x in m["messages"])]
    tool_results = [x["content"] for m in found for x in m["messages"] if x.get("role") == "tool"]
    assert tool_results and all(ANN_SECRET not in result and "Ann tower" not in result for result in tool_results)
    assert "Ann tower" not in sidebar(bob, "Bob bridge")

    for page in (ann, bob):
        assert all(password not in page.content() for password in PASSWORDS.values())
    log = (isolated / "server.log").read_text(encoding="utf-8", errors="replace")
    assert all(password not in log for password in PASSWORDS.values())
    assert "Bob bridge" not in sidebar(ann, "Ann tower")
