"""Which issued package revision a file is, by its SHA-256: a part of the store (`ChatHistoryDB.find_issued`), and
the one thing `python main.py verify` opens the chat history for (`open_issued`: the store opened as every process
opens it, its schema brought up to date, with none of its other parts and none of the records' validation loaded).
"""

from __future__ import annotations

from pathlib import Path

from domain.issued import IssuedMatch
from store.base import StoreBase
from store.postgres_connection import PostgresConnection
from store.postgres_url import is_postgres_url
from store.sqlite_connection import SqliteConnection
from store.visibility import visible_to


class IssuedRevisions(StoreBase):
    """The approved revisions, found by their PDF's SHA-256."""

    def find_issued(self, sha256: str, viewer: int | None = None) -> IssuedMatch | None:
        """The approved revision whose PDF has this SHA-256, if any, in a workspace user `viewer` may see (None:
        any)."""
        seen, parameters = visible_to(viewer, "package_revisions.chat_id")
        with self._query() as db:
            row = db.execute(
                f"""SELECT chat_id, workspace_name, letter, approved_by, approved_at, sha256 FROM package_revisions
                   WHERE sha256 = :sha256 AND status = 'approved' AND {seen} ORDER BY id LIMIT 1""",  # noqa: S608
                {**parameters, "sha256": sha256},
            ).fetchone()
        return IssuedMatch(**dict(row)) if row is not None else None


class SqliteIssued(SqliteConnection, IssuedRevisions):
    """A SQLite chat history opened for `find_issued` alone."""


class PostgresIssued(PostgresConnection, IssuedRevisions):
    """A PostgreSQL chat history opened for `find_issued` alone (psycopg is imported as it opens)."""


def open_issued(target: str | Path) -> IssuedRevisions:
    """The chat history at `target` (a SQLite file or a PostgreSQL URL) opened for `find_issued` alone; close it."""
    return PostgresIssued(str(target)) if is_postgres_url(str(target)) else SqliteIssued(target)
