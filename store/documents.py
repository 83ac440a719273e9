"""The document index: the workspace folder's files, their passages (FTS5) and the passages' embeddings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.records import DocumentFile, Passage
from store.base import StoreBase
from store.sql import Database, Dialect, timestamp
from store.words import query_words

RANKED_MATCHES = 10_000  # passages ranked by BM25 at most; past it, the newest matches (see search_passages)
_FILE_COLUMNS = "path, size, mtime_ns, sha256, status, note, passages, indexed_at"
_PASSAGE_COLUMNS = "passages.id AS passage_id, passages.path, passages.page, passages.location, passages.text"


class DocumentStore(StoreBase):
    """Files of the workspace folder and their passages; the SQL of `app.documents.library`. Passages are searched by
    FTS5 and BM25 on SQLite, by `tsvector` and `ts_rank` on PostgreSQL (`store.sql.Dialect`)."""

    def document_files(self) -> list[DocumentFile]:
        with self._read() as db:
            rows = db.execute(f"SELECT {_FILE_COLUMNS} FROM documents ORDER BY path").fetchall()  # noqa: S608
        return [DocumentFile.model_validate(dict(row)) for row in rows]

    def save_document(self, file: DocumentFile, passages: Iterable[Passage]) -> None:
        """Replace what the index holds of `file.path`, its passages included, in one transaction."""
        rows = [(file.path, p.page, p.location, p.text) for p in passages]
        with self._write() as db:
            db.execute("DELETE FROM documents WHERE path = ?", (file.path,))
            db.execute(
                f"INSERT INTO documents ({_FILE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",  # noqa: S608
                (file.path, file.size, file.mtime_ns, file.sha256, file.status, file.note, len(rows), timestamp()),
            )
            db.executemany("INSERT INTO passages (path, page, location, text) VALUES (?, ?, ?, ?)", rows)

    def touch_document(self, path: str, size: int, mtime_ns: int) -> None:
        """The file was written again with the same bytes: keep its passages, note its new time."""
        with self._write() as db:
            db.execute("UPDATE documents SET size = ?, mtime_ns = ? WHERE path = ?", (size, mtime_ns, path))

    def drop_documents(self, paths: Iterable[str]) -> None:
        with self._write() as db:
            db.executemany("DELETE FROM documents WHERE path = ?", [(path,) for path in paths])

    def search_passages(self, query: str, limit: int) -> list[tuple[Passage, float]]:
        """Passages matching the question's words, best first, with their scores (higher is better).

        The ranking (BM25 on SQLite) is computed in full only where it can tell passages apart. A word
        in more than half the passages weighs nothing in it (FTS5 clamps such a word's IDF to 1e-6), so
        it is left out when the question has rarer words. And when the words left match more than
        RANKED_MATCHES passages, only the newest RANKED_MATCHES of them are ranked: then every word is
        common, the scores differ only by how densely the words occur, and ranking them all costs 1 µs
        a passage and word (130 ms for four words at 100,000 passages).
        """
        words = query_words(query)
        if not words:
            return []
        with self._read() as db:
            expression, matches = _telling(db, self._dialect, words)
            if expression is None:
                return []
            start = _newest_window(db, self._dialect, expression) if matches > RANKED_MATCHES else 0
            rows = self._dialect.ranked_passages(db, expression, start, limit, _PASSAGE_COLUMNS)
        return [(_passage(row), float(row["score"])) for row in rows]

    def passages_by_id(self, ids: list[int]) -> dict[int, Passage]:
        subquery, parameter = self._dialect.id_list(ids)
        with self._read() as db:
            rows = db.execute(
                f"SELECT {_PASSAGE_COLUMNS} FROM passages WHERE id IN ({subquery})",  # noqa: S608
                (parameter,),
            ).fetchall()
        return {int(row["passage_id"]): _passage(row) for row in rows}

    def passages_to_embed(self, model: str, limit: int) -> list[tuple[int, str]]:
        """Passages with no embedding from `model` yet, oldest first."""
        with self._read() as db:
            rows = db.execute(
                """SELECT id, location || ': ' || text FROM passages
                   WHERE embedding IS NULL OR embedding_model IS DISTINCT FROM ? ORDER BY id LIMIT ?""",
                (model, limit),
            ).fetchall()
        return [(int(row[0]), str(row[1])) for row in rows]

    def save_embeddings(self, model: str, vectors: Iterable[tuple[int, bytes]]) -> None:
        with self._write() as db:
            db.executemany(
                "UPDATE passages SET embedding = ?, embedding_model = ? WHERE id = ?",
                [(blob, model, passage_id) for passage_id, blob in vectors],
            )

    def embeddings(self, model: str) -> list[tuple[int, bytes]]:
        """Every passage's embedding from `model` (float32 bytes)."""
        with self._read() as db:
            rows = db.execute(
                "SELECT id, embedding FROM passages WHERE embedding_model = ? AND embedding IS NOT NULL ORDER BY id",
                (model,),
            ).fetchall()
        return [(int(row[0]), bytes(row[1])) for row in rows]


def _telling(db: Database, dialect: Dialect, words: list[str]) -> tuple[str | None, int]:
    """The query of the words that weigh in the ranking (all found words if none does), and how many matches at most."""
    total = db.execute("SELECT COALESCE(SUM(passages), 0) FROM documents").fetchone()[0]
    found = {}
    for word in words:
        if (passages := dialect.passage_count(db, word)) > 0:
            found[word] = passages
    telling = [word for word, passages in found.items() if passages * 2 <= total] or list(found)
    return dialect.any_of(telling), sum(found[word] for word in telling)


def _newest_window(db: Database, dialect: Dialect, expression: str) -> int:
    """The smallest passage id among the newest RANKED_MATCHES passages matching `expression`."""
    found = dialect.nth_newest_passage(db, expression, RANKED_MATCHES - 1)
    return found if found is not None else 0


def _passage(row: Any) -> Passage:
    return Passage(
        passage_id=row["passage_id"], path=row["path"], page=row["page"], location=row["location"], text=row["text"]
    )
