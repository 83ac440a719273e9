"""The store's search: workspaces by name and by the words of their messages (SQLite FTS5)."""

from __future__ import annotations

from domain.records import SearchHit
from store.base import StoreBase

_FTS_MATCHES = """
    SELECT history.chat_id AS chat_id, snippet(history_fts, -1, '', '', '…', 12) AS snippet
    FROM history_fts JOIN history ON history.id = history_fts.rowid WHERE history_fts MATCH :match"""
_LITERAL_MATCHES = """
    SELECT chat_id, substr(user, 1, 80) AS snippet FROM history
    WHERE user LIKE :pattern ESCAPE '\\' OR assistant LIKE :pattern ESCAPE '\\'"""


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class SearchStore(StoreBase):
    """Full-text and name search over the workspaces."""

    def search_chats(self, text: str, limit: int = 20) -> list[SearchHit]:
        """Workspaces whose name or messages contain `text`, most recently active first.

        Every word is quoted, so FTS operators (`OR`, `NEAR(`, `*`, `"`) and LIKE
        wildcards (`%`, `_`) in the user's text are matched as plain text. Text with
        no letters or digits (which the index does not hold) is looked up literally.
        """
        if not text.split():
            return []
        has_words = any(character.isalnum() for character in text)
        mentioned = _FTS_MATCHES if has_words else _LITERAL_MATCHES
        parameters = {
            "pattern": "%" + _escape_like(text.strip()) + "%",
            "match": " ".join('"' + word.replace('"', '""') + '"*' for word in text.split()),
            "limit": limit,
        }
        with self._lock, self._translated_errors():
            rows = self._db.execute(
                f"""WITH mentioned AS ({mentioned})
                    SELECT chat_id, chat_name,
                           (SELECT snippet FROM mentioned WHERE mentioned.chat_id = chats.chat_id LIMIT 1)
                    FROM chats
                    WHERE chat_name LIKE :pattern ESCAPE '\\' OR chat_id IN (SELECT chat_id FROM mentioned)
                    ORDER BY activity_seq DESC LIMIT :limit""",  # noqa: S608 - two fixed subqueries, no user text
                parameters,
            ).fetchall()
        return [SearchHit(chat_id=r[0], chat_name=r[1], snippet=r[2]) for r in rows]
