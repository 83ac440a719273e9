"""The users, looked after in the web app by an admin with the rules and audit trail of `python main.py users`, and
each user's own account, through Streamlit's AppTest on a real SQLite store."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app import start
from tests.test_web_accounts import PASSWORD, office, page_text, plain, signed_in  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("office")  # ann, bob, vic and ada, with a workspace each for ann and bob


def opened(app: AppTest, user: str, page: str) -> AppTest:
    signed_in(app.run(), user)
    app.button(key=f"page-{page}").click().run()
    assert not app.exception
    return app


def test_only_admins_are_offered_the_users_and_everyone_their_own_account(app: AppTest) -> None:
    signed_in(app.run(), "ann")
    keys = {button.key for button in app.sidebar.button}
    assert "page-account" in keys and "page-users" not in keys and "page-audit" not in keys


def test_an_admin_adds_a_user_changes_them_and_removes_them(app: AppTest, isolated: Path) -> None:
    opened(app, "ada", "users")
    app.text_input(key="users-add-name").set_value("carol")
    app.text_input(key="users-add-display").set_value("Carol Jones")
    app.text_input(key="users-add-password").set_value("a long enough password")
    app.button(key="FormSubmitter:users-add-Add user").click().run()
    assert "Added carol as engineer." in plain(app.success)
    table = app.dataframe[0].value
    assert "Carol Jones" in table["display name"].tolist() and "never" in table["last sign-in (UTC)"].tolist()
    app.selectbox(key="users-chosen").set_value("carol").run()
    app.selectbox(key="users-role-carol").set_value("viewer").run()
    app.button(key="users-set-role-carol").click().run()
    assert "carol is now viewer; they sign in again." in plain(app.success)
    app.button(key="users-key-carol").click().run()
    assert app.code and app.code[0].value.startswith("eak_"), "the new key, shown once"
    app.button(key="users-remove-carol").click().run()
    app.button(key="users-remove-confirmed-carol").click().run()
    assert "Removed carol." in plain(app.success)
    base = start(isolated / ".env", {})
    try:
        actions = [r.action for r in base.audit.records(user="ada")]
    finally:
        base.close()
    assert {"user added", "role changed", "key issued", "user removed"} <= set(actions), "the same trail as the CLI"


def test_the_last_admin_is_refused_with_a_sentence_on_an_intact_page(app: AppTest) -> None:
    opened(app, "ada", "users")
    app.selectbox(key="users-chosen").set_value("ada").run()
    app.selectbox(key="users-role-ada").set_value("engineer").run()
    app.button(key="users-set-role-ada").click().run()
    assert not app.exception
    assert "ada is the last admin and cannot be made engineer" in page_text(app).replace("\\", "")


def test_a_user_changes_their_own_password_and_display_name(app: AppTest, isolated: Path) -> None:
    opened(app, "ann", "account")
    app.text_input(key="account-current").set_value("wrong one")
    app.text_input(key="account-new").set_value("ann's new passphrase")
    app.text_input(key="account-again").set_value("ann's new passphrase")
    app.button(key="FormSubmitter:account-password-Change my password").click().run()
    assert "The current password is wrong; nothing was changed." in page_text(app).replace("\\", "")
    app.text_input(key="account-current").set_value(PASSWORD)
    app.text_input(key="account-new").set_value("ann's new passphrase")
    app.text_input(key="account-again").set_value("ann's new passphrase")
    app.button(key="FormSubmitter:account-password-Change my password").click().run()
    assert "Your password is changed" in " ".join(plain(app.success))
    assert "Signed in as" in " ".join(c.value for c in app.sidebar.caption), "this tab stays signed in"
    app.text_input(key="account-display-name").set_value("Ann Smith")
    app.button(key="FormSubmitter:account-display-Save").click().run()
    assert "You are shown as Ann Smith." in plain(app.success)
    base = start(isolated / ".env", {})
    try:
        assert base.accounts.sign_in("ann", "ann's new passphrase").shown_as == "Ann Smith"
    finally:
        base.close()
