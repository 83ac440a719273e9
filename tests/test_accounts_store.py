"""The store's users, keys, owners, shares and audit trail, on SQLite and on PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from domain.accounts import EVERYONE
from store import ChatHistoryDB
from tests.stores import raw_write


def test_users_keys_owners_and_shares(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    try:
        ann = store.add_user("ann", "engineer", "hash-a", "ann@example.com")
        bob = store.add_user("bob", "viewer", "hash-b")
        chat = store.create_chat("Bridge")
        store.set_owner(chat, ann)
        assert store.access_to(chat, ann) == ("engineer", "owner")
        assert store.access_to(chat, bob) == ("viewer", None)
        store.share(chat, bob, "viewer")
        assert store.access_to(chat, bob) == ("viewer", "viewer")
        store.share(chat, bob, "editor")  # a second share replaces the first
        assert store.accessible(bob) == ("viewer", {chat: "editor"})
        assert store.unshare(chat, bob)
        store.share(chat, EVERYONE, "viewer")
        assert store.access_to(chat, bob) == ("viewer", "viewer")
        assert [share.user_name for share in store.shares_of(chat)] == [None]
        key = store.add_api_key(ann, "k-hash")
        found = store.api_key(key)
        assert found is not None and found[0].name == "ann" and found[1] == "k-hash"
        assert store.revoke_keys(ann) == 1
        assert store.api_key(key) is None
        assert store.user_by_email("ANN@example.com") is not None
        assert store.remove_user(ann)
        assert store.owner_of(chat) is None  # the workspace stays, without an owner
        assert store.access_to(chat, ann)[0] is None and store.accessible(ann)[0] is None  # removed: no role
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
