"""The store's SQLite file: a new one's schema, the seed's file migrated, files that are not the store's refused
untouched, and a write lock held by another connection or process waited for."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from domain.records import ToolCall
from history import ChatHistoryDB, HistoryError
from store.schema import SCHEMA_VERSION
from tests.waiting import wait_for_wait

SEED_SCHEMA = """
CREATE TABLE chats (
    chat_id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_name TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    context_summary TEXT DEFAULT NULL,
    context_updated_at TIMESTAMP DEFAULT NULL
);
CREATE TABLE history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id INTEGER NOT NULL,
    user TEXT NOT NULL,
    assistant TEXT NOT NULL,
    FOREIGN KEY(chat_id) REFERENCES chats(chat_id) ON DELETE CASCADE
);
"""


def test_new_file_is_at_the_latest_schema_with_wal(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    ChatHistoryDB(path).close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_seed_database_is_migrated_and_keeps_its_chats(tmp_path: Path) -> None:
    path = tmp_path / "seed.sqlite"
    raw = sqlite3.connect(path)
    raw.executescript(SEED_SCHEMA)
    raw.execute("INSERT INTO chats (chat_name, created_at) VALUES ('Old project', '2025-10-15 14:30:22')")
    raw.execute(
        "INSERT INTO chats (chat_name, created_at, context_summary, context_updated_at) "
        "VALUES ('Tower A', '2025-10-15 14:31:00', '45 m tower', '2025-10-15 16:45:10')"
    )
    raw.execute("INSERT INTO history (chat_id, user, assistant) VALUES (2, 'How tall?', '45 m.')")
    raw.execute("INSERT INTO history (chat_id, user, assistant) VALUES (1, 'Hi', 'Hello.')")
    raw.commit()
    raw.close()
    db = ChatHistoryDB(path)
    assert [c[1] for c in db.list_chats()] == ["Old project", "Tower A"], "ordered by latest turn"
    assert db.load_history(2) == [("How tall?", "45 m.")]
    assert db.get_context_summary(2) == "45 m tower"
    assert db.count_unsummarised_turns(2) == 0 and db.count_unsummarised_turns(1) == 1
    assert db.get_turns(2)[0].status == "complete"
    db.add_to_history(2, "Footing?", "2 x 2 m.")
    assert db.list_chats()[0][1] == "Tower A"
    db.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_corrupt_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "chat_history.sqlite"
    garbage = b"this is not a database\n" * 500
    path.write_bytes(garbage)
    with pytest.raises(HistoryError, match="not an SQLite database.*left untouched"):
        ChatHistoryDB(path)
    assert path.read_bytes() == garbage


def test_damaged_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "chat_history.sqlite"
    ChatHistoryDB(path).close()
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # wreck the schema page, keep the header
    path.write_bytes(bytes(data))
    with pytest.raises(HistoryError, match="damaged.*left untouched"):
        ChatHistoryDB(path)
    assert path.read_bytes() == bytes(data)


def test_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "chat_history.sqlite"
    ChatHistoryDB(path).close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(HistoryError, match="newer version"):
        ChatHistoryDB(path)
    assert path.read_bytes() == before


def test_database_of_another_application_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    raw.commit()
    raw.close()
    with pytest.raises(HistoryError, match="another application"):
        ChatHistoryDB(path)
    assert [r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")] == ["invoices"]


def test_two_connections_write_at_once_without_locking_errors(store_target: str) -> None:
    first, second = ChatHistoryDB(store_target), ChatHistoryDB(store_target)
    chat = first.create_chat("shared")
    failures: list[BaseException] = []

    def write(store: ChatHistoryDB, tag: str) -> None:
        try:
            for i in range(100):
                store.add_to_history(chat, f"{tag}{i}", "a", tool_calls=[ToolCall(name="t", arguments={}, output="o")])
        except BaseException as error:  # noqa: BLE001 - collected for the assertion
            failures.append(error)

    threads = [threading.Thread(target=write, args=(store, tag)) for store, tag in ((first, "a"), (second, "b"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert first.count_turns(chat) == 200


def test_a_writer_holding_the_lock_is_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite"
    db = ChatHistoryDB(path)
    chat = db.create_chat("w")
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    threading.Timer(1.0, lambda: holder.execute("COMMIT")).start()
    db.add_to_history(chat, "q", "a")
    assert 0.8 < time.monotonic() - started < 30, "it waited for the lock, and did not wait for ever"
    assert db.count_turns(chat) == 1


def test_damaged_page_in_an_old_file_is_found_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "seed.sqlite"
    raw = sqlite3.connect(path)
    raw.executescript(SEED_SCHEMA)
    raw.execute("INSERT INTO chats (chat_name) VALUES ('Tower A')")
    raw.executemany("INSERT INTO history (chat_id, user, assistant) VALUES (1, ?, ?)", [("q" * 500, "a" * 500)] * 200)
    raw.commit()
    raw.close()
    data = bytearray(path.read_bytes())
    page = 4096 * 5
    data[page : page + 4096] = b"\x5a" * 4096
    path.write_bytes(bytes(data))
    with pytest.raises(HistoryError, match="damaged.*left untouched"):
        ChatHistoryDB(path)
    assert path.read_bytes() == bytes(data)


WRITER = """
import sys
sys.path.insert(0, sys.argv[1])
from history import ChatHistoryDB
from domain.records import ToolCall
db = ChatHistoryDB(sys.argv[2])
for i in range(int(sys.argv[4])):
    db.add_to_history(int(sys.argv[3]), f"{sys.argv[5]}{i}", "a",
                      tool_calls=[ToolCall(name="t", arguments={"i": i}, output="o")])
"""


def test_two_processes_write_at_once_and_a_held_lock_is_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    db = ChatHistoryDB(path)
    chat = db.create_chat("shared")
    root = str(Path(__file__).resolve().parents[1])
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, root, str(path), str(chat), "150", tag], stderr=subprocess.PIPE)
        for tag in ("a", "b")
    ]
    for writer in writers:  # each is blocked on the held lock, in SQLite's busy handler
        wait_for_wait(writer.pid, "hrtimer_nanosleep")
    holder.execute("COMMIT")
    errors = [writer.communicate(timeout=60)[1].decode() for writer in writers]
    assert [w.returncode for w in writers] == [0, 0], errors
    assert db.count_turns(chat) == 300
    raw = sqlite3.connect(path)
    assert raw.execute("SELECT COUNT(*) FROM tool_calls").fetchone()[0] == 300
    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
