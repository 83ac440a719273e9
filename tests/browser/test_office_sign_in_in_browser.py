"""Single sign-on in a real browser: `streamlit run` with AUTH=accounts and Streamlit's `[auth]` settings for
the office's OpenID Connect provider (a loopback one, `fakes/oidc.py`, that checks the app's client secret,
the code, the redirect address and PKCE, and signs its ID tokens with RS256). The engineer clicks "Sign in
with the office account", the provider vouches for an e-mail, and the app signs in the local user who has it;
an e-mail no user has is refused with one sentence, and the sign-in form is offered again."""

from __future__ import annotations

import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from app import start
from fakes.oidc import FakeIdentityProvider, Person
from fakes.ollama import FakeOllama, free_port
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, streamlit_server

STRANGER = Person("carol-007", "carol@elsewhere.example", "Carol Visitor")


@pytest.fixture
def provider() -> Iterator[FakeIdentityProvider]:
    with FakeIdentityProvider() as running:
        yield running


@pytest.fixture
def office_app(
    provider: FakeIdentityProvider, fake_ollama: FakeOllama, isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """The web app with AUTH=accounts, user ann (known to the provider as ann@office.example) with a workspace."""
    monkeypatch.setenv("AUTH", "accounts")
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    base = start(isolated / ".env", {})
    try:
        base.accounts.add("ann", "engineer", "ann's long passphrase 71", email="Ann@Office.example")
        base.for_user(base.accounts.user("ann")).workspaces.create("Ann tower")
    finally:
        base.close()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    shutil.copytree(ROOT / ".streamlit", isolated / ".streamlit")
    (isolated / ".streamlit" / "secrets.toml").write_text(
        "[auth]\n"
        f'redirect_uri = "{url}/oauth2callback"\n'
        f'cookie_secret = "{secrets.token_urlsafe(32)}"\n'
        f'client_id = "{provider.client_id}"\n'
        f'client_secret = "{provider.client_secret}"\n'
        f'server_metadata_url = "{provider.metadata_url}"\n',
        encoding="utf-8",
    )
    env = {"AUTH": "accounts", "ENDPOINT": fake_ollama.url, "SSO_ALLOWED_DOMAINS": "branch.example"}
    with streamlit_server(isolated, env, log=isolated / "server.log", port=port) as (address, _):
        yield address


@pytest.fixture
def page() -> Iterator[Page]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        expect.set_options(timeout=30_000)  # a shared machine: a redraw may take a while
        try:
            opened = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
            opened.set_default_timeout(30_000)
            yield opened
        finally:
            expect.set_options(timeout=5_000)
            chromium.close()


def through_the_office_account(page: Page, url: str) -> None:
    page.goto(url)
    page.get_by_role("button", name="Sign in with the office account").click()


def test_the_office_account_signs_in_the_user_with_its_e_mail(
    office_app: str, provider: FakeIdentityProvider, page: Page, isolated: Path
) -> None:
    through_the_office_account(page, office_app)
    expect(page.get_by_text("Signed in as ann")).to_be_visible()
    expect(page.get_by_test_id("stSidebar")).to_contain_text("Ann tower")
    assert provider.refusals == [] and len(provider.token_requests) == 1
    assert provider.token_requests[0]["code_verifier"], "the app used PKCE, as the provider offered it"

    page.reload()  # the office account's cookie outlives the page: no second trip to the provider
    expect(page.get_by_text("Signed in as ann")).to_be_visible()
    assert len(provider.token_requests) == 1

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("button", name="Sign in with the office account")).to_be_visible()
    expect(page.get_by_label("User name")).to_be_visible()
    page.reload()  # signed out of the office account too, not only of the tab
    expect(page.get_by_label("User name")).to_be_visible()
    expect(page.get_by_text("Signed in as ann")).to_have_count(0)

    base = start(isolated / ".env", {})
    try:
        trail = [(r.user_name, r.action, r.detail) for r in base.audit.records()]
    finally:
        base.close()
    assert ("ann", "sign-in", "single sign-on") in trail


def test_an_e_mail_no_user_has_is_refused_in_one_sentence(
    office_app: str, provider: FakeIdentityProvider, page: Page, isolated: Path
) -> None:
    provider.person = STRANGER
    through_the_office_account(page, office_app)
    expect(page.get_by_text("No user here has that e-mail; ask an admin to add you")).to_be_visible()
    expect(page.get_by_text(f"The office account you are signed in with is {STRANGER.email}")).to_be_visible()
    expect(page.get_by_label("User name")).to_be_visible()  # the form, for a local account
    expect(page.get_by_text("Signed in as")).to_have_count(0)
    assert provider.refusals == []

    page.get_by_role("button", name="Sign out of the office account").click()  # to try another office account
    expect(page.get_by_role("button", name="Sign in with the office account")).to_be_visible()
    expect(page.get_by_text("No user here has that e-mail")).to_have_count(0)
    provider.person = Person("ann-001", "ann@office.example", "Ann Engineer")
    page.get_by_role("button", name="Sign in with the office account").click()
    expect(page.get_by_text("Signed in as ann")).to_be_visible()

    base = start(isolated / ".env", {})
    try:
        trail = [(r.action, r.detail) for r in base.audit.records()]
    finally:
        base.close()
    assert ("failed sign-in", "single sign-on: no user has that e-mail") in trail
    assert STRANGER.email not in (isolated / "server.log").read_text(encoding="utf-8", errors="replace")


def test_a_first_office_sign_in_from_an_allowed_domain_makes_the_user_with_the_claimed_role(
    office_app: str, provider: FakeIdentityProvider, page: Page, isolated: Path
) -> None:
    provider.person = Person("dan-9", "dan@branch.example", "Dan Reviewer", roles=("viewer",))
    through_the_office_account(page, office_app)
    expect(page.get_by_text("Signed in as dan · viewer")).to_be_visible()
    base = start(isolated / ".env", {})
    try:
        made = base.accounts.user("dan")
    finally:
        base.close()
    assert (made.role, made.display_name, made.email) == ("viewer", "Dan Reviewer", "dan@branch.example")
