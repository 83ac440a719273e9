"""Past work across workspaces: "what did we use for the transfer beam on the Riverside job?" without remembering
which workspace it was in. The `search_past_work` tool's back end.

It reads the questions, answers and calculation results of every workspace the asking user may see (their own and
those shared with them), except the one they are in: the store filters by the access policy in its queries, so no
text of another user's workspace is ever read. Turns are ranked by words (the turns' full-text index) and, where
EMBED_MODEL is set, by meaning (each turn embedded once, at search time, the newest first, and kept), fused by
reciprocal rank; a turn found by meaning alone must be close enough to count, so a search can say that nothing
matched.
"""

from __future__ import annotations

import re
from typing import Any

from app.accounts.policy import Access
from app.documents.ranking import fuse
from app.ports import PastWorkRecords
from app.presentation.calculation import present
from domain.records import PastTurn, Turn
from engine.embeddings import Embedder, EmbeddingUnavailableError

CANDIDATES = 50  # from each ranking, before fusion
MEANING_WINDOW = 20_000  # the newest turns compared by meaning (all of them are searched by words)
EMBEDDED_PER_SEARCH = 256  # turns not embedded yet, the newest first, embedded by one search
CLOSE_ENOUGH = 0.5  # the cosine similarity a turn found by meaning alone must reach
EMBEDDED_CHARS = 1_500
OUTPUT_BUDGET = 6_000  # characters of the results' text, so the tool's JSON is never cut
MAX_TOP_K = 10
MAX_CALCULATIONS = 4  # of one turn


class PastWork:
    """The search of one user's past work (the part of the application `search_past_work` reaches)."""

    def __init__(self, store: PastWorkRecords, access: Access, embedder: Embedder | None) -> None:
        self._store = store
        self._access = access
        self._embedder = embedder

    def seen_from(self, chat_id: int | None) -> PastWorkSearch:
        """The search as the tool runs it in workspace `chat_id`, which it leaves out."""
        return PastWorkSearch(self, chat_id)

    def search(self, query: str, top_k: int = 5, leaving_out: int | None = None) -> dict[str, Any]:
        """{"results": [{"workspace", "date", "question", "excerpt", "calculations"}, …]} best first, or
        {"results": [], "message": SENTENCE} when nothing matches."""
        viewer = self._access.viewer
        top_k = max(1, min(top_k, MAX_TOP_K))
        by_words = self._store.past_turns_by_words(query, CANDIDATES, viewer, leaving_out)
        by_meaning, why_not = self._by_meaning(query, viewer, leaving_out)
        fused = fuse(by_words, by_meaning)
        best = sorted(fused, key=lambda turn_id: (-fused[turn_id], -turn_id))[:top_k]
        found = self._store.past_turns(best, viewer, leaving_out)
        if not found:
            words_only = f" (searched by words only: {why_not})" if why_not else ""
            return {"results": [], "message": f"Nothing in your other workspaces matches {query!r}{words_only}."}
        room = OUTPUT_BUDGET // len(found)
        return {"results": [result(past, query, room) for past in found]}

    def _by_meaning(self, query: str, viewer: int | None, leaving_out: int | None) -> tuple[list[int], str | None]:
        """Turn ids close in meaning to `query`, closest first; or none and why."""
        embedder = self._embedder
        if embedder is None:
            return [], "no EMBED_MODEL is set"
        try:
            self._embed_new(embedder, viewer, leaving_out)
            (wanted,) = embedder.embed([query])
        except EmbeddingUnavailableError as why:
            return [], str(why)
        vectors = self._store.past_turn_embeddings(embedder.model, MEANING_WINDOW, viewer, leaving_out)
        return nearest(wanted, vectors), None

    def _embed_new(self, embedder: Embedder, viewer: int | None, leaving_out: int | None) -> None:
        """Embed the turns this user's search has not met yet (the newest first, a bounded number a search)."""
        new = self._store.past_turns_to_embed(embedder.model, EMBEDDED_PER_SEARCH, MEANING_WINDOW, viewer, leaving_out)
        if new:
            vectors = embedder.embed([embedded_text(past.turn) for past in new])
            self._store.save_turn_embeddings(embedder.model, zip([p.turn.turn_id for p in new], vectors, strict=True))


class PastWorkSearch:
    """The search seen from one workspace (`ToolContext.past_work`): that workspace is left out."""

    def __init__(self, past_work: PastWork, chat_id: int | None) -> None:
        self._past_work = past_work
        self.chat_id = chat_id

    def search(self, query: str, top_k: int) -> dict[str, Any]:
        return self._past_work.search(query, top_k, self.chat_id)


def nearest(wanted: bytes, vectors: list[tuple[int, bytes]]) -> list[int]:
    """The ids whose vectors are close enough to `wanted` (cosine), closest first, at most CANDIDATES; vectors of
    another size (another model's) are left out."""
    import numpy as np

    same_size = [(turn_id, blob) for turn_id, blob in vectors if len(blob) == len(wanted)]
    if not same_size:
        return []
    query = np.frombuffer(wanted, dtype=np.float32)
    matrix = np.frombuffer(b"".join(blob for _, blob in same_size), dtype=np.float32).reshape(len(same_size), -1)
    norms = np.maximum(np.linalg.norm(matrix, axis=1), 1e-12) * max(float(np.linalg.norm(query)), 1e-12)
    scores = (matrix @ query) / norms
    order = [int(i) for i in np.argsort(-scores)[:CANDIDATES] if scores[i] >= CLOSE_ENOUGH]
    return [same_size[i][0] for i in order]


def embedded_text(turn: Turn) -> str:
    """What a turn is embedded as: its question, the start of its answer, and its calculations' tools and verdicts
    (their figures would only blur its meaning; the words find them)."""
    calculations = " ".join(f"{found['tool']} {found.get('verdict', '')}" for found in calculations_of(turn))
    return f"{turn.user}\n{turn.assistant[:800]}\n{calculations}"[:EMBEDDED_CHARS]


def calculations_of(turn: Turn) -> list[dict[str, Any]]:
    """Each calculation of the turn: its tool, each result's text with value and unit, and its verdict."""
    found = []
    for call in turn.tool_calls:
        if call.calculation is None or call.error:
            continue
        shown = present(call.calculation)
        entry: dict[str, Any] = {"tool": call.name, "results": {item.name: item.value for item in shown.results}}
        if shown.verdict_line:
            entry["verdict"] = shown.verdict_line
        found.append(entry)
    return found[:MAX_CALCULATIONS]


def result(past: PastTurn, query: str, room: int) -> dict[str, Any]:
    """One result in the tool's pinned shape, its texts within `room` characters."""
    turn = past.turn
    return {
        "workspace": past.workspace,
        "date": (turn.created_at or "")[:10],
        "question": _clipped(" ".join(turn.user.split()), room // 4),
        "excerpt": excerpt(turn.assistant, query, room // 3),
        "calculations": calculations_of(turn),
    }


def excerpt(text: str, query: str, length: int) -> str:
    """About `length` characters of `text` around the first of the query's words it holds (else its start)."""
    flat = " ".join(text.split())
    words = [re.escape(word) for word in re.findall(r"\w{3,}", query.lower())]
    match = re.search("|".join(words), flat, re.IGNORECASE) if words else None
    start = max(0, (match.start() if match else 0) - length // 3)
    shown = flat[start : start + length]
    return ("…" if start else "") + shown + ("…" if start + length < len(flat) else "")


def _clipped(text: str, length: int) -> str:
    return text if len(text) <= length else text[: max(length - 1, 0)].rstrip() + "…"
