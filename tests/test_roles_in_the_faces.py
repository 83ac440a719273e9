"""Every action of the web page tried by every role: a user is offered only what they may do in the open workspace,
and an action refused anyway (a share taken back, a role lowered, while the page was open) is one sentence on an
intact page, never Streamlit's error page."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app import Application, start
from domain.records import ToolCall
from fakes.ollama import FakeOllama
from history import ChatHistoryDB
from tests.test_web_accounts import PASSWORD, made, page_text, signed_in
from tools.steel import steel_beam_check

# What each role is offered in the ⋮ menu of ann's workspace "Ann tower" (bob as editor, vic as viewer), and in the
# sidebar: bob and vic are told it was shared with them, and may dismiss that (tests/test_web_live.py dismisses it)
OFFERED = {
    "ann": {"rename", "delete", "package", "share", "sign off", "project details", "upload", "memory"},
    "ada": {"rename", "delete", "package", "share", "sign off", "project details", "upload", "memory"},
    "bob": {"rename", "package", "sign off", "project details", "upload", "dismiss"},
    "vic": {"package", "dismiss"},
}


@pytest.fixture
def tower(isolated: Path, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch) -> int:
    """AUTH=accounts; ann's "Ann tower" with one calculation, shared with bob as editor and vic as viewer."""
    monkeypatch.setenv("AUTH", "accounts")
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    base = start(isolated / ".env", {})
    try:
        for name, role in (("ann", "engineer"), ("bob", "engineer"), ("vic", "viewer"), ("ada", "admin")):
            base.accounts.add(name, role, PASSWORD)
        chat_id = made(base, "ann", "Ann tower", "Ann's footing question")
        beam = steel_beam_check("W18X50", "35 ft", "0.45 kip/ft", "0.75 kip/ft")
        call = ToolCall(id="c1", name="steel_beam_check", arguments={}, output="{}", calculation=beam)
        ChatHistoryDB(Path("chat_history.sqlite")).add_to_history(
            chat_id, "Is a W18x50 OK?", "Yes.", tool_calls=[call], asked_by="carl"
        )  # prepared by someone else, so that whoever may change may also check it
        sharing = base.for_user(base.accounts.user("ann")).sharing
        sharing.share(chat_id, "bob", "editor")
        sharing.share(chat_id, "vic", "viewer")
        return chat_id
    finally:
        base.close()


def opened(app: AppTest, user: str, chat_id: int) -> AppTest:
    app.query_params["chat"] = str(chat_id)
    signed_in(app.run(), user)
    assert not app.exception
    app.button(key=f"package-{chat_id}").click().run()  # the package section, as a click opens it
    assert not app.exception
    return app


def offered(app: AppTest, chat_id: int) -> set[str]:
    keys = {button.key for button in app.button} | {button.key for button in app.get("button")}
    forms = {button.key for button in app.get("form_submit_button")} if app.get("form_submit_button") else set()
    found = {
        "rename": f"rename-{chat_id}" in keys,
        "delete": f"delete-{chat_id}" in keys,
        "package": f"package-pdf-{chat_id}" in {b.key for b in app.get("download_button")},
        "share": any(key.startswith(f"share-everyone-{chat_id}") for key in keys if key),
        "sign off": any(key and key.startswith("signoff-") for key in keys),
        "project details": any("project-form" in str(key) for key in forms | keys),
        "upload": bool(app.get("file_uploader")),
        "memory": "memory-panel" in {e.key for e in app.get("expandable") if hasattr(e, "key")},
        "dismiss": any(key.startswith("dismiss-note-") for key in keys if key),
    }
    return {name for name, shown in found.items() if shown}


@pytest.mark.parametrize("user", sorted(OFFERED))
def test_each_role_is_offered_only_what_it_may_do(app: AppTest, tower: int, user: str) -> None:
    opened(app, user, tower)
    assert offered(app, tower) == OFFERED[user] - {"memory"}, "the memory is off with accounts, for everyone"


def test_a_rename_refused_after_the_menu_was_drawn_is_a_sentence_on_the_page(
    app: AppTest, tower: int, isolated: Path
) -> None:
    opened(app, "bob", tower)
    app.button(key=f"rename-{tower}").click().run()
    base: Application = start(isolated / ".env", {})
    try:
        base.for_user(base.accounts.user("ann")).sharing.share(tower, "bob", "viewer")  # taken back to read only
    finally:
        base.close()
    app.text_input(key=f"name-{tower}").set_value("Bob's now")
    app.button(key=f"FormSubmitter:rename-form-{tower}-Rename").click().run()
    assert not app.exception, "a refusal never replaces the page"
    assert "shared with you to read only" in page_text(app)
    assert "Ann tower" in [h.value for h in app.subheader]


def test_a_sign_off_refused_after_a_role_change_signs_out_with_a_sentence_and_is_recorded(
    app: AppTest, tower: int, isolated: Path
) -> None:
    opened(app, "ann", tower)
    (signoff,) = [b for b in app.button if b.key and b.key.startswith("signoff-")]
    base = start(isolated / ".env", {})
    try:
        base.accounts.set_role("ann", "viewer")  # lowered while her menu shows the button
    finally:
        base.close()
    signoff.click().run()
    assert not app.exception, "a refusal never replaces the page"
    assert "role changed" in page_text(app).replace("\\", ""), "the role change signs her out at the click"
    base = start(isolated / ".env", {})
    try:
        actions = [record.action for record in base.audit.records(user="ann")]
    finally:
        base.close()
    assert "denied" in actions


@pytest.mark.parametrize("user", sorted(OFFERED))
def test_each_role_dismisses_its_own_notifications_and_no_one_elses(
    app: AppTest, tower: int, isolated: Path, user: str
) -> None:
    base = start(isolated / ".env", {})
    try:
        bob = base.for_user(base.accounts.user("bob"))
        bridge = bob.workspaces.create("Bob bridge").chat_id
        for other in ("ann", "ada"):  # bob and vic were told of ann's share already
            bob.sharing.share(bridge, other, "editor")
    finally:
        base.close()
    opened(app, user, tower)
    for _ in range(3):  # each has one or two
        if dismiss := [b for b in app.button if b.key and b.key.startswith("dismiss-note-")]:
            dismiss[0].click().run()
        assert not app.exception and "dismissed already" not in page_text(app)
    base = start(isolated / ".env", {})
    try:
        left = {name: len(base.for_user(base.accounts.user(name)).notifications.mine()) for name in OFFERED}
    finally:
        base.close()
    assert left == {name: 0 if name == user else 1 for name in OFFERED}
