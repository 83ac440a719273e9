"""Ranking a question's passages: the full-text ranking (FTS5, BM25, in the store) and the embedding
ranking (cosine similarity over one float32 matrix of every passage's embedding), fused by reciprocal rank."""

from __future__ import annotations

from typing import Any

from app.ports import DocumentRecords

CANDIDATES = 50  # from each ranking, before fusion
RRF_K = 60  # the usual constant of reciprocal rank fusion (Cormack et al. 2009)


def fuse(*rankings: list[int]) -> dict[int, float]:
    """Each passage's reciprocal-rank score summed over the rankings it is in."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, passage_id in enumerate(ranking, 1):
            fused[passage_id] = fused.get(passage_id, 0.0) + 1.0 / (RRF_K + rank)
    return fused


class EmbeddingMatrix:
    """Every passage's unit embedding from one model, as one matrix rebuilt only after the index changed."""

    def __init__(self, store: DocumentRecords, model: str) -> None:
        self._store, self.model = store, model
        self._version = 0
        self._cached: tuple[int, Any, list[int]] | None = None  # (index version, matrix, passage ids)

    def changed(self) -> None:
        """The index changed: the matrix is read again before the next search."""
        self._version += 1

    def nearest(self, query: bytes) -> tuple[list[int] | None, str | None]:
        """Passage ids by cosine similarity to the query's embedding (float32 bytes); else None and why."""
        import numpy as np

        matrix, ids = self._matrix()
        if not ids:
            return None, "the passages' embeddings are not computed yet"
        vector = np.frombuffer(query, dtype=np.float32)
        if matrix.shape[1] != vector.shape[0]:
            return None, f"the stored embeddings are not of {self.model}'s size"
        scores = matrix @ (vector / (np.linalg.norm(vector) or 1.0))
        order = np.argsort(-scores)[:CANDIDATES]
        return [ids[i] for i in order], None

    def _matrix(self) -> tuple[Any, list[int]]:
        import numpy as np

        cached = self._cached
        if cached is None or cached[0] != self._version:
            rows = self._store.embeddings(self.model)
            ids = [passage_id for passage_id, _ in rows]
            matrix = np.array([np.frombuffer(blob, dtype=np.float32) for _, blob in rows], dtype=np.float32)
            if len(ids):
                matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
            cached = self._cached = (self._version, matrix, ids)
        return cached[1], cached[2]
