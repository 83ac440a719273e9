"""The user's memory: short facts every workspace's prompt may carry, with a full-text index."""

from __future__ import annotations

from domain.records import Memory
from store.base import StoreBase
from store.sql import NO_LIMIT, timestamp
from store.words import query_words

_COLUMNS = "memories.id AS memory_id, memories.text, memories.created_at, memories.updated_at"


class MemoryStore(StoreBase):
    """Memories, newest first."""

    def add_memory(self, text: str) -> int:
        now = timestamp()
        with self._write() as db:
            row = db.execute(
                "INSERT INTO memories (text, created_at, updated_at) VALUES (?, ?, ?) RETURNING id", (text, now, now)
            ).fetchone()
        return int(row[0])

    def update_memory(self, memory_id: int, text: str) -> bool:
        with self._write() as db:
            changed = db.execute(
                "UPDATE memories SET text = ?, updated_at = ? WHERE id = ?", (text, timestamp(), memory_id)
            ).rowcount
        return bool(changed)

    def remove_memory(self, memory_id: int) -> bool:
        with self._write() as db:
            return bool(db.execute("DELETE FROM memories WHERE id = ?", (memory_id,)).rowcount)

    def memories(self, limit: int | None = None) -> list[Memory]:
        with self._read() as db:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM memories ORDER BY id DESC LIMIT ?",  # noqa: S608
                (NO_LIMIT if limit is None else limit,),
            ).fetchall()
        return [Memory.model_validate(dict(row)) for row in rows]

    def search_memories(self, query: str, limit: int) -> list[Memory]:
        """Memories sharing words with `query`, best first (BM25 on SQLite, ts_rank on PostgreSQL)."""
        expression = self._dialect.any_of(query_words(query))
        if expression is None:
            return []
        with self._read() as db:
            rows = self._dialect.ranked_memories(db, expression, limit, _COLUMNS)
        return [Memory.model_validate(dict(row)) for row in rows]
