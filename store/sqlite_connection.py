"""The SQLite backend's connection: opening and upgrading the file, short transactions, errors as sentences,
backups.

Only SQLite ever opens the database file or its -wal, -shm and -journal
companions: on POSIX, closing any other descriptor of the file would drop every
lock this process's SQLite connections hold on it, and another process could
then checkpoint and delete the write-ahead log under them. So the file is
recognised through SQLite itself, and copies are made with SQLite's online
backup API, never by copying the file.

Writes run in `BEGIN IMMEDIATE` transactions that are short and never span a
model call; the file uses WAL so readers never block the writer, and a busy
timeout so several processes can share it.

A file deleted or replaced under the open store (or its write-ahead log deleted
by a process that believed itself alone) would take every later write with it
when the app stops. So the file and the log are recognised by their inode: it is
compared with the one seen at opening (a `stat`, which opens nothing) before each
write transaction and after its commit, and from the first difference every write
is refused with one sentence: no turn is acknowledged that is not durable.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from store import schema
from store.base import WORKSPACE_GONE, HistoryError, StoreBase
from store.sql import Database
from store.sqlite_dialect import SqliteDialect

BUSY_TIMEOUT_SECONDS = 15.0
FIRST_PAUSE, LONGEST_PAUSE = 0.0001, 0.002  # seconds between two tries at the write lock another process holds
COMPANION_SUFFIXES = ("-wal", "-shm", "-journal")


def store_files(path: Path) -> tuple[Path, ...]:
    """The files SQLite uses for a database at `path`: the real file (symlinks followed, as SQLite
    follows them) and the companions it keeps beside that real file."""
    base = Path(os.path.realpath(path))
    return (base, *(base.with_name(base.name + suffix) for suffix in COMPANION_SUFFIXES))


def is_store_file(candidate: Path, db_path: Path) -> bool:
    """Whether `candidate` is one of the files of the database at `db_path`, under this name or another.

    Compared by real path, and, so that a hard link cannot hide one, by device
    and inode (read with `stat`, which opens nothing).
    """
    wanted = Path(os.path.realpath(candidate))
    for part in store_files(db_path):
        if wanted == part:
            return True
        with suppress(OSError):
            if os.path.samefile(wanted, part):
                return True
    return False


def _identity(path: Path) -> tuple[int, int] | None:
    """The (device, inode) of the file at `path` (links followed, as SQLite follows them); None if there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def sqlite_path(target: str | Path) -> Path:
    """The file a SQLite target names: a path, or a URL as SQLAlchemy writes them (`sqlite:///relative/path`,
    `sqlite:////absolute/path`)."""
    text = str(target)
    if text.startswith("sqlite:///"):
        return Path(text.removeprefix("sqlite:///"))
    return Path(target)


