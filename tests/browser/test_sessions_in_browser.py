"""A password sign-in outlives a reload, a bookmark, a `?chat=` link, another tab and a restarted web process, in a
real Chromium; a password change, a role change or a sign-out ends it at the next click (or before it, as the
open page looks again), with a sentence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Cookie, Page, expect, sync_playwright

from app import start
from fakes.ollama import FakeOllama, free_port, wait_until
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, streamlit_server, told_at_next_click
from tests.browser.test_accounts_in_browser import PASSWORDS, office, signed_in  # noqa: F401 - the fixture
from tests.stores import raw_rows


@pytest.fixture
def context() -> Iterator[BrowserContext]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        expect.set_options(timeout=30_000)
        try:
            yield chromium.new_context(viewport={"width": 1280, "height": 900})
        finally:
            expect.set_options(timeout=5_000)
            chromium.close()


def session_cookies(context: BrowserContext) -> list[Cookie]:
    return [cookie for cookie in context.cookies() if cookie["name"] == "engineering_session"]


def still_signed_in(page: Page, url: str, showing: str) -> None:
    page.goto(url)
    expect(page.get_by_text("Signed in as ann")).to_be_visible()
    expect(page.get_by_text(showing).first).to_be_visible()
    expect(page.get_by_label("User name")).to_have_count(0)


def test_a_session_outlives_reloads_links_tabs_and_a_restart_and_ends_with_a_password_change(
    office: dict[str, int],  # noqa: F811 - the fixture
    context: BrowserContext,
    fake_ollama: FakeOllama,
    isolated: Path,
) -> None:
    env = {"AUTH": "accounts", "ENDPOINT": fake_ollama.url}
    port = free_port()
    with streamlit_server(isolated, env, port=port) as (url, _):
        ann = signed_in(context, url, "ann")
        assert wait_until(lambda: session_cookies(context) != [], timeout=30), "the browser keeps the session"
        (cookie,) = session_cookies(context)
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict", "kept out of scripts' reach"
        ann.reload()
        still_signed_in(ann, f"{url}/?chat={office['ann']}", "Ann tower")
        other = context.new_page()
        still_signed_in(other, url, "Ann tower")  # another tab of the same browser
        other.close()
    with streamlit_server(isolated, env, port=port) as (url, _):  # the web process restarted
        still_signed_in(ann, f"{url}/?chat={office['ann']}", "Ann tower")
        base = start(isolated / ".env", {})
        try:
            base.accounts.set_password("ann", "a new long passphrase 12")
        finally:
            base.close()
        told_at_next_click(ann)
        expect(ann.get_by_label("User name")).to_be_visible()
        PASSWORDS["ann"], old = "a new long passphrase 12", PASSWORDS["ann"]
        try:
            signed_in(context, url, "ann", ann)
        finally:
            PASSWORDS["ann"] = old
        ann.get_by_role("button", name="Sign out").click()
        expect(ann.get_by_label("User name")).to_be_visible()
        ann.reload()
        expect(ann.get_by_label("User name")).to_be_visible()
        # the cookie went with the session: its frame takes it out as the sign-in page draws
        assert wait_until(lambda: session_cookies(context) == [], timeout=30), session_cookies(context)


def test_a_spoofed_forwarded_address_does_not_reset_the_slow_down(
    office: dict[str, int],  # noqa: F811 - the fixture
    fake_ollama: FakeOllama,
    isolated: Path,
) -> None:
    """X-Forwarded-For counts only from TRUSTED_PROXIES (none here): a guesser rotating it is one address to the
    slow-down (the loopback's address reads as "here")."""
    env = {"AUTH": "accounts", "ENDPOINT": fake_ollama.url}
    with streamlit_server(isolated, env) as (url, _), sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        said = []
        for number in range(4):
            context = chromium.new_context(extra_http_headers={"X-Forwarded-For": f"203.0.113.{number}"})
            page = context.new_page()
            page.goto(url)
            page.get_by_label("User name").fill("bob")
            page.get_by_label("Password", exact=True).fill(f"guess {number}")
            page.get_by_role("button", name="Sign in").click()
            sentence = page.get_by_text("password is wrong").or_(page.get_by_text("Too many failed sign-ins"))
            expect(sentence.first).to_be_visible(timeout=30_000)
            said.append(sentence.first.inner_text())
            context.close()
        chromium.close()
    assert len(said) == 4
    keys = raw_rows(str(isolated / "chat_history.sqlite"), "SELECT key, failures FROM sign_in_failures")
    counted = {key: failures for key, failures in keys if key.startswith("user bob")}
    assert counted == {"user bob at here": 4}, "one address, whatever the header said"
