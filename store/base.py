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
from contextlib import AbstractContextManager
from pathlib import Path

from store.owners import new_owner
from store.sql import Database, Dialect

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
        self.owner = new_owner()  # whose claims and running turns are this store's (store.leases)
        self._held_claims: set[str] = set()
        self._running_turns: set[int] = set()
        self._renewer: threading.Thread | None = None
        self._closing = threading.Event()

    def _opened(self) -> None:
        """Called by the backend once the database is open and at the current schema."""

    # What each backend provides ------------------------------------------------------

    def _write(self) -> AbstractContextManager[Database]:
        """One short write transaction; it commits when the block ends, and leaves nothing if the block fails."""
        raise NotImplementedError

    def _read(self) -> AbstractContextManager[Database]:
        """Reads of more than one statement (SQLite: one snapshot; PostgreSQL: each statement's own, which is all
        the store's reads need, and saves two round trips)."""
        raise NotImplementedError

    def _snapshot(self) -> AbstractContextManager[Database]:
        """One consistent snapshot of the whole store, for as long as the block runs (a copy of everything)."""
        return self._read()

    def _query(self) -> AbstractContextManager[Database]:
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
