"""The web app with AUTH=accounts through Streamlit's AppTest: signing in and out, a workspace the user may not
see, a viewer who reads only, the Share menu and the audit trail, against the fake Ollama and a real SQLite."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app import Application, start
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB

PASSWORD = "correct horse battery"
WRONG = "The user name or password is wrong."


@pytest.fixture
def office(isolated: Path, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """AUTH=accounts with ann and bob (engineers), vic (viewer) and ada (admin); ann's "Ann tower" (one turn,
    shared with vic to read) and bob's "Bob bridge" (one turn, shared with nobody). The workspaces' ids."""
    monkeypatch.setenv("AUTH", "accounts")
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    base = start(isolated / ".env", {})
    try:
        for name, role in (("ann", "engineer"), ("bob", "engineer"), ("vic", "viewer"), ("ada", "admin")):
            base.accounts.add(name, role, PASSWORD)
        ids = {
            "ann": made(base, "ann", "Ann tower", "Ann's secret footing question"),
            "bob": made(base, "bob", "Bob bridge", "Bob's secret deck question"),
        }
        base.for_user(base.accounts.user("ann")).sharing.share(ids["ann"], "vic", "viewer")
    finally:
        base.close()
    return ids


def made(base: Application, owner: str, name: str, question: str) -> int:
    chat_id = base.for_user(base.accounts.user(owner)).workspaces.create(name).chat_id
    ChatHistoryDB(Path("chat_history.sqlite")).add_to_history(chat_id, question, "An answer.")
    return chat_id


def signed_in(app: AppTest, name: str, password: str = PASSWORD) -> AppTest:
    app.text_input(key="sign-in-name").set_value(name)
    app.text_input(key="sign-in-password").set_value(password)
    return app.button(key="FormSubmitter:sign-in-Sign in").click().run()


def plain(elements: object) -> list[str]:
    """The text of elements, without the Markdown escapes the page adds."""
    return [str(element.value).replace("\\", "") for element in elements]  # type: ignore[attr-defined]


def page_text(app: AppTest) -> str:
    shown = [*app.markdown, *app.caption, *app.subheader, *app.warning, *app.info, *app.error, *app.title]
    return "\n".join(str(element.value) for element in shown) + "\n".join(b.label for b in app.button)


def test_wrong_password_and_unknown_user_say_the_same_then_sign_in_and_out(app: AppTest, office: dict) -> None:
    app.run()
    assert not app.exception
    assert app.chat_input.len == 0 and "Sign in" in [s.value for s in app.subheader]
    signed_in(app, "ann", "not the password")
    assert plain(app.error) == [WRONG]
    signed_in(app, "nobody", PASSWORD)
    assert plain(app.error) == [WRONG]
    assert "Ann tower" not in page_text(app)
    signed_in(app, "ann")
    assert not app.exception and not app.error
    assert app.session_state["service"].user.name == "ann"
    assert any("Signed in as **ann** · engineer" in c.value for c in app.sidebar.caption)
    assert "Ann tower" in [h.value for h in app.subheader]
    assert app.chat_input(key="question") is not None
    app.button(key="sign-out").click().run()
    assert "service" not in app.session_state
    assert "Sign in" in [s.value for s in app.subheader] and "Ann tower" not in page_text(app)


def test_another_users_workspace_by_url_says_what_a_missing_one_says(app: AppTest, office: dict) -> None:
    app.query_params["chat"] = str(office["bob"])
    signed_in(app.run(), "ann")
    hidden = plain(app.warning)
    assert hidden == [f"There is no workspace {office['bob']}; showing the most recent one instead."]
    assert "Bob" not in page_text(app)
    assert app.query_params["chat"] == str(office["ann"])
    app.sidebar.text_input(key="search").set_value("secret").run()
    assert [b.key for b in app.sidebar.button if b.key.startswith("hit-")] == [f"hit-{office['ann']}"]

    missing = AppTest.from_file(app._script_path, default_timeout=20)
    missing.query_params["chat"] = "999"
    signed_in(missing.run(), "ann")
    assert plain(missing.warning) == [hidden[0].replace(str(office["bob"]), "999")]


def test_a_viewer_reads_a_shared_workspace_but_cannot_ask(app: AppTest, office: dict, fake_ollama: FakeOllama) -> None:
    signed_in(app.run(), "vic")
    assert not app.exception
    assert "Ann tower" in [h.value for h in app.subheader]
    assert "Ann's secret footing question" in page_text(app)
    assert app.chat_input.len == 0
    assert plain(app.info) == ["Your role is viewer: you can read the workspaces shared with you, but not ask in them."]
    assert any("Shared by ann" in c.value for c in app.sidebar.caption)
    assert "new-workspace" not in [b.key for b in app.sidebar.button]
    assert "regenerate" not in [b.key for b in app.button]
    assert fake_ollama.chat_requests == []


def test_an_engineer_shares_with_a_user_and_with_everyone_and_unshares(app: AppTest, office: dict) -> None:
    signed_in(app.run(), "ann")
    chat = office["ann"]
    assert [c.value for c in app.sidebar.caption if "Shared with" in c.value] == ["Shared with vic as viewer"]
    app.text_input(key=f"share-user-{chat}").set_value("bob")
    app.selectbox(key=f"share-role-{chat}").set_value("editor")
    app.button(key=f"FormSubmitter:share-form-{chat}-Share").click().run()
    assert not app.exception
    assert "Shared with bob as editor" in [c.value for c in app.sidebar.caption]
    app.button(key=f"share-everyone-{chat}").click().run()
    assert "Shared with everyone as viewer" in [c.value for c in app.sidebar.caption]
    app.button(key=f"unshare-{chat}-bob").click().run()
    shared = [c.value for c in app.sidebar.caption if c.value.startswith("Shared with")]
    assert sorted(shared) == ["Shared with everyone as viewer", "Shared with vic as viewer"]
    app.text_input(key=f"share-user-{chat}").set_value("nobody")
    app.button(key=f"FormSubmitter:share-form-{chat}-Share").click().run()
    assert any("'nobody' is not a user this workspace can be shared with" in w.value for w in app.warning)

    bob = AppTest.from_file(app._script_path, default_timeout=20)
    signed_in(bob.run(), "bob")
    assert f"share-everyone-{office['bob']}" in [b.key for b in bob.button]
    bob.button(key=f"workspace-{chat}").click().run()  # shared with everyone: bob reads it
    assert "Ann tower" in [h.value for h in bob.subheader]
    assert f"share-everyone-{chat}" not in [b.key for b in bob.button], "only its owner or an admin shares it"


def test_the_audit_trail_is_for_admins_only_and_downloads_as_csv(app: AppTest, office: dict) -> None:
    signed_in(app.run(), "ann")
    assert "page-audit" not in [b.key for b in app.button]
    admin = AppTest.from_file(app._script_path, default_timeout=20)
    signed_in(admin.run(), "ada")
    admin.button(key="page-audit").click().run()
    assert not admin.exception
    assert "Audit trail" in [h.value for h in admin.subheader]
    checked = [c.value for c in admin.caption if "is intact" in c.value]
    assert checked and "audit verify` checks all" in checked[0] and "checked now" not in checked[0], "all at first"
    admin.run()
    assert any("checked now" in c.value for c in admin.caption), "then only the records added since"
    table = admin.dataframe[0].value
    assert {"sign-in", "share"} <= set(table["action"])
    admin.text_input(key="audit-user").set_value("ann").run()
    assert set(admin.dataframe[0].value["user_name"]) == {"ann"}
    admin.text_input(key="audit-workspace").set_value("Ann tower").run()
    rows = admin.dataframe[0].value
    assert set(rows["workspace_name"]) == {"Ann tower"} and "share" in set(rows["action"])
    admin.text_input(key="audit-since").set_value("not a time").run()
    assert admin.warning and not admin.exception


def test_the_csv_has_a_header_and_one_row_a_record(office: dict, isolated: Path) -> None:
    from faces.web.audit_view import COLUMNS, as_csv

    base = start(isolated / ".env", {})
    try:
        records = base.audit.records()
        rows = list(csv.reader(io.StringIO(as_csv(records))))
    finally:
        base.close()
    assert tuple(rows[0]) == COLUMNS and len(rows) == len(records) + 1
    assert [row[3] for row in rows[1:]] == [record.action for record in records]


def test_a_turn_of_a_signed_in_engineer_is_theirs(app: AppTest, office: dict, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("Noted."))
    signed_in(app.run(), "bob")
    app.chat_input(key="question").set_value("Deck span?").run()
    assert not app.exception
    assert ChatHistoryDB(Path("chat_history.sqlite")).get_turns(office["bob"])[-1].user == "Deck span?"


def test_the_office_account_button_needs_auth_settings_and_authlib(app: AppTest, office: dict) -> None:
    import importlib.util

    app.run()
    assert "sign-in-office" not in [b.key for b in app.button]  # no [auth] settings
    configured = AppTest.from_file(app._script_path, default_timeout=20)
    configured.secrets["auth"] = {"redirect_uri": "http://localhost:8501/oauth2callback", "cookie_secret": "x" * 32}
    configured.run()
    assert not configured.exception
    assert importlib.util.find_spec("authlib") is not None, "requirements.txt installs Authlib for st.login"
    assert "sign-in-office" in [b.key for b in configured.button]
