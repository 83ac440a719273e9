"""What every part of the store stands on, whichever the backend: one connection shared by the threads of a
face under a lock, short transactions, errors as sentences.

Each backend (`store.sqlite_connection`, `store.postgres_connection`) opens its database, upgrades its
schema and provides the ways in: `_write()` (one short write transaction, never spanning a model call),
`_read()` (reads of more than one statement), `_query()` (one statement) and `_snapshot()` (one
consistent snapshot, for a copy of everything). The parts of the store (`store.chats`, `store.turns`,
…) use only those and the backend's `Dialect`, so their SQL is written once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from store.holders import new_holder
from store.sql import Database, Dialect

if TYPE_CHECKING:
    from domain.records import FinishedTurn  # the records load where turns are read or written, not for a lookup

WORKSPACE_GONE = (
    "That workspace no longer exists (it may have been deleted in another window); choose or create another one."
)


class HistoryError(RuntimeError):
    """The chat history cannot be read or written; the message says why and what to do."""


class StoreBase:
    """The store's connection, as the parts of the store see it; a backend fills it in."""

    _dialect: Dialect

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.schema_found = 0  # the schema version the database had when this store opened it
        self.holder = new_holder()  # whose claims and running turns are this store's (store.leases)
        self._held_claims: set[str] = set()
        self._running_turns: set[int] = set()
        self._unsaved: list[FinishedTurn] = []  # turns the database was away for, stored as soon as it is back
        self._renewer: threading.Thread | None = None
        self._closing = threading.Event()
        self._unit: tuple[int, Database] | None = None  # the thread with a unit of work open, and its transaction

    def _opened(self) -> None:
        """Called by the backend once the database is open and at the current schema."""

    # The ways in, which a unit of work joins ------------------------------------------

    @contextmanager
    def unit_of_work(self) -> Iterator[None]:
        """Every write and read of the block in one transaction, committed when the block ends, or nothing of it
        if it fails: a use case that makes a workspace and sets its owner, or deletes one and records it in the
        audit trail, does both or neither. Short, like every write: never across a model call."""
        if self._joined() is not None:
            yield
            return
        with self._writing() as db:
            self._unit = (threading.get_ident(), db)
            try:
                yield
            finally:
                self._unit = None

    def _joined(self) -> Database | None:
        """The transaction of the unit of work this thread has open, if any."""
        unit = self._unit
        return unit[1] if unit is not None and unit[0] == threading.get_ident() else None

    def _write(self, flushed: bool = True) -> AbstractContextManager[Database]:
        """One short write transaction (or the open unit of work's); it commits when the block ends, and leaves
        nothing if the block fails. `flushed=False`: a write nothing is lost with if the machine loses power before
        the next flushed one (a claim, which lapses anyway), so that its commit need not wait for the disk."""
        return self._joining(partial(self._writing, flushed))

    def _read(self) -> AbstractContextManager[Database]:
        """Reads of more than one statement (SQLite: one snapshot; PostgreSQL: each statement's own, which is all
        the store's reads need, and saves two round trips); inside a unit of work, its transaction."""
        return self._joining(self._reading)

    def _query(self) -> AbstractContextManager[Database]:
        """The connection for one statement, outside any transaction (or inside the open unit of work's)."""
        return self._joining(self._querying)

    def _joining(self, opening: Callable[[], AbstractContextManager[Database]]) -> AbstractContextManager[Database]:
        """The open unit of work's transaction, or what `opening` opens. Every statement of the store passes here:
        the context managers are handed on, not wrapped in one more generator each (1-2 µs a statement apiece). The
        unit of work is looked for now, in this thread: enter what this returns at once, as every `with` does."""
        joined = self._joined()
        return nullcontext(joined) if joined is not None else opening()

    # What each backend provides ------------------------------------------------------

    def _writing(self, flushed: bool = True) -> AbstractContextManager[Database]:
        """One short write transaction of its own (`flushed`: as `_write` says)."""
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Database]:
        """Reads of more than one statement, on their own."""
        raise NotImplementedError

    def _snapshot(self) -> AbstractContextManager[Database]:
        """One consistent snapshot of the whole store, for as long as the block runs (a copy of everything)."""
        return self._reading()

    def _querying(self) -> AbstractContextManager[Database]:
        """The connection for one statement, outside any transaction."""
        raise NotImplementedError

    @property
    def schema_version(self) -> int:
        """The schema version this version of the application writes."""
        raise NotImplementedError

    def describe(self) -> str:
        """Where the chat history is, for a sentence (a file, or a database without its password)."""
        raise NotImplementedError

    def files(self) -> tuple[Path, ...]:
        """The files that make up this store, which nothing but the store may open (none for a database server)."""
        return ()

    def owns(self, path: Path) -> bool:
        """Whether `path` is one of this store's files, under this name or another."""
        return False

    def check_writable(self) -> None:
        """HistoryError when nothing more can be saved (the store's file was deleted or replaced under it)."""

    def backup(self, target: Path) -> None:
        """Copy every workspace, consistent at one moment, into a new SQLite file at `target`."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError
