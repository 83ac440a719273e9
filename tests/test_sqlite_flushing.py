"""SQLite's commits wait for the disk (synchronous FULL), but a claim's: a claim lapses anyway, so a power cut that
loses it loses nothing, and with two server processes each served turn's summary claim had waited for the disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from history import ChatHistoryDB
from store import SqliteHistoryDB

RELAXED, FLUSHED = "PRAGMA synchronous=NORMAL", "PRAGMA synchronous=FULL"


def traced(store: ChatHistoryDB) -> list[str]:
    assert isinstance(store, SqliteHistoryDB)
    statements: list[str] = []
    store._db.set_trace_callback(statements.append)  # noqa: SLF001 - what the store sends SQLite, in order
    return statements


def synchronous(store: ChatHistoryDB) -> int:
    assert isinstance(store, SqliteHistoryDB)
    return int(store._db.execute("PRAGMA synchronous").fetchone()[0])  # noqa: SLF001


def test_a_claim_commits_without_waiting_for_the_disk_and_every_other_write_waits(tmp_path: Path) -> None:
    store = ChatHistoryDB(tmp_path / "history.sqlite")
    chat = store.create_chat("Tower")
    statements = traced(store)
    assert store.claim("summary 1")
    assert statements.index(RELAXED) < statements.index("BEGIN IMMEDIATE"), "relaxed before the transaction"
    assert statements.index("COMMIT") < statements.index(FLUSHED) == len(statements) - 1, "FULL once committed"
    statements.clear()
    store.add_to_history(chat, "How deep is the transfer beam?", "900 mm.")
    store.set_context_summary(chat, "- Transfer beam 900 mm.")
    assert statements and not any("synchronous" in statement for statement in statements), "a turn waits"
    statements.clear()
    store.release("summary 1")
    assert statements.index(RELAXED) < statements.index("COMMIT") < statements.index(FLUSHED)
    assert synchronous(store) == 2, "FULL"


def test_a_claim_s_failed_transaction_leaves_the_next_write_flushed(tmp_path: Path) -> None:
    store = ChatHistoryDB(tmp_path / "history.sqlite")
    with pytest.raises(RuntimeError), store._write(flushed=False):  # noqa: SLF001 - a claim's transaction
        raise RuntimeError("the block failed")
    assert synchronous(store) == 2, "FULL again"
    statements = traced(store)
    store.create_chat("Tower")
    assert not any("synchronous" in statement for statement in statements)
    with store.unit_of_work():  # a claim inside a unit of work is committed as the unit is: flushed
        statements.clear()
        assert store.claim("summary 1")
    assert not any("synchronous" in statement for statement in statements)
