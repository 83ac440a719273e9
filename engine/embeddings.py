"""Embeddings from Ollama's `/api/embed`, for the document index: float32 vectors, or one sentence why not."""

from __future__ import annotations

from array import array

import httpx
import ollama

BATCH = 32
TIMEOUT_SECONDS = 120.0


class EmbeddingUnavailableError(Exception):
    """No embeddings: the message says why and what to do (shown once; the search goes on by words)."""


class Embedder:
    """`EMBED_MODEL` on the Ollama server at `endpoint`; used from worker threads (the client is synchronous)."""

    def __init__(self, endpoint: str, model: str) -> None:
        self.model = model
        self._endpoint = endpoint
        self._made: ollama.Client | None = None  # made on first use: httpx reads the CA bundle (about 45 ms)

    @property
    def _client(self) -> ollama.Client:
        if self._made is None:
            self._made = ollama.Client(host=self._endpoint, timeout=TIMEOUT_SECONDS)
        return self._made

    def embed(self, texts: list[str]) -> list[bytes]:
        """One float32 vector (as bytes) per text, in order."""
        vectors: list[bytes] = []
        for start in range(0, len(texts), BATCH):
            try:
                answer = self._client.embed(model=self.model, input=texts[start : start + BATCH])
            except ollama.ResponseError as error:
                if error.status_code == 404:
                    raise EmbeddingUnavailableError(
                        f"the embedding model {self.model} is not pulled (ollama pull {self.model})"
                    ) from None
                raise EmbeddingUnavailableError(f"Ollama could not embed with {self.model}: {error.error}") from None
            except (httpx.HTTPError, ConnectionError) as error:
                raise EmbeddingUnavailableError(
                    f"Ollama is not reachable for embeddings ({type(error).__name__})"
                ) from None
            vectors += [array("f", vector).tobytes() for vector in answer.embeddings]
        if len(vectors) != len(texts):
            raise EmbeddingUnavailableError(f"{self.model} returned {len(vectors)} embeddings for {len(texts)} texts")
        return vectors
