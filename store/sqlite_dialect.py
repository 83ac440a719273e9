"""SQLite's own SQL: full-text search with FTS5 (turns, passages, memories), and the expressions PostgreSQL
writes otherwise.

Turns are indexed by triggers into `turn_search` (`unicode61 remove_diacritics 2`, with each turn's
workspace as a column, so that a search can be limited to some workspaces); passages and memories
into `passage_search` and `memory_search` (Porter stemming), ranked by BM25.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from typing import Any

from store.sql import ADD_AUDIT_ROW, AuditRow, Database, TurnQuery, TurnRows


def quoted(tokens: list[str]) -> str:
    """Words as one FTS5 phrase: quoted, so that FTS5's operators in them are plain text."""
    return '"' + " ".join(token.replace('"', '""') for token in tokens) + '"'


def turn_expression(query: TurnQuery, chat_ids: Sequence[int] | None = None) -> str:
    """An FTS5 query for turns holding every typed word (any of its phrases) in their question or answer."""
    words = " AND ".join("(" + " OR ".join(quoted(phrase) for phrase in phrases) + ")" for phrases in query)
    expression = "{user assistant} : (" + words + ")"
    if chat_ids is None:
        return expression
    return "workspace : (" + " OR ".join(f'"w{chat_id:d}"' for chat_id in chat_ids) + f") AND {expression}"


def match_expression(words: list[str]) -> str | None:
    """Passages or memories holding any of `words`, each quoted (BM25 ranks the best)."""
    return " OR ".join(f'"{word}"' for word in words) or None


class SqliteDialect:
    """What SQLite says its own way; see `store.sql.Dialect`."""

    name = "sqlite"
    like = "LIKE"
    position = "instr"
    now_seconds = "((julianday('now') - 2440587.5) * 86400.0)"

    def next_activity(self) -> str:
        return "(SELECT COALESCE(MAX(activity_seq), 0) + 1 FROM chats)"

    def id_list(self, ids: Sequence[int]) -> tuple[str, Any]:
        return "SELECT value FROM json_each(?)", json.dumps(list(ids))

    def index_turns(self, db: Database, turns: Sequence[tuple[int, int, str, str]]) -> None:
        """Nothing to do: the triggers of schema 7 index each turn as it is written."""

    def indexing_turns(self, db: Database, turns: int) -> AbstractContextManager[Callable[[TurnRows], None]]:
        return nullcontext(partial(self.index_turns, db))

    def insert_rows(self, db: Database, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        names = ", ".join(f'"{name}"' for name in columns)
        marks = ", ".join("?" for _ in columns)
        db.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)  # noqa: S608 - fixed names

    def insert_batches(
        self, db: Database, table: str, columns: Sequence[str], batches: Iterable[Sequence[Sequence[Any]]]
    ) -> None:
        for rows in batches:
            self.insert_rows(db, table, columns, rows)

    def before_copy(self, db: Database) -> None:
        """Nothing to do: the triggers keep the counts and the indexes, AUTOINCREMENT follows the ids written."""

    def after_copy(self, db: Database) -> None:
        """Nothing to do (see `before_copy`)."""

    def add_terms(self, db: Database, words: Iterable[str]) -> None:
        db.executemany("INSERT OR IGNORE INTO search_terms (term) VALUES (?)", [(word,) for word in words])

    def add_audit_record(self, db: Database, record: AuditRow) -> None:
        db.execute(ADD_AUDIT_ROW, record)
        db.execute("UPDATE audit_head SET hash = ? WHERE id = 1", (record.hash,))

    def newest_matches(
        self, db: Database, query: TurnQuery, chat_ids: Sequence[int] | None, limit: int
    ) -> list[tuple[int, int]]:
        rows = db.execute(
            """SELECT history.chat_id, history.id FROM turn_search JOIN history ON history.id = turn_search.rowid
               WHERE turn_search MATCH ? ORDER BY turn_search.rowid DESC LIMIT ?""",
            (turn_expression(query, chat_ids), limit),
        ).fetchall()
        return [(int(chat_id), int(turn_id)) for chat_id, turn_id in rows]

    def newest_each(self, db: Database, query: TurnQuery, chat_ids: Sequence[int]) -> dict[int, int | None] | None:
        """None: FTS5 finds the newest matches of several workspaces at once (their workspace column among the
        words), bounded, and the store asks those a long workspace hid one by one."""
        return None

    def ranked_turns(
        self, db: Database, words: Sequence[str], where: str, parameters: Mapping[str, Any], limit: int
    ) -> list[int]:
        """BM25 over every match first (FTS5 ranks only in a query of its own), then the turns `where` keeps."""
        if not words:
            return []
        expression = "{user assistant} : (" + " OR ".join(quoted([word]) for word in words) + ")"
        rows = db.execute(
            f"""SELECT history.id FROM (
                    SELECT rowid, bm25(turn_search) AS score FROM turn_search WHERE turn_search MATCH :expression
                ) AS hits JOIN history ON history.id = hits.rowid
                WHERE {where} ORDER BY hits.score, history.id DESC LIMIT :limit""",  # noqa: S608 - the caller's condition
            {**parameters, "expression": expression, "limit": limit},
        ).fetchall()
        return [int(row[0]) for row in rows]

    def snippets(self, db: Database, query: TurnQuery, turn_ids: Sequence[int], tokens: int) -> dict[int, str]:
        """FTS5's own snippets, a turn at a time (each a lookup by rowid; a list of rowids is no constraint FTS5
        uses, so one statement for all would read every match)."""
        expression, shown = turn_expression(query), {}
        for turn_id in turn_ids:
            row = db.execute(
                """SELECT snippet(turn_search, -1, '', '', '…', ?) FROM turn_search
                   WHERE turn_search MATCH ? AND rowid = ?""",
                (tokens, expression, turn_id),
            ).fetchone()
            if row and row[0]:
                shown[turn_id] = str(row[0])
        return shown

    def any_of(self, words: list[str]) -> str | None:
        return match_expression(words)

    def passage_count(self, db: Database, word: str) -> int:
        """Counting reads the word's postings, without ranking them."""
        row = db.execute("SELECT COUNT(*) FROM passage_search WHERE passage_search MATCH ?", (f'"{word}"',)).fetchone()
        return int(row[0])

    def nth_newest_passage(self, db: Database, expression: str, offset: int) -> int | None:
        row = db.execute(
            "SELECT rowid FROM passage_search WHERE passage_search MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
            (expression, offset),
        ).fetchone()
        return int(row[0]) if row is not None else None

    def ranked_passages(self, db: Database, expression: str, start: int, limit: int, columns: str) -> list[Any]:
        """BM25 with the text weighing twice the location; ranked first, then only the best rows read."""
        return db.execute(
            f"""SELECT {columns}, hits.score FROM (
                    SELECT rowid, -bm25(passage_search, 1.0, 0.5) AS score FROM passage_search
                    WHERE passage_search MATCH ? AND rowid >= ? ORDER BY score DESC LIMIT ?
                ) AS hits JOIN passages ON passages.id = hits.rowid
                ORDER BY hits.score DESC""",  # noqa: S608 - fixed columns
            (expression, start, limit),
        ).fetchall()

    def ranked_memories(self, db: Database, expression: str, limit: int, columns: str) -> list[Any]:
        return db.execute(
            f"""SELECT {columns} FROM memory_search JOIN memories ON memories.id = memory_search.rowid
                WHERE memory_search MATCH ? ORDER BY bm25(memory_search) LIMIT ?""",  # noqa: S608 - fixed columns
            (expression, limit),
        ).fetchall()
