"""The PostgreSQL backend's connection: opening and upgrading the database, short transactions, reconnecting,
errors as sentences.

One psycopg connection per store, shared by the threads of a face under a lock, as SQLite's is;
statements run in autocommit, writes in short `BEGIN … COMMIT` transactions (read committed; the
statements that must not race lock the rows they change), reads statement by statement (each sees
what was committed when it began), and a whole copy in one read-only repeatable-read snapshot. A
connection the server dropped (a restart, a network cut) is opened anew by the next statement that
starts a transaction or stands alone; a transaction it cut off fails with one sentence and leaves
nothing, as PostgreSQL rolls it back.

Migrations run one process at a time under an advisory lock, each in a transaction of its own, so a
migration that fails leaves the database at the version before it. psycopg is imported only when a
PostgreSQL store is opened, so the SQLite default never loads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from store import postgres_schema
from store.base import WORKSPACE_GONE, HistoryError, StoreBase
from store.postgres_dialect import PostgresDialect
from store.postgres_url import PostgresUrl, parse_postgres_url
from store.sql import Database

CONNECT_SECONDS = 10
LOCK_WAIT = "15s"  # a write waits this long for another's row locks (as SQLite's busy timeout)
MIGRATION_LOCK = 0x656E67696E656572  # the advisory lock the store's migrations hold ("engineer")
APPLICATION_NAME = "engineering-assistant"


class PostgresConnection(StoreBase):
    """One PostgreSQL connection, shared by the threads of one face under a lock."""

    _dialect = PostgresDialect()

    def __init__(self, target: str | Path = "") -> None:
        super().__init__()
        try:
            self.url: PostgresUrl = parse_postgres_url(str(target))
        except ValueError as error:
            raise HistoryError(f"DATABASE_URL {error}.") from None
        self._connect()
        try:
            self._open()
            self._opened()
        except BaseException:
            self._database.connection.close()
            raise

    @property
    def schema_version(self) -> int:
        return len(postgres_schema.MIGRATIONS)

    def describe(self) -> str:
        return self.url.shown

    def close(self) -> None:
        self._closing.set()
        with self._lock:
            if self._database is not None:
                self._database.connection.close()

    # Connecting ------------------------------------------------------------------------

    def _connect(self) -> None:
        from store.postgres_adapters import PgDatabase

        self._database: Any = PgDatabase(self._new_connection)

    def _new_connection(self) -> Any:
        import psycopg

        from store.postgres_adapters import adapt, rows

        try:
            connection = psycopg.connect(
                self.url.url,
                autocommit=True,
                connect_timeout=CONNECT_SECONDS,
                application_name=APPLICATION_NAME,
                client_encoding="utf8",  # text and the columns' names come as UTF-8, whatever the database's own
                options=f"-c lock_timeout={LOCK_WAIT}",
                row_factory=rows,
            )
        except psycopg.Error as error:
            raise self._cannot_connect(error) from None
        adapt(connection)
        return connection

    def _live(self, first: str | None = None) -> Any:
        """The connection (opened anew if the server dropped it), after `first` ran on it."""
        if self._closing.is_set():
            raise HistoryError(f"The chat history at {self.url.shown} was closed.")
        database = self._database
        database.reopen_if_dropped()
        database.retry_next = True
        if first is not None:
            database.execute(first)
        return database

    def _cannot_connect(self, error: Exception) -> HistoryError:
        where = f"{self.url.host}:{self.url.port}"
        text = self.url.redact(" ".join(str(error).split()))
        if "password authentication failed" in text or "no password supplied" in text or "role" in text:
            return HistoryError(
                f"PostgreSQL at {where} refused user {self.url.user} (a wrong password, or no such user); "
                "correct the user and password in DATABASE_URL (or in the URL given)."
            )
        if "does not exist" in text and "database" in text:
            return HistoryError(
                f"The database {self.url.database} does not exist on the PostgreSQL server at {where}; create it "
                "(see docs/office-server.md) or correct DATABASE_URL (or the URL given)."
            )
        if "starting up" in text or "shutting down" in text or "recovery" in text:
            return HistoryError(f"The PostgreSQL server at {where} is starting or stopping; try again in a moment.")
        reason = re.sub(r"^.*failed: ", "", text).split(" Is the server")[0].strip()
        return HistoryError(
            f"The PostgreSQL server at {where} cannot be reached ({reason}); start it, or correct DATABASE_URL "
            "(or the URL given)."
        )

    # Opening and migrating --------------------------------------------------------------

    def _open(self) -> None:
        with self._query() as db:
            version, tables = self._inspect(db)
        self.schema_found = version
        if version < self.schema_version:
            with self._migration_lock() as db:
                self._migrate(db)
        else:
            self._refuse_newer(version)

    def _inspect(self, db: Database) -> tuple[int, set[str]]:
        tables = {
            str(row[0])
            for row in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").fetchall()
        }
        if "schema_version" not in tables:
            if tables:
                raise HistoryError(
                    f"The database {self.url.shown} holds the tables of another application, not chat history; "
                    "it was left untouched — point DATABASE_URL at a database of its own."
                )
            return 0, tables
        return int(db.execute("SELECT version FROM schema_version").fetchone()[0]), tables

    def _refuse_newer(self, version: int) -> None:
        if version > self.schema_version:
            raise HistoryError(
                f"The database {self.url.shown} was written by a newer version of this application (schema "
                f"{version}, this version knows up to {self.schema_version}); it was left untouched — update the "
                "application."
            )

    @contextmanager
    def _migration_lock(self) -> Iterator[Database]:
        """The session's advisory lock on migrating, waited for as long as another process migrates."""
        with self._query() as db:
            db.execute("SET lock_timeout = 0")
            db.execute("SELECT pg_advisory_lock(?)", (MIGRATION_LOCK,))
            try:
                yield db
            finally:
                db.execute("SELECT pg_advisory_unlock(?)", (MIGRATION_LOCK,))
                db.execute(f"SET lock_timeout = '{LOCK_WAIT}'")

    def _migrate(self, db: Database) -> None:
        version, _ = self._inspect(db)  # another process may have migrated while this one waited
        self._refuse_newer(version)
        migrations = postgres_schema.MIGRATIONS
        for number in range(version + 1, len(migrations) + 1):
            with self._write() as step:
                migrations[number - 1](step)
                step.execute("UPDATE schema_version SET version = ?", (number,))

    # Transactions ------------------------------------------------------------------------

    def _writing(self, flushed: bool = True) -> AbstractContextManager[Database]:
        """Every commit waits for the disk: `SET LOCAL synchronous_commit = off` for a write not `flushed` costs a
        round trip, and 50 served sessions ran no faster without the wait (bench/README.md)."""
        return self._transaction("BEGIN")

    @contextmanager
    def _reading(self) -> Iterator[Database]:
        """Reads of several statements, each seeing what was committed when it began (read committed): none of the
        store's reads needs more, and each transaction's BEGIN and COMMIT would cost two more round trips to the
        server. A turn is written with its tool calls in one transaction and never changed but for its status, so
        the tool calls read after their turn are the turn's; a workspace deleted meanwhile leaves a turn without
        them, as if read a moment earlier."""
        with self._query() as database:
            yield database

    def _snapshot(self) -> AbstractContextManager[Database]:
        """One consistent snapshot (repeatable read, read only), for a copy of everything."""
        return self._transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[Database]:
        """The block in one transaction begun by `begin`; committed when it ends, rolled back if it fails."""
        with self._lock, self._translated_errors():
            database = self._live(begin)
            try:
                yield database
                database.execute("COMMIT")
            finally:
                self._roll_back_if_open(database)

    @contextmanager
    def _querying(self) -> Iterator[Database]:
        with self._lock, self._translated_errors():
            yield self._live()

    @staticmethod
    def _roll_back_if_open(database: Any) -> None:
        from psycopg import Error
        from psycopg.pq import TransactionStatus

        connection = database.connection
        if not connection.broken and connection.info.transaction_status != TransactionStatus.IDLE:
            try:
                connection.execute("ROLLBACK")
            except Error:
                pass  # the connection went meanwhile: the server rolled the transaction back

    # Errors -------------------------------------------------------------------------------

    @contextmanager
    def _translated_errors(self) -> Iterator[None]:
        """psycopg's exceptions as one sentence that says what happened and what to do (never the password)."""
        import psycopg
        from psycopg import errors

        try:
            yield
        except errors.ForeignKeyViolation:
            raise HistoryError(WORKSPACE_GONE) from None
        except psycopg.Error as error:
            raise self._sentence(error) from None

    def _sentence(self, error: Any) -> HistoryError:
        from psycopg import errors

        where = self.url.shown
        detail = self.url.redact(" ".join(str(error).split("\n")[0].split()))
        if isinstance(error, errors.InsufficientPrivilege):
            return HistoryError(
                f"PostgreSQL user {self.url.user} lacks the rights this needs in {where} ({detail}); the application's "
                "role must own its database (see docs/office-server.md)."
            )
        if isinstance(error, errors.DiskFull | errors.OutOfMemory):
            return HistoryError(
                f"The PostgreSQL server of {where} has no room for this ({detail}); nothing was stored — free space "
                "on the server, then try again."
            )
        if isinstance(error, errors.LockNotAvailable):
            return HistoryError(
                f"The chat history at {where} stayed busy for {LOCK_WAIT} (another program is writing to it); "
                "try again."
            )
        if isinstance(error, errors.ReadOnlySqlTransaction):
            return HistoryError(f"The PostgreSQL server of {where} accepts no writes now (a standby); try again later.")
        if isinstance(error, errors.OperationalError) or self._database.connection.broken:
            return HistoryError(
                f"The connection to the PostgreSQL server of {where} was lost ({detail}); nothing of this step was "
                "stored — try again (the connection is opened anew)."
            )
        return HistoryError(f"The chat history at {where} could not be used: {detail}.")
