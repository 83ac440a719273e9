"""The audit trail as a whole: every action that changes or reveals data is in it, `audit verify` says in one sentence
what is wrong whatever was tampered with, and the admins' page checks only what was added since the last check. On
SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from app import Application, ForbiddenError
from domain.packages import ProjectDetails
from store import ChatHistoryDB, is_postgres_url
from tests.stores import raw_write
from tests.test_accounts_app import owner, user  # noqa: F401 - the fixture
from tests.test_accounts_cli import PASSWORD, cli


def test_every_action_that_changes_or_reveals_a_workspace_is_recorded(owner: Application) -> None:  # noqa: F811
    ann, bob = user(owner, "ann"), user(owner, "bob")
    chat_id = ann.workspaces.create("Tower").chat_id
    ann.workspaces.rename(chat_id, "Tower B")
    ann.sharing.share(chat_id, "bob", "editor")
    with pytest.raises(ForbiddenError, match="Only the owner of workspace 'Tower B' or an admin may clear it"):
        bob.workspaces.clear(chat_id)  # an editor does not wipe the owner's history
    ann.summaries.set(chat_id, "- Tower B: 45 m tall.")
    ann.packages.project_details(chat_id, ProjectDetails(project_name="Tower B", project_number="P-7"))
    key = owner.accounts.issue_key("ann")
    owner.accounts.sign_in_with_key(key, "10.0.0.7")
    ann.workspaces.clear(chat_id)
    "".join(ann.reports.markdown_pieces(chat_id))
    records = [(r.user_name, r.action, r.detail) for r in owner.audit.records()]
    actions = [(name, action) for name, action, _ in records]
    for expected in (
        ("ann", "workspace created"), ("ann", "workspace renamed"), ("ann", "share"), ("bob", "denied"),
        ("ann", "summary edited"), ("ann", "project details"), ("ann", "sign-in"), ("ann", "history cleared"),
        ("ann", "export"),
    ):  # fmt: skip
        assert expected in actions, expected
    assert ("ann", "sign-in", "API key " + key.split("_")[1] + " from 10.0.0.7, 1 request") in records
    assert owner.audit.verify().intact


@pytest.mark.parametrize("tampering", ["head row deleted", "record deleted", "record changed", "chat id as text"])
def test_audit_verify_says_in_one_sentence_what_is_wrong_whatever_was_tampered_with(
    store_target: str, tampering: str
) -> None:
    for name in ("ann", "bob", "cy"):
        assert cli(store_target, "users", "add", name, "--role", "engineer", stdin=f"{PASSWORD}\n").returncode == 0
    sql, said = {
        "head row deleted": (
            "DELETE FROM audit_head",
            "The audit trail is broken: the chain's head (the one row of audit_head) is missing, so the end of the "
            "chain cannot be checked.\n",
        ),
        "record deleted": (
            "DELETE FROM audit WHERE id = 2",
            "The audit trail is broken at record 2: record 2 is missing before record 3.\n",
        ),  # fmt: skip
        "record changed": (
            "UPDATE audit SET detail = 'cy as admin' WHERE id = 3",
            "The audit trail is broken at record 3: its contents do not match its hash.\n",
        ),  # fmt: skip
        "chat id as text": (
            "UPDATE audit SET chat_id = 'x' WHERE id = 2",
            "The audit trail is broken at record 2: record 2 cannot be read: its chat_id is not what a record holds.\n",
        ),  # fmt: skip
    }[tampering]
    if tampering == "chat id as text" and is_postgres_url(store_target):
        import psycopg

        with pytest.raises(psycopg.errors.InvalidTextRepresentation):  # the column's type refuses it outright
            raw_write(store_target, sql)
        return
    raw_write(store_target, sql)
    found = cli(store_target, "audit", "verify")
    assert (found.returncode, found.stdout, found.stderr) == (1, "", said)
    listed = cli(store_target, "audit")
    assert "Traceback" not in listed.stderr


def test_the_page_checks_only_what_was_added_since_the_last_check(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    try:
        for number in range(6):
            store.append_audit("ann", "ask", None, None, f"question {number}")
        first = store.verify_audit(from_checked=True)
        assert (first.intact, first.records, first.checked_from) == (True, 6, 0), "nothing checked before: all"
        store.append_audit("bob", "ask", None, None, "question 6")
        again = store.verify_audit(from_checked=True)
        assert (again.intact, again.records, again.checked_from) == (True, 7, 6)
        raw_write(store_target, "UPDATE audit SET detail = 'changed' WHERE id = 7")
        changed = store.verify_audit(from_checked=True)
        assert (changed.intact, changed.broken_id, changed.checked_from) == (False, 7, 7), "the mark's own record"
        raw_write(store_target, "UPDATE audit SET detail = 'changed too' WHERE id = 2")
        assert store.verify_audit().broken_id == 2, "the whole walk finds what the page's does not look at"
    finally:
        store.close()
