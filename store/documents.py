"""The document index: the workspace folder's files, their passages (FTS5) and the passages' embeddings."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from domain.records import DocumentFile, Passage
from store.base import StoreBase
from store.schema import timestamp
from store.words import any_of, query_words, quoted

RANKED_MATCHES = 10_000  # passages ranked by BM25 at most; past it, the newest matches (see search_passages)
_FILE_COLUMNS = "path, size, mtime_ns, sha256, status, note, passages, indexed_at"
_PASSAGE_COLUMNS = "passages.id AS passage_id, passages.path, passages.page, passages.location, passages.text"


class DocumentStore(StoreBase):
    """Files of the workspace folder and their passages; the SQL of `app.documents`."""

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
        """Passages matching the question's words, best first, with BM25 scores (higher is better).

        BM25 is computed in full only where it can tell passages apart. A word in more than
        half the passages weighs nothing in it (FTS5 clamps such a word's IDF to 1e-6), so it
        is left out when the question has rarer words. And when the words left match more than
        RANKED_MATCHES passages, only the newest RANKED_MATCHES of them are ranked: then every
        word is common, the scores differ only by how densely the words occur, and ranking
        them all costs 1 µs a passage and word (130 ms for four words at 100,000 passages).
        """
        words = query_words(query)
        if not words:
            return []
        with self._read() as db:
            expression, matches = _telling(db, words)
            if expression is None:
                return []
            start = _newest_window(db, expression) if matches > RANKED_MATCHES else 0
            rows = db.execute(
                f"""SELECT {_PASSAGE_COLUMNS}, hits.score FROM (
                        SELECT rowid, -bm25(passage_search, 1.0, 0.5) AS score FROM passage_search
                        WHERE passage_search MATCH ? AND rowid >= ? ORDER BY score DESC LIMIT ?
                    ) AS hits JOIN passages ON passages.id = hits.rowid
                    ORDER BY hits.score DESC""",  # noqa: S608 - rank first, then read only the best rows
                (expression, start, limit),
            ).fetchall()
        return [(_passage(row), float(row["score"])) for row in rows]

    def passages_by_id(self, ids: list[int]) -> dict[int, Passage]:
        with self._read() as db:
            rows = db.execute(
                f"SELECT {_PASSAGE_COLUMNS} FROM passages WHERE id IN (SELECT value FROM json_each(?))",  # noqa: S608
                (f"[{','.join(map(str, ids))}]",),
            ).fetchall()
        return {int(row["passage_id"]): _passage(row) for row in rows}

    def passages_to_embed(self, model: str, limit: int) -> list[tuple[int, str]]:
        """Passages with no embedding from `model` yet, oldest first."""
        with self._read() as db:
            rows = db.execute(
                """SELECT id, location || ': ' || text FROM passages
                   WHERE embedding IS NULL OR embedding_model IS NOT ? ORDER BY id LIMIT ?""",
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


def _telling(db: sqlite3.Connection, words: list[str]) -> tuple[str | None, int]:
    """The FTS5 query of the words that weigh in BM25 (all found words if none does), and how many matches at most."""
    total = db.execute("SELECT COALESCE(SUM(passages), 0) FROM documents").fetchone()[0]
    found = {}
    for word in words:  # counting a word's passages reads its postings, without ranking them
        count = db.execute("SELECT COUNT(*) FROM passage_search WHERE passage_search MATCH ?", (quoted([word]),))
        if (passages := int(count.fetchone()[0])) > 0:
            found[word] = passages
    telling = [word for word, passages in found.items() if passages * 2 <= total] or list(found)
    return any_of(telling), sum(found[word] for word in telling)


def _newest_window(db: sqlite3.Connection, expression: str) -> int:
    """The smallest passage id among the newest RANKED_MATCHES passages matching `expression`."""
    row = db.execute(
        "SELECT rowid FROM passage_search WHERE passage_search MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
        (expression, RANKED_MATCHES - 1),
    ).fetchone()
    return int(row[0]) if row is not None else 0


def _passage(row: sqlite3.Row) -> Passage:
    return Passage(
        passage_id=row["passage_id"], path=row["path"], page=row["page"], location=row["location"], text=row["text"]
    )