class SqliteConnection(StoreBase):
    """One SQLite connection, shared by the threads of one face under a lock."""

    _dialect = SqliteDialect()

    def __init__(self, target: str | Path = "chat_history.sqlite") -> None:
        super().__init__()
        self.path = sqlite_path(target)
        existed = self.path.exists()
        self._files: tuple[tuple[Path, tuple[int, int]], ...] = ()  # the files written, by the inode seen at opening
        self._wal = False  # whether the file is in WAL mode (set on opening)
        self._lost: str | None = None  # the sentence, once the file was deleted or replaced under the store
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
            )
        except (OSError, sqlite3.OperationalError) as error:
            raise self._cannot_create(error) from None
        self._db.row_factory = sqlite3.Row
        try:
            self._open()
            self._opened()
        except BaseException:
            self._db.close()
            if not existed and self.path.exists() and self.path.stat().st_size == 0:
                self.path.unlink()  # nothing half-created
            raise

    @property
    def schema_version(self) -> int:
        return len(schema.MIGRATIONS)

    def describe(self) -> str:
        return str(self.path)

    def files(self) -> tuple[Path, ...]:
        """The files that make up this store; nothing but SQLite may open them."""
        return store_files(self.path)

    def owns(self, path: Path) -> bool:
        """Whether `path` is one of this store's files, under this name or another."""
        return is_store_file(path.expanduser(), self.path)

    def close(self) -> None:
        self._closing.set()
        with self._lock:
            self._db.close()

    def backup(self, target: Path) -> None:
        """Copy the whole store, consistent at one moment, into a new SQLite file at `target`.

        Uses SQLite's online backup API, so writers may go on meanwhile and the
        store's own locks are never disturbed.
        """
        if self.owns(target):
            raise PermissionError(f"{target} is a file of the chat history itself; choose another file for the backup")
        if target.exists():
            raise FileExistsError(f"{target} already exists; choose a new file name for the backup")
        try:
            copy = sqlite3.connect(target)
        except sqlite3.Error as error:
            raise HistoryError(
                f"The backup cannot be written to {target} ({error}); choose a folder you can write to."
            ) from None
        try:
            with self._lock, self._translated_errors():
                self._db.backup(copy)
        except BaseException:
            copy.close()
            target.unlink(missing_ok=True)
            raise
        copy.close()

    # Opening ---------------------------------------------------------------------

    def _cannot_create(self, error: Exception) -> HistoryError:
        reason = getattr(error, "strerror", None) or str(error)
        return HistoryError(
            f"The chat history cannot be created at {self.path} ({reason}); set CHAT_HISTORY_DB_PATH "
            "to a file in a folder you can write to."
        )

    def _open(self) -> None:
        with self._translated_errors(opening=True):
            version, tables = self._inspect()
            self.schema_found = version
            if version > self.schema_version:
                raise HistoryError(
                    f"{self.path} was written by a newer version of this application (schema {version}, "
                    f"this version knows up to {self.schema_version}); it was left untouched — update the "
                    "application."
                )
            if version == 0 and tables and "chats" not in tables:
                raise HistoryError(
                    f"{self.path} is an SQLite database of another application, not chat history; it was "
                    "left untouched — set CHAT_HISTORY_DB_PATH to another file."
                )
            if version < self.schema_version and tables:
                self._check_integrity()  # before the first write, so a damaged file stays as it was
            self._wal = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate(version)
            self._files = self._written_files(self._wal)

    def _written_files(self, wal: bool) -> tuple[tuple[Path, tuple[int, int]], ...]:
        """The database file and, in WAL mode, its log (which exists while any connection is open), by inode."""
        base = store_files(self.path)[0]
        paths = [self.path.absolute(), base.with_name(base.name + "-wal")] if wal else [self.path.absolute()]
        return tuple((path, found) for path in paths if (found := _identity(path)) is not None)

    def check_writable(self) -> None:
        """HistoryError if the store's file was deleted or replaced since it was opened (nothing can be saved)."""
        with self._lock:
            self._check_files()

    def _check_files(self) -> None:
        """Refuse to write once a file of the store was deleted or replaced since it was opened (or it was closed,
        which deletes the write-ahead log)."""
        self._refuse_if_closed()
        if self._lost is None:
            for path, seen in self._files:
                if _identity(path) != seen:
                    self._lost = (
                        f"The chat history file {path} was deleted or replaced while the app was running, so "
                        "nothing more can be saved to it; restart the app (it opens whatever is at that path now)."
                    )
                    break
        if self._lost is not None:
            raise HistoryError(self._lost)

    def _check_integrity(self) -> None:
        problem = self._db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":
            raise sqlite3.DatabaseError(problem)

    def _inspect(self) -> tuple[int, set[str]]:
        """The schema version and table names; SQLite itself says if the file is no database."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        rows = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        return version, {row[0] for row in rows}

    def _migrate(self, version: int) -> None:
        """Each pending migration in a `BEGIN IMMEDIATE` transaction of its own, so one process migrates at a
        time and a migration that fails leaves the file at the version before it."""
        migrations = schema.MIGRATIONS
        for number in range(version + 1, len(migrations) + 1):
            with self._write() as db:
                current = db.execute("PRAGMA user_version").fetchone()[0]
                if current >= number:  # another process migrated meanwhile
                    continue
                migrations[number - 1](self._db)
                db.execute(f"PRAGMA user_version = {number:d}")

    # Transactions ----------------------------------------------------------------

    @contextmanager
    def _writing(self, flushed: bool = True) -> Iterator[Database]:
        """One short write transaction, taken with BEGIN IMMEDIATE so it never deadlocks. Not `flushed`, and in WAL
        mode, its commit does not wait for the disk (synchronous NORMAL: the file stays whole if the power goes, and
        the next flushed commit flushes it too); with two server processes, each served turn's summary claim had
        waited for one."""
        relaxed = not flushed and self._wal
        with self._lock:
            self._check_files()
            with self._translated_errors():
                if relaxed:
                    self._db.execute("PRAGMA synchronous=NORMAL")  # not allowed inside a transaction
                try:
                    self._begin_immediate()
                    yield self._db
                    self._db.execute("COMMIT")
                finally:
                    if self._db.in_transaction:  # the block or the COMMIT failed
                        self._db.execute("ROLLBACK")
                    if relaxed:
                        self._db.execute("PRAGMA synchronous=FULL")
            self._check_files()  # committed into a file deleted meanwhile is not saved: never acknowledged

    def _begin_immediate(self) -> None:
        """Take the write lock, waiting for another process's write in steps of at most LONGEST_PAUSE. SQLite's own
        busy wait sleeps 1, 2, 5, 10, 15, 20, 25 ms… however soon the other writer is done: with two server processes
        on one file, a fifth of the writes slept, up to 35 ms, holding up every other query of their process."""
        self._db.execute("PRAGMA busy_timeout = 0")
        try:
            deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
            pause = FIRST_PAUSE
            while True:
                try:
                    self._db.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as error:
                    busy = (error.sqlite_errorcode & 0xFF) == sqlite3.SQLITE_BUSY  # also BUSY_RECOVERY, _SNAPSHOT…
                    if not busy or time.monotonic() >= deadline:
                        raise
                time.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)
        finally:
            self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_SECONDS * 1000:.0f}")

    @contextmanager
    def _reading(self) -> Iterator[Database]:
        """A consistent snapshot for reads that take more than one query."""
        with self._lock, self._translated_errors():
            self._refuse_if_closed()
            self._db.execute("BEGIN")
            try:
                yield self._db
            finally:
                if self._db.in_transaction:
                    self._db.execute("COMMIT")

    @contextmanager
    def _querying(self) -> Iterator[Database]:
        with self._lock, self._translated_errors():
            self._refuse_if_closed()
            yield self._db

    def _refuse_if_closed(self) -> None:
        """A thread still working when the face closed the store (at exit) is told so, not that the file is damaged."""
        if self._closing.is_set():
            raise HistoryError(f"The chat history at {self.path} was closed.")

    @contextmanager
    def _translated_errors(self, opening: bool = False) -> Iterator[None]:
        """SQLite's exceptions as one sentence that says what happened and what to do."""
        untouched = "it was left untouched — " if opening else ""
        try:
            yield
        except sqlite3.IntegrityError:
            raise HistoryError(WORKSPACE_GONE) from None
        except sqlite3.OperationalError as error:
            raise self._operational(error, opening, untouched) from None
        except sqlite3.DatabaseError as error:
            if getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_NOTADB:
                raise HistoryError(
                    f"{self.path} is not an SQLite database, so the chat history cannot be opened; {untouched}"
                    "move it aside or set CHAT_HISTORY_DB_PATH to another file."
                ) from None
            raise self._damaged(error, untouched) from None

    def _operational(self, error: sqlite3.OperationalError, opening: bool, untouched: str) -> HistoryError:
        if "locked" in str(error) or "busy" in str(error):
            return HistoryError(
                f"The chat history at {self.path} stayed busy for {BUSY_TIMEOUT_SECONDS:.0f} s "
                "(another program is writing to it); try again."
            )
        if "unable to open" in str(error) or "readonly" in str(error):
            return self._cannot_create(error)
        if not opening:
            return HistoryError(f"The chat history at {self.path} could not be used: {error}.")
        return self._damaged(error, untouched)

    def _damaged(self, error: sqlite3.Error, untouched: str) -> HistoryError:
        return HistoryError(
            f"The chat history at {self.path} is damaged ({' '.join(str(error).split())}); {untouched}"
            "restore it from a backup, or move it aside or set CHAT_HISTORY_DB_PATH to start a new one."
        )
