"""The store's digital-twin columns: each workspace's summary and which turns it covers.

A part of `ChatHistoryDB` (mixed into it in history.py), kept apart so the
store's modules stay readable; it uses the store's connection and transactions.
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import AbstractContextManager

from core.records import Turn
from core.schema import timestamp


class SummaryStore:
    """A workspace's summary, stamped with its time and the last turn it covers."""

    _db: sqlite3.Connection
    _lock: threading.RLock

    def _write(self) -> AbstractContextManager[sqlite3.Connection]: ...  # provided by ChatHistoryDB
    def _read(self) -> AbstractContextManager[sqlite3.Connection]: ...  # provided by ChatHistoryDB
    def _translated_errors(self) -> AbstractContextManager[None]: ...  # provided by ChatHistoryDB

    def _select_turns(  # provided by ChatHistoryDB
        self,
        db: sqlite3.Connection,
        chat_id: int,
        limit: int | None,
        before_turn_id: int | None = None,
        after_turn_id: int = 0,
    ) -> list[Turn]: ...

    def set_context_summary(self, chat_id: int, summary: str | None, through_turn_id: int | None = None) -> None:
        """Store the workspace's summary, stamped now, as covering turns up to `through_turn_id`.

        Without `through_turn_id` the summary is taken to cover every turn so far
        (the user wrote or edited it by hand).
        """
        with self._write() as db:
            db.execute(
                """UPDATE chats SET context_summary = :summary, context_updated_at = :now,
                       summary_turn_id = COALESCE(:through,
                           (SELECT MAX(id) FROM history WHERE chat_id = :chat_id))
                   WHERE chat_id = :chat_id""",
                {"summary": summary, "now": timestamp(), "through": through_turn_id, "chat_id": chat_id},
            )

    def get_context_summary(self, chat_id: int) -> str | None:
        with self._lock, self._translated_errors():
            row = self._db.execute("SELECT context_summary FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
        return row[0] if row else None

    def count_unsummarised_turns(self, chat_id: int) -> int:
        """How many turns the workspace's summary does not cover yet."""
        with self._lock, self._translated_errors():
            row = self._db.execute(
                """SELECT COUNT(*) FROM history JOIN chats USING (chat_id)
                   WHERE chat_id = ? AND history.id > COALESCE(chats.summary_turn_id, 0)""",
                (chat_id,),
            ).fetchone()
        return int(row[0])

    def turns_since_summary(self, chat_id: int, limit: int) -> tuple[list[Turn], int]:
        """The newest `limit` turns the summary does not cover yet, and how many such turns exist."""
        with self._read() as db:
            row = db.execute("SELECT COALESCE(summary_turn_id, 0) FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
            after = int(row[0]) if row else 0
            total = db.execute(
                "SELECT COUNT(*) FROM history WHERE chat_id = ? AND id > ?", (chat_id, after)
            ).fetchone()[0]
            turns = self._select_turns(db, chat_id, limit, after_turn_id=after) if total else []
        return turns, int(total)
