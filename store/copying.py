"""Copying a whole chat history from one store into another, whichever their backends (`python main.py db copy`).

Every workspace with its turns, tool calls, summary, file edits, agent, project details and package
revisions, the memory and the document index, with their ids (so links and bookmarks still lead to
the same workspace). The source is read in one consistent snapshot, a batch at a time; the target is
written in one transaction, refused if it already holds anything, and its counts are compared with
the source's before that transaction commits: an interrupted copy leaves the target as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from store.base import HistoryError, StoreBase
from store.sql import Database
from store.tables import TABLES as DECLARED
from store.tables import Table

BATCH = 5_000


# In the order the foreign keys need, with the columns `store.tables` declares. Derived columns (a workspace's turn
# count) and the full-text indexes are left out: each backend makes its own. Claims and running turns belong to
# the processes of the source, and the audit trail's head is copied on its own.
TABLES = tuple(table for table in DECLARED if table.copied)
USER_DATA = ("chats", "memories", "documents")  # a target holding any of these is not empty
Progress = Callable[[str, int, int], None]  # (table, rows copied, rows in all)


def _columns(table: Table) -> str:
    return ", ".join(f'"{name}"' for name in table.copied_columns)


def _batches(db: Database, table: Table) -> Iterator[list[Any]]:
    """The table's rows in order of its key, a batch at a time, each row a tuple of its columns."""
    after: Any = None
    while True:
        where = "" if after is None else f'WHERE "{table.key}" > ?'
        rows = db.execute(
            f'SELECT {_columns(table)} FROM {table.name} {where} ORDER BY "{table.key}" LIMIT ?',  # noqa: S608
            (table.rows_at_once or BATCH,) if after is None else (after, table.rows_at_once or BATCH),
        ).fetchall()
        if not rows:
            return
        yield [tuple(row) for row in rows]
        after = rows[-1][table.copied_columns.index(table.key)]


def _reported(batches: Iterator[list[Any]], table: str, rows: int, progress: Progress | None) -> Iterator[list[Any]]:
    """The batches, `progress` told of each once it is written (when the next is asked for)."""
    done = 0
    for batch in batches:
        yield batch
        done += len(batch)
        if progress is not None:
            progress(table, done, rows)


def _counts(db: Database) -> dict[str, int]:
    return {table.name: int(db.execute(f"SELECT COUNT(*) FROM {table.name}").fetchone()[0]) for table in TABLES}  # noqa: S608


def _refuse_a_full_target(db: Database, target: StoreBase) -> None:
    for name in USER_DATA:
        if db.execute(f"SELECT EXISTS (SELECT 1 FROM {name})").fetchone()[0]:  # noqa: S608 - fixed names
            held = "workspaces" if name == "chats" else "memories" if name == "memories" else "an indexed document"
            raise HistoryError(
                f"{target.describe()} already holds {held}; copy into an empty chat history (a new file, or a new "
                "database), so that nothing there is mixed with or written over."
            )


def copy_history(source: StoreBase, target: StoreBase, progress: Progress | None = None) -> dict[str, int]:
    """Copy everything `source` holds into the empty `target`; the rows copied of each table.

    HistoryError (one sentence) when the target is not empty, a store fails, or the counts differ: the
    target's transaction is then rolled back, and the target holds what it held before.
    """
    with source._snapshot() as reading, target._write() as writing:  # noqa: SLF001 - both are stores of this package
        _refuse_a_full_target(writing, target)
        counts = _counts(reading)
        dialect = target._dialect  # noqa: SLF001
        dialect.before_copy(writing)
        with dialect.indexing_turns(writing, counts["history"]) as index_turns:
            for table in TABLES:
                batches = _reported(_batches(reading, table), table.name, counts[table.name], progress)
                if table.name != "history":
                    dialect.insert_batches(writing, table.name, table.copied_columns, batches)
                    continue
                for rows in batches:  # the turns a batch at a time, each batch made findable
                    dialect.insert_rows(writing, table.name, table.copied_columns, rows)
                    index_turns([(row[0], row[1], row[2], row[3]) for row in rows])
            head = reading.execute("SELECT last_id, hash FROM audit_head WHERE id = 1").fetchone()
            writing.execute("UPDATE audit_head SET last_id = ?, hash = ? WHERE id = 1", (head[0], head[1]))
            dialect.after_copy(writing)  # while the last turns' vectors may still be being made
        copied = _counts(writing)
        _check(writing, counts, copied, target)
    return copied


def _check(db: Database, expected: dict[str, int], copied: dict[str, int], target: StoreBase) -> None:
    """The target holds as many rows of each table as the source, and each workspace counts its turns."""
    wrong = [f"{name} {copied[name]:,} of {count:,}" for name, count in expected.items() if copied[name] != count]
    kept = db.execute("SELECT COALESCE(SUM(turn_count), 0) FROM chats").fetchone()[0]
    if kept != copied["history"]:
        wrong.append(f"turn counts {kept:,} of {copied['history']:,}")
    if wrong:
        raise HistoryError(
            f"The copy into {target.describe()} did not match the source ({', '.join(wrong)}); nothing was kept — "
            "try again, and report it if it happens again."
        )
