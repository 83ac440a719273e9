"""The access policy is one policy: the store's queries and its one-workspace statement agree with the rule of
grants for every role, ownership and share, on SQLite and PostgreSQL; a use case's writes are one unit of work;
and with accounts a question costs few more statements than without."""

from __future__ import annotations

import itertools
import re
import sqlite3
from pathlib import Path

import pytest

from app import Application
from app.application import AccountSettings
from domain.accounts import EVERYONE, Role, ShareRole, effective_grant
from fakes.ollama import FakeOllama, Reply
from store import ChatHistoryDB, HistoryError
from tests.agent_helpers import make_agent

ROLES: tuple[Role, ...] = ("admin", "engineer", "viewer")
SHARES: tuple[ShareRole | str | None, ...] = (None, "viewer", "editor", "everyone")


def test_the_lists_and_the_one_workspace_statement_follow_the_rule_of_grants(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    try:
        owner = store.add_user("owner", "engineer", "h")
        cases = []
        for number, (role, owns, shared) in enumerate(itertools.product(ROLES, (False, True), SHARES)):
            user = store.add_user(f"user{number}", role, "h")
            chat = store.create_chat(f"Workspace {number}", owner=user if owns else owner)
            if shared == "everyone":
                store.share(chat, EVERYONE, "viewer")
            elif shared is not None:
                store.share(chat, user, shared)  # type: ignore[arg-type]
            cases.append((user, chat, role, owns, shared))
        for user, chat, role, owns, shared in cases:
            expected = effective_grant(role, owns, "viewer" if shared == "everyone" else shared)  # type: ignore[arg-type]
            found = store.workspace_access(chat, user)
            assert (found.role, found.grant) == (role, expected), (role, owns, shared)
            listed = {c.chat_id for c in store.recent_chats(viewer=user)}
            assert (chat in listed) == (expected is not None), (role, owns, shared)
            assert store.count_chats(viewer=user) == len(listed)
            assert {chat_id for chat_id, _, _ in store.list_chats(viewer=user)} == listed
            named = store.find_chat(f"Workspace {cases.index((user, chat, role, owns, shared))}", viewer=user)
            assert (named is not None) == (expected is not None)
        assert store.workspace_access(10**6, owner).workspace is None, "a missing workspace: nothing to grant"
        store.remove_user(owner)
        assert store.workspace_access(cases[0][1], owner).role is None, "a removed user has no role"
    finally:
        store.close()


def test_a_unit_of_work_keeps_all_of_its_writes_or_none(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    try:
        ann = store.add_user("ann", "engineer", "h")
        with pytest.raises(RuntimeError), store.unit_of_work():
            chat = store.create_chat("Half made", owner=ann)
            store.append_audit("ann", "workspace created", chat, "Half made")
            raise RuntimeError("the use case failed after both writes")
        assert store.recent_chats() == [] and store.audit_records() == [], "neither the workspace nor its record"
        with store.unit_of_work():
            chat = store.create_chat("Made", owner=ann)
            store.append_audit("ann", "workspace created", chat, "Made")
        assert [c.chat_id for c in store.recent_chats(viewer=ann)] == [chat]
        assert [r.action for r in store.audit_records()] == ["workspace created"] and store.verify_audit().intact
        with pytest.raises(HistoryError), store.unit_of_work():
            store.append_audit("ann", "renamed", chat, "Made")
            store.rename_chat(chat, "Renamed")
            store.set_owner(10**6, ann)  # no such workspace: the database refuses it
        renamed = store.get_chat(chat)
        assert renamed is not None and renamed.chat_name == "Made", "the rename went with the failed write"
        assert len(store.audit_records()) == 1
    finally:
        store.close()


class Statements:
    """Counts the SQL statements a SQLite connection runs."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.count = 0
        connection.set_trace_callback(self._seen)

    def _seen(self, statement: str) -> None:
        self.count += statement not in ("BEGIN", "BEGIN IMMEDIATE", "COMMIT")


async def _statements_of_a_question(folder: Path, fake: FakeOllama, accounts: bool) -> int:
    settings = AccountSettings("accounts" if accounts else "none")
    root = Application(ChatHistoryDB(folder / "history.sqlite"), make_agent(fake), accounts=settings)
    try:
        if accounts:
            root.accounts.add("ann", "engineer", "a long enough password")
            view = root.for_user(root.accounts.sign_in("ann", "a long enough password"))
        else:
            view = root
        chat = view.workspaces.create("Level 3").chat_id
        async for _ in view.turns.ask("Warm up: 2 + 2?", chat):
            pass
        counter = Statements(root._store._db)  # type: ignore[attr-defined]
        async for _ in view.turns.ask("Check a W18x50 over 35 ft.", chat):
            pass
        return counter.count
    finally:
        root.close()


async def test_a_question_with_accounts_costs_at_most_a_quarter_more_statements(
    fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    reply = (
        Reply.text("4."),
        Reply.tool_calls(("steel_beam_check", {"designation": "W18X50", "span": "35 ft", "dead_load": "0.45 kip/ft",
                                               "live_load": "0.75 kip/ft"})),
        Reply.text("It works."),
    )  # fmt: skip
    fake_ollama.script(*reply)
    without = await _statements_of_a_question(tmp_path / "none", fake_ollama, accounts=False)
    fake_ollama.script(*reply)
    with_accounts = await _statements_of_a_question(tmp_path / "accounts", fake_ollama, accounts=True)
    assert with_accounts <= 1.25 * without, (with_accounts, without)


class StatementTexts(Statements):
    """The statements a SQLite connection runs, with their values (numbers, quoted text) written as `?`."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.texts: list[str] = []
        super().__init__(connection)

    def _seen(self, statement: str) -> None:
        super()._seen(statement)
        self.texts.append(re.sub(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b", "?", statement))


def test_a_missing_workspace_and_a_forbidden_one_run_the_same_statements(
    fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    root = Application(ChatHistoryDB(tmp_path / "history.sqlite"), make_agent(fake_ollama),
                       accounts=AccountSettings("accounts"))  # fmt: skip
    try:
        for name in ("ann", "bob"):
            root.accounts.add(name, "engineer", "a long enough password")
        ann = root.for_user(root.accounts.sign_in("ann", "a long enough password"))
        bobs = root.for_user(root.accounts.user("bob")).workspaces.create("Bob's bridge").chat_id
        paths = {
            "read": lambda chat: ann.workspaces.read(chat),
            "export": lambda chat: ann.reports.markdown_pieces(chat),
            "shares": lambda chat: ann.sharing.shares(chat),
            "project": lambda chat: ann.packages.project_details(chat),
            "turns": lambda chat: ann.turns.of(chat),
        }
        for what, path in paths.items():
            runs = []
            for chat in (bobs, 999):
                counter = StatementTexts(root._store._db)  # type: ignore[attr-defined]
                try:
                    path(chat)
                except LookupError as missing:
                    assert str(missing) == f"There is no workspace with id {chat}." or "no workspace" in str(missing)
                runs.append(counter.texts)
            assert runs[0] == runs[1], (what, runs)
    finally:
        root.close()
