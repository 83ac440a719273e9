"""The store's search: workspaces by name and by the words of their messages, ranked and limited in SQL.

Workspaces are visited most recently active first, and asked for their newest
matching turn only until `limit` are found, so the cost follows the workspaces
shown, not the number of matching turns. The newest matches overall are read
first (a bounded, lazy query): when that covers every match, no workspace needs
asking. Otherwise the workspaces not seen yet are asked 50 at a time in one
bounded query, and one by one only when a long workspace fills that bound.
Snippets are made for the rows shown only.
"""

from __future__ import annotations

from domain.records import SearchHit
from store.base import StoreBase
from store.sql import Database, TurnQuery
from store.visibility import visible_to
from store.words import words_query

NEWEST_MATCHES = 500  # matching turns read newest first in one query
ASKED_AT_ONCE = 50  # workspaces asked for their newest match in one query
LITERAL_WINDOW = 5_000  # text without letters or digits is looked for in this many newest turns
SNIPPET_TOKENS = 12
_CHATS = """SELECT chat_id, chat_name, chat_name {like} :pattern ESCAPE '\\' AS named FROM chats WHERE {seen}
            ORDER BY activity_seq DESC, chat_id DESC"""


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _one_line(text: str) -> str:
    return " ".join(text.split())


class SearchStore(StoreBase):
    """Full-text and name search over the workspaces."""

    def search_chats(self, text: str, limit: int = 20, viewer: int | None = None) -> list[SearchHit]:
        """Workspaces user `viewer` may see (None: all) whose name or messages contain `text`, most recently
        active first: only those are read, so other users' workspaces never crowd them out.

        Every word is quoted, so FTS operators (`OR`, `NEAR(`, `*`, `"`) and LIKE
        wildcards (`%`, `_`) in the user's text are matched as plain text; each
        word matches as a prefix. Text with no letters or digits (which the index
        does not hold) is looked up literally in the newest turns.
        """
        if not text.split():
            return []
        pattern = "%" + _escape_like(text.strip()) + "%"
        with self._read() as db:
            if any(character.isalnum() for character in text):
                return self._by_words(db, text, pattern, limit, viewer)
            return self._literally(db, text.strip(), pattern, limit, viewer)

    def _by_words(self, db: Database, text: str, pattern: str, limit: int, viewer: int | None) -> list[SearchHit]:
        query = words_query(db, text)
        seen, parameters = visible_to(viewer)
        chats = db.execute(
            _CHATS.format(like=self._dialect.like, seen=seen), {**parameters, "pattern": pattern}
        ).fetchall()
        if query is None or not chats:
            return [SearchHit(chat_id=row[0], chat_name=row[1]) for row in chats if row[2]][:limit]
        few = [row[0] for row in chats] if viewer is not None and len(chats) <= ASKED_AT_ONCE else None
        newest, complete = self._newest_matches(db, query, few)
        found: list[tuple[int, str, int | None]] = []
        for index, (chat_id, name, named) in enumerate(chats):
            if not complete and chat_id not in newest:
                unseen = [row[0] for row in chats[index : index + ASKED_AT_ONCE] if row[0] not in newest]
                newest.update(dict.fromkeys(unseen))
                newest.update(self._newest_in(db, unseen, query))
            turn_id = newest.get(chat_id)
            if turn_id is not None or named:
                found.append((chat_id, name, turn_id))
            if len(found) == limit:
                break
        shown = [turn_id for _, _, turn_id in found if turn_id is not None]
        snippets = self._dialect.snippets(db, query, shown, SNIPPET_TOKENS)
        return [
            SearchHit(
                chat_id=chat_id, chat_name=name, snippet=_one_line(snippets[turn_id]) if turn_id in snippets else None
            )
            for chat_id, name, turn_id in found
        ]

    def _newest_matches(
        self, db: Database, query: TurnQuery, chat_ids: list[int] | None = None
    ) -> tuple[dict[int, int | None], bool]:
        """The newest matching turn of each workspace among the newest matches; and whether those were all."""
        rows = self._dialect.newest_matches(db, query, chat_ids, NEWEST_MATCHES)
        newest: dict[int, int | None] = {}
        for chat_id, turn_id in rows:
            newest.setdefault(chat_id, turn_id)
        return newest, len(rows) < NEWEST_MATCHES

    def _newest_in(self, db: Database, chat_ids: list[int], query: TurnQuery) -> dict[int, int | None]:
        """The newest matching turn of each of these workspaces that has one: in one statement where the backend
        has one, else in one bounded statement for them all, then one by one."""
        each = self._dialect.newest_each(db, query, chat_ids)
        if each is not None:
            return each
        found, complete = self._newest_matches(db, query, chat_ids)
        if not complete:  # one long workspace filled the bound and may hide another's matches: ask the rest alone
            for chat_id in [chat_id for chat_id in chat_ids if chat_id not in found]:
                rows = self._dialect.newest_matches(db, query, [chat_id], 1)
                found[chat_id] = rows[0][1] if rows else None
        return found

    def _literally(self, db: Database, text: str, pattern: str, limit: int, viewer: int | None) -> list[SearchHit]:
        """Text of symbols only, in the workspace names and the newest turns (the index holds no symbols)."""
        dialect = self._dialect
        seen, parameters = visible_to(viewer)
        history_seen, _ = visible_to(viewer, "history.chat_id")
        rows = db.execute(
            f"""WITH recent AS (SELECT id, chat_id, "user", assistant FROM history WHERE {history_seen}
                                ORDER BY id DESC LIMIT :window),
                    found AS (SELECT chat_id, MAX(id) AS turn_id FROM recent
                              WHERE {dialect.position}("user", :text) > 0 OR {dialect.position}(assistant, :text) > 0
                              GROUP BY chat_id)
               SELECT chats.chat_id, chat_name, found.turn_id FROM chats LEFT JOIN found USING (chat_id)
               WHERE (found.turn_id IS NOT NULL OR chat_name {dialect.like} :pattern ESCAPE '\\') AND {seen}
               ORDER BY activity_seq DESC, chats.chat_id DESC LIMIT :limit""",  # noqa: S608 - the dialect's words
            {**parameters, "window": LITERAL_WINDOW, "text": text, "pattern": pattern, "limit": limit},
        ).fetchall()
        return [
            SearchHit(chat_id=chat_id, chat_name=name, snippet=self._around(db, turn_id, text) if turn_id else None)
            for chat_id, name, turn_id in rows
        ]

    @staticmethod
    def _around(db: Database, turn_id: int, text: str) -> str:
        """About 80 characters of the question or answer around the first occurrence of `text`."""
        user, assistant = db.execute('SELECT "user", assistant FROM history WHERE id = ?', (turn_id,)).fetchone()
        source = user if text in user else assistant
        start = max(0, source.index(text) - 40)
        excerpt = _one_line(source[start : start + 80])
        return ("…" if start else "") + excerpt + ("…" if start + 80 < len(source) else "")
