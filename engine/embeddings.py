"""Embeddings from Ollama's `/api/embed`, for the document index: float32 vectors, or one sentence why not.

With several servers, each batch goes to one that has the embedding model and answers (fewest turns in flight
first); a server that cannot be reached is marked down in the pool, as a turn would, and the next one is asked.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Sequence

import httpx
import ollama

from engine.failures import listed
from engine.server_pool import ServerPool

BATCH = 32
TIMEOUT_SECONDS = 120.0


class EmbeddingUnavailableError(Exception):
    """No embeddings: the message says why and what to do (shown once; the search goes on by words)."""


class Embedder:
    """`EMBED_MODEL` on the Ollama servers (a URL, several separated by commas, or the agent's pool); used from
    worker threads (the clients are synchronous)."""

    def __init__(self, servers: str | Sequence[str] | ServerPool, model: str) -> None:
        self.model = model
        self._pool = servers if isinstance(servers, ServerPool) else ServerPool(servers)
        self._made: dict[str, ollama.Client] = {}  # made on first use: httpx reads the CA bundle (about 45 ms)
        self._lock = threading.Lock()

    def _client(self, server: str) -> ollama.Client:
        with self._lock:
            if server not in self._made:
                self._made[server] = ollama.Client(host=server, timeout=TIMEOUT_SECONDS, trust_env=False)
            return self._made[server]

    def embed(self, texts: list[str]) -> list[bytes]:
        """One float32 vector (as bytes) per text, in order."""
        vectors: list[bytes] = []
        for start in range(0, len(texts), BATCH):
            vectors += [array("f", vector).tobytes() for vector in self._batch(texts[start : start + BATCH])]
        if len(vectors) != len(texts):
            raise EmbeddingUnavailableError(f"{self.model} returned {len(vectors)} embeddings for {len(texts)} texts")
        return vectors

    def _batch(self, texts: list[str]) -> Sequence[Sequence[float]]:
        """One batch's vectors from the first server that has the model and answers."""
        lacking: list[str] = []
        failure: EmbeddingUnavailableError | None = None
        for server in self._pool.embedding_order(self.model):
            try:
                return self._client(server).embed(model=self.model, input=texts).embeddings
            except ollama.ResponseError as error:
                if error.status_code == 404:
                    lacking.append(server)
                    continue
                if error.status_code >= 500:
                    self._pool.mark_down(server, f"HTTP {error.status_code}: {error.error}")
                failure = EmbeddingUnavailableError(f"Ollama could not embed with {self.model}: {error.error}")
            except (httpx.HTTPError, ConnectionError) as error:
                self._pool.mark_down(server, f"embeddings failed ({type(error).__name__})")
                failure = EmbeddingUnavailableError(f"Ollama is not reachable for embeddings ({type(error).__name__})")
        if failure is not None:
            raise failure
        where = f" on {listed(lacking)}" if self._pool.several else ""
        raise EmbeddingUnavailableError(
            f"the embedding model {self.model} is not pulled{where} (ollama pull {self.model})"
        )
