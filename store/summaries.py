"""The store's digital-twin columns: each workspace's summary and which turns it covers."""

from __future__ import annotations

from domain.records import Turn
from store.sql import timestamp
from store.turns import HAS_CONTENT, TurnStore


class SummaryStore(TurnStore):
    """A workspace's summary, stamped with its time and the last turn it covers."""

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
        with self._query() as db:
            row = db.execute("SELECT context_summary FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
        return row[0] if row else None

    def count_unsummarised_turns(self, chat_id: int) -> int:
        """How many turns the workspace's summary does not cover yet (turns that failed before any answer aside)."""
        with self._query() as db:
            row = db.execute(
                f"""SELECT COUNT(*) FROM history JOIN chats USING (chat_id)
                    WHERE chat_id = ? AND history.id > COALESCE(chats.summary_turn_id, 0)
                      AND {HAS_CONTENT}""",  # noqa: S608 - a fixed condition
                (chat_id,),
            ).fetchone()
        return int(row[0])

    def turns_since_summary(self, chat_id: int, limit: int) -> tuple[list[Turn], int]:
        """The newest `limit` turns the summary does not cover yet, and how many such turns exist.

        Turns that failed before any answer are no content to summarise: they are neither returned nor counted. A
        summary is written from the questions and answers: the turns' tool calls and pictures are not read.
        """
        with self._read() as db:
            row = db.execute(
                f"""SELECT covered, (SELECT COUNT(*) FROM history WHERE chat_id = ? AND id > covered AND {HAS_CONTENT})
                    FROM (SELECT COALESCE(summary_turn_id, 0) AS covered FROM chats WHERE chat_id = ?) AS summary""",  # noqa: S608
                (chat_id, chat_id),
            ).fetchone()
            after, total = (int(row[0]), int(row[1])) if row else (0, 0)
            turns = (
                self._select_turns(db, chat_id, limit, after_turn_id=after, content_only=True, whole=False)
                if total
                else []
            )
        return turns, total
