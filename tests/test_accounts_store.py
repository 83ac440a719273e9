"""The store's users, keys, owners, shares and audit trail, on SQLite and on PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from domain.accounts import EVERYONE
from fakes.postgres import PostgresServer
from store import ChatHistoryDB, copy_history
from tests.stores import raw_write


def grant(store: ChatHistoryDB, chat_id: int, user_id: int) -> tuple[str | None, str | None]:
    found = store.workspace_access(chat_id, user_id)
    return found.role, found.grant


def test_users_keys_owners_and_shares(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    try:
        ann = store.add_user("ann", "engineer", "hash-a", "ann@example.com")
        bob = store.add_user("bob", "viewer", "hash-b")
        chat = store.create_chat("Bridge")
        store.set_owner(chat, ann)
        assert grant(store, chat, ann) == ("engineer", "owner")
        assert grant(store, chat, bob) == ("viewer", None)
        store.share(chat, bob, "viewer")
        assert grant(store, chat, bob) == ("viewer", "viewer")
        store.share(chat, bob, "editor")  # a second share replaces the first
        assert [share.role for share in store.shares_of(chat)] == ["editor"]
        assert grant(store, chat, bob) == ("viewer", "viewer"), "a viewer reads, whatever the share"
        assert [c.chat_id for c in store.recent_chats(viewer=bob)] == [chat]
        assert store.unshare(chat, bob)
        assert store.recent_chats(viewer=bob) == []
        store.share(chat, EVERYONE, "viewer")
        assert grant(store, chat, bob) == ("viewer", "viewer")
        assert [share.user_name for share in store.shares_of(chat)] == [None]
        key = store.add_api_key(ann, "k-hash")
        found = store.api_key(key)
        assert found is not None and found[0].name == "ann" and found[1] == "k-hash"
        assert store.revoke_keys(ann) == 1
        assert store.api_key(key) is None
        assert store.user_by_email("ANN@example.com") is not None
        assert store.remove_user(ann)
        assert store.owner_of(chat) is None  # the workspace stays, without an owner
        assert grant(store, chat, ann) == (None, None) and store.recent_chats(viewer=ann) == []  # removed: no role
        assert store.get_chat(chat) is not None
    finally:
        store.close()


def test_a_taken_name_is_refused(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    try:
        store.add_user("ann", "engineer", "h")
        try:
            store.add_user("ANN", "viewer", "h")
        except ValueError as error:
            assert "already a user called 'ANN'" in str(error)
        else:
            raise AssertionError("a second ann was added")
    finally:
        store.close()


def test_the_audit_chain_finds_a_changed_or_deleted_record(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    try:
        for number in range(5):
            store.append_audit("ann", "ask", number, f"W{number}", f"question {number}")
        check = store.verify_audit()
        assert check.intact and check.records == 5
        assert [record.detail for record in store.audit_records(chat_id=3)] == ["question 3"]
    finally:
        store.close()
    raw_write(store_target, "UPDATE audit SET detail = 'changed' WHERE id = 3")
    store = ChatHistoryDB(store_target)
    try:
        check = store.verify_audit()
        assert not check.intact and check.broken_id == 3
    finally:
        store.close()


def test_deleting_the_last_record_is_found_by_the_head(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    try:
        for number in range(3):
            store.append_audit("ann", "ask", None, None, str(number))
    finally:
        store.close()
    raw_write(store_target, "DELETE FROM audit WHERE id = 3")
    store = ChatHistoryDB(store_target)
    try:
        check = store.verify_audit()
        assert not check.intact and check.broken_id == 3
    finally:
        store.close()


_APPENDER = """
import sys
from store import ChatHistoryDB
store = ChatHistoryDB(sys.argv[1])
for number in range(40):
    store.append_audit(sys.argv[2], "ask", None, None, str(number))
store.close()
"""


def test_appends_from_several_processes_keep_one_chain(store_target: str, tmp_path: Path) -> None:
    ChatHistoryDB(store_target).close()  # migrated once before the writers start
    writers = [
        subprocess.Popen([sys.executable, "-c", _APPENDER, store_target, name], cwd=Path(__file__).parents[1])
        for name in ("ann", "bob", "cy")
    ]
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0, 0]
    store = ChatHistoryDB(store_target)
    try:
        check = store.verify_audit()
        assert check.intact and check.records == 120, check
    finally:
        store.close()


def _accounts_of(store: ChatHistoryDB) -> tuple[object, ...]:
    records = store.audit_records()
    return (
        store.list_users(),
        store.recent_chats(viewer=1),
        store.recent_chats(viewer=2),
        store.shares_of(1),
        store.owners(),
        store.api_key(1),
        [record.model_dump() for record in records],
    )


@pytest.mark.postgres
def test_db_copy_moves_users_shares_and_the_audit_chain_whole(postgres_server: PostgresServer, tmp_path: Path) -> None:
    laptop = ChatHistoryDB(tmp_path / "laptop.sqlite")
    ann = laptop.add_user("ann", "engineer", "argon-hash", "ann@office.example")
    bob = laptop.add_user("bob", "viewer", "argon-hash-2")
    chat = laptop.create_chat("Tower")
    laptop.set_owner(chat, ann)
    laptop.share(chat, bob, "viewer")
    laptop.share(chat, EVERYONE, "viewer")
    laptop.add_api_key(ann, "k" * 64)
    for number in range(5):
        laptop.append_audit("ann", "ask", chat, "Tower", f"question {number}")
    before = _accounts_of(laptop)
    server_url = postgres_server.new_database()
    copy_history(laptop, server := ChatHistoryDB(server_url))
    laptop.close()
    assert _accounts_of(server) == before and server.verify_audit().intact
    server.append_audit("bob", "sign-in")
    assert server.verify_audit().records == 6, "the chain goes on from the copied head"
    assert server.add_user("cy", "engineer", "h") == 3 and server.add_api_key(3, "c" * 64) == 2
    back = ChatHistoryDB(tmp_path / "back.sqlite")
    copy_history(server, back)
    assert back.verify_audit().intact and back.verify_audit().records == 6
    server.close()
    back.close()
