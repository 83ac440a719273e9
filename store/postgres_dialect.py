"""PostgreSQL's own SQL: full-text search with `tsvector` and GIN indexes, and the expressions SQLite writes
otherwise.

Turns are searched in `turn_search`, whose vectors the store makes itself from the words
`store.words` finds (folded, diacritics removed, as SQLite's FTS5 table holds them), so that a
search finds the same turns on either backend; the question's words are then exact lexemes of a
`tsquery`, a typed prefix expanded through `search_terms` as on SQLite. Passages and memories are
stemmed by PostgreSQL's `english` configuration (SQLite's are by Porter's stemmer) and searched with
`websearch_to_tsquery`, ranked by `ts_rank`.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from store.postgres_schema import TURN_SEARCH_INDEXES
from store.sql import ADD_AUDIT_ROW, AuditRow, Database, TurnQuery, TurnRows
from store.tables import TABLES
from store.turn_vectors import (
    MAX_WORD_BYTES,
    TURN_SEARCH_COLUMNS,
    lexeme,
    turn_search_copy,
    turn_vector,
)
from store.words import TOKEN, fold

if TYPE_CHECKING:
    from store.postgres_adapters import PgDatabase

PASSAGE_WEIGHTS = "{0.1, 0.2, 0.5, 1.0}"
_TURN_TABLES = "('history', 'tool_calls', 'turn_search')"  # whose references a copy makes again at the end
SPREAD_FROM_TURNS = 20_000  # a copy of fewer turns makes their vectors itself (starting processes costs a second)
BATCHES_AHEAD = 2  # batches given to each process before the copy waits for the first: neither side waits for the other
IDENTITIES = (
    ("chats", "chat_id"), ("history", "id"), ("tool_calls", "id"), ("turn_images", "id"), ("file_edits", "id"),
    ("package_revisions", "id"), ("memories", "id"), ("passages", "id"), ("running_turns", "id"), ("users", "id"),
    ("api_keys", "id"), ("shares", "id"),
)  # fmt: skip  # D, C, B (a passage's location), A (its text): as SQLite's BM25 weights


def _add_references(db: Database, which: str) -> None:
    """Make again the references `before_copy` dropped, of the tables `which` names (checked at once, every row)."""
    for name, constraint, definition in db.execute(f"SELECT * FROM copy_references WHERE {which}").fetchall():  # noqa: S608 - fixed text
        db.execute(f'ALTER TABLE {name} ADD CONSTRAINT "{constraint}" {definition}')


def _write_vectors(db: Database, rows: tuple[bool, bytes]) -> None:
    """Store `turn_search_copy`'s rows, in COPY's binary format or its text."""
    binary, data = rows
    _pg(db).copy_data("turn_search", TURN_SEARCH_COLUMNS, data, binary=binary)


def _pg(db: Database) -> PgDatabase:
    return cast("PgDatabase", db)


def _workers_context() -> multiprocessing.context.BaseContext:
    """Where forking is safe (Linux), the workers are forked: they start at once, whatever program called the copy;
    elsewhere they are spawned (which needs the main module guarded by `if __name__ == "__main__"`, as main.py is)."""
    return multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")


def turn_tsquery(query: TurnQuery) -> str | None:
    """Every typed word (AND) as any of its phrases (OR) as a `tsquery`; None when a word is too long to be
    indexed (so nothing can match it)."""
    if any(len(word.encode()) > MAX_WORD_BYTES for phrases in query for phrase in phrases for word in phrase):
        return None
    return " & ".join(
        "(" + " | ".join("(" + " <-> ".join(lexeme(word) for word in phrase) + ")" for phrase in phrases) + ")"
        for phrases in query
    )


def snippet_of(text: str, wanted: set[str], tokens: int) -> tuple[int, str]:
    """How many of the `wanted` words `text` holds, and about `tokens` of its words around the first of them."""
    spans = [(match.start(), match.end(), fold(match.group())) for match in TOKEN.finditer(text)]
    hits = [index for index, (_, _, word) in enumerate(spans) if word in wanted]
    if not hits:
        return 0, ""
    start = max(0, min(hits[0] - (tokens - 1) // 2, len(spans) - tokens))
    end = min(len(spans), start + tokens)
    begin = spans[start][0] if start > 0 else 0
    finish = spans[end - 1][1] if end < len(spans) else len(text)
    shown = ("…" if start > 0 else "") + text[begin:finish] + ("…" if end < len(spans) else "")
    return len({spans[index][2] for index in hits}), shown


class PostgresDialect:
    """What PostgreSQL says its own way; see `store.sql.Dialect`."""

    name = "postgresql"
    like = "ILIKE"
    position = "strpos"
    now_seconds = "(extract(epoch from clock_timestamp())::double precision)"

    def next_activity(self) -> str:
        return "nextval('chat_activity')"

    def id_list(self, ids: Sequence[int]) -> tuple[str, Any]:
        return "SELECT unnest(?::bigint[])", list(ids)

    def index_turns(self, db: Database, turns: Sequence[tuple[int, int, str, str]]) -> None:
        if len(turns) == 1:
            ((turn_id, chat_id, user, assistant),) = turns
            db.execute(
                "INSERT INTO turn_search (turn_id, chat_id, words) VALUES (?, ?, ?::tsvector)",
                (turn_id, chat_id, turn_vector(user, assistant)),
            )
            return
        _write_vectors(db, turn_search_copy(turns))

    @contextmanager
    def indexing_turns(self, db: Database, turns: int) -> Iterator[Callable[[TurnRows], None]]:
        """A copy's turns made findable as they are copied (`_making_vectors`); when the block ends, the indexes
        and reference `before_copy` dropped from `turn_search` are made again, and its statistics gathered."""
        with self._making_vectors(db, turns) as index:
            yield index
        db.execute("SET LOCAL maintenance_work_mem = '256MB'")  # a GIN index of a million turns, built in memory
        for statement in TURN_SEARCH_INDEXES:
            db.execute(statement)
        _add_references(db, "name = 'turn_search'")
        db.execute("ANALYZE turn_search")

    @contextmanager
    def _making_vectors(self, db: Database, turns: int) -> Iterator[Callable[[TurnRows], None]]:
        """Making the turns' vectors in Python takes longer than the database takes to store them, so for a long
        history it is spread over processes, one a CPU, each batch's vectors written once ready (the database
        meanwhile stores the next batches). The processes may be up to BATCHES_AHEAD batches each behind the
        turns: their last ones are made while the database takes the tables after the turns and `after_copy`."""
        workers = os.cpu_count() or 1
        if turns < SPREAD_FROM_TURNS or workers < 2:
            yield partial(self.index_turns, db)
            return
        with ProcessPoolExecutor(workers, mp_context=_workers_context()) as pool:
            ready: deque[Future[tuple[bool, bytes]]] = deque()

            def index(turns: TurnRows) -> None:
                ready.append(pool.submit(turn_search_copy, [(turn[0], turn[1], turn[2], turn[3]) for turn in turns]))
                while len(ready) > BATCHES_AHEAD * workers or (ready and ready[0].done()):
                    _write_vectors(db, ready.popleft().result())

            yield index
            while ready:
                _write_vectors(db, ready.popleft().result())

    def insert_rows(self, db: Database, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """With COPY, the fastest way PostgreSQL takes rows in."""
        _pg(db).copy_batches(table, columns, [rows])

    def insert_batches(
        self, db: Database, table: str, columns: Sequence[str], batches: Iterable[Sequence[Sequence[Any]]]
    ) -> None:
        """With one COPY, which the database goes on reading while the next batch is read: a COPY a batch would
        have each side wait for the other at every batch's end."""
        _pg(db).copy_batches(table, columns, batches)

    def before_copy(self, db: Database) -> None:
        """A workspace's count is made once at the end: counted by the trigger, a million turns would update its
        row a million times in one transaction. The turns' word indexes are made once at the end too: kept up
        a row at a time (the GIN index has no pending list), they took most of the database's part of a copy."""
        db.execute("ALTER TABLE history DISABLE TRIGGER turn_count_insert")
        db.execute("DROP INDEX turn_search_words, turn_search_by_chat")
        # Checked a row at a time, the turns' references cost the database as much as storing them: they are
        # dropped, and made again (checked at once, every row) as they were, when the rows are in.
        db.execute(
            f"""CREATE TEMPORARY TABLE copy_references ON COMMIT DROP AS
                SELECT conrelid::regclass::text AS name, conname, pg_get_constraintdef(oid) AS definition
                FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text IN {_TURN_TABLES}"""  # noqa: S608
        )
        for name, constraint, _ in db.execute("SELECT * FROM copy_references").fetchall():
            db.execute(f'ALTER TABLE {name} DROP CONSTRAINT "{constraint}"')

    def after_copy(self, db: Database) -> None:
        db.execute(  # counted in one pass over the turns (a count a workspace read its turns again: 5× longer)
            """UPDATE chats SET turn_count = counted.turns
               FROM (SELECT chat_id, COUNT(*) AS turns FROM history GROUP BY chat_id) AS counted
               WHERE counted.chat_id = chats.chat_id"""
        )
        db.execute("ALTER TABLE history ENABLE TRIGGER turn_count_insert")
        _add_references(db, "name <> 'turn_search'")  # the turns' vectors may still be coming (`indexing_turns`)
        for table, column in IDENTITIES:
            db.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "  # noqa: S608 - fixed names
                f"COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
            )
        db.execute("SELECT setval('chat_activity', COALESCE((SELECT MAX(activity_seq) FROM chats), 0) + 1, false)")
        for index in ("passages_words", "memories_words"):  # what COPY left in the indexes' pending lists
            db.execute(f"SELECT gin_clean_pending_list('{index}')")
        db.execute(f"ANALYZE {', '.join(table.name for table in TABLES)}")  # `turn_search`'s once it is whole

    def add_terms(self, db: Database, words: Iterable[str]) -> None:
        """In the order given, so that two writers adding the same words never wait on each other in a circle;
        words too long to be indexed are left out."""
        terms = [word for word in words if len(word.encode()) <= MAX_WORD_BYTES]
        db.execute("INSERT INTO search_terms (term) SELECT unnest(?::text[]) ON CONFLICT DO NOTHING", (terms,))

    def add_audit_record(self, db: Database, record: AuditRow) -> None:
        """One statement, so one round trip to the server (a signed-in user's every question adds a record): the
        record added in a `WITH`, which PostgreSQL runs whole whether or not the statement reads from it."""
        db.execute(
            f"WITH added AS ({ADD_AUDIT_ROW}) UPDATE audit_head SET hash = ? WHERE id = 1",  # noqa: S608 - fixed names
            (*record, record.hash),
        )

    def newest_matches(
        self, db: Database, query: TurnQuery, chat_ids: Sequence[int] | None, limit: int
    ) -> list[tuple[int, int]]:
        expression = turn_tsquery(query)
        if expression is None:
            return []
        where, parameters = "", list[Any]([expression])
        if chat_ids is not None and len(chat_ids) == 1:  # read backwards along the workspace's index
            where, parameters = "AND chat_id = ?", [expression, chat_ids[0]]
        elif chat_ids is not None:
            where, parameters = "AND chat_id = ANY(?::bigint[])", [expression, list(chat_ids)]
        rows = db.execute(
            f"""SELECT chat_id, turn_id FROM turn_search WHERE words @@ ?::tsquery {where}
                ORDER BY turn_id DESC LIMIT ?""",  # noqa: S608 - a fixed condition
            (*parameters, limit),
        ).fetchall()
        return [(int(chat_id), int(turn_id)) for chat_id, turn_id in rows]

    def newest_each(self, db: Database, query: TurnQuery, chat_ids: Sequence[int]) -> dict[int, int | None] | None:
        """Each workspace read backwards along its own index (chat_id, turn_id) to its newest match: one statement
        whose cost follows the workspaces asked, where one over all of them may read every turn of the others."""
        expression = turn_tsquery(query)
        if expression is None:
            return dict.fromkeys(chat_ids)
        rows = db.execute(
            """SELECT asked.chat_id, (SELECT turn_id FROM turn_search
                                      WHERE chat_id = asked.chat_id AND words @@ ?::tsquery
                                      ORDER BY turn_id DESC LIMIT 1)
               FROM unnest(?::bigint[]) AS asked (chat_id)""",
            (expression, list(chat_ids)),
        ).fetchall()
        return {int(chat_id): None if turn_id is None else int(turn_id) for chat_id, turn_id in rows}

    def ranked_turns(
        self, db: Database, words: Sequence[str], where: str, parameters: Mapping[str, Any], limit: int
    ) -> list[int]:
        """`ts_rank` of the turns holding any of the words (exact lexemes, as `turn_search` holds them)."""
        lexemes = [lexeme(word) for word in words if len(word.encode()) <= MAX_WORD_BYTES]
        if not lexemes:
            return []
        rows = db.execute(
            f"""SELECT history.id FROM turn_search JOIN history ON history.id = turn_search.turn_id
                WHERE turn_search.words @@ CAST(:expression AS tsquery) AND {where}
                ORDER BY ts_rank(turn_search.words, CAST(:expression AS tsquery)) DESC, history.id DESC
                LIMIT :limit""",  # noqa: S608 - the caller's condition
            {**parameters, "expression": " | ".join(lexemes), "limit": limit},
        ).fetchall()
        return [int(row[0]) for row in rows]

    def snippets(self, db: Database, query: TurnQuery, turn_ids: Sequence[int], tokens: int) -> dict[int, str]:
        """The question's or the answer's words around the first match, from the one holding more of the words;
        the turns read in one statement."""
        if not turn_ids:
            return {}
        rows = db.execute('SELECT id, "user", assistant FROM history WHERE id = ANY(?::bigint[])', (list(turn_ids),))
        wanted = {word for phrases in query for phrase in phrases for word in phrase}
        shown = {}
        for turn_id, *texts in rows.fetchall():
            found = max((snippet_of(text, wanted, tokens) for text in texts), key=lambda candidate: candidate[0])
            if found[1]:
                shown[int(turn_id)] = found[1]
        return shown

    def any_of(self, words: list[str]) -> str | None:
        """For `websearch_to_tsquery`: the words are letters and digits only, so nothing in them is an operator."""
        return " or ".join(words) or None

    def passage_count(self, db: Database, word: str) -> int:
        row = db.execute(
            "SELECT COUNT(*) FROM passages WHERE words @@ websearch_to_tsquery('english', ?)", (word,)
        ).fetchone()
        return int(row[0])

    def nth_newest_passage(self, db: Database, expression: str, offset: int) -> int | None:
        row = db.execute(
            """SELECT id FROM passages WHERE words @@ websearch_to_tsquery('english', ?)
               ORDER BY id DESC LIMIT 1 OFFSET ?""",
            (expression, offset),
        ).fetchone()
        return int(row[0]) if row is not None else None

    def ranked_passages(self, db: Database, expression: str, start: int, limit: int, columns: str) -> list[Any]:
        return db.execute(
            f"""SELECT {columns}, ts_rank('{PASSAGE_WEIGHTS}', passages.words, query, 1) AS score
                FROM passages, websearch_to_tsquery('english', ?) AS query
                WHERE passages.words @@ query AND passages.id >= ? ORDER BY score DESC, passages.id LIMIT ?""",  # noqa: S608
            (expression, start, limit),
        ).fetchall()

    def ranked_memories(self, db: Database, expression: str, limit: int, columns: str) -> list[Any]:
        return db.execute(
            f"""SELECT {columns} FROM memories, websearch_to_tsquery('english', ?) AS query
                WHERE memories.words @@ query ORDER BY ts_rank(memories.words, query) DESC, memories.id DESC
                LIMIT ?""",  # noqa: S608 - fixed columns
            (expression, limit),
        ).fetchall()
