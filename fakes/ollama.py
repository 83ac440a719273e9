"""A loopback HTTP server that speaks Ollama's real API, scripted per test.

It answers `/api/chat` (streamed NDJSON with chunked encoding, or one JSON body),
`/api/tags`, `/api/show` (with `capabilities`, the model's `<arch>.context_length`
and its Modelfile `parameters`), `/api/version` and `/api/ps`, and
refuses what the real server refuses: an unknown model (404), a chat with a model
without the `completion` capability (an embedding model), tools for a model without
the `tools` capability, `think` for one without `thinking` and pictures for one without
`vision` (400). A model whose
name says "embed" (nomic-embed-text) is an embedding model, as the real one is: its
capabilities are only `embedding` and its family `nomic-bert`.
Each `/api/chat` request takes the next scripted `Reply`; faults (an HTTP error,
a hang, an error or garbage line, a dropped connection) are steps of a reply. An
answer longer than the request's `num_predict` (four characters a token) is cut
there and ends with `done_reason: "length"`, as Ollama's is.
"""

from __future__ import annotations

import json
import math
import re
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from fakes.replies import Drop, Gate, Hang, Pause, Raw, Reply, Step, aggregate, bounded

__all__ = [
    "Drop",
    "FakeOllama",
    "Gate",
    "Hang",
    "Pause",
    "Raw",
    "Reply",
    "free_port",
    "is_summary_request",
    "wait_until",
]

DEFAULT_CAPABILITIES = ("completion", "tools", "thinking")
EMBEDDING_CAPABILITIES = ("embedding",)
DEFAULT_CONTEXT_LENGTH = 40960  # qwen3's
EMBEDDING_CONTEXT_LENGTH = 2048  # nomic-embed-text's


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


class FakeOllama:
    """Start with `with FakeOllama() as fake:`; script with `fake.script(Reply…)`."""

    def __init__(
        self,
        models: Iterable[str] = ("qwen3:4b",),
        capabilities: dict[str, Sequence[str]] | None = None,
        version: str = "0.12.6",
        port: int = 0,
        record: bool = True,
    ) -> None:
        self.models = list(models)
        self.capabilities = capabilities or {}
        self.context_lengths: dict[str, int] = {}  # per model; DEFAULT_CONTEXT_LENGTH for the others
        self.parameters: dict[str, str] = {}  # per model: Modelfile parameters, such as "num_ctx 4096"
        self.version = version
        self.record = record  # keep request bodies (turn off for long runs that measure memory)
        self.requests: list[tuple[str, str, dict[str, Any] | None]] = []
        self.ports: list[int] = []  # each request's client port, in the order of `requests`: its connection
        self.responder: Callable[[dict[str, Any]], Reply] | None = None
        # when set, the digital-twin summary requests take this reply, never one of the script's (a summary is
        # asked for when a client hangs up, so when it comes, before or after the next question, is the machine's)
        self.summary_reply: Reply | None = None
        self.hanging = 0  # replies now in a Hang step, everything before it sent
        # /api/embed: a word-hashing embedder in which `synonyms` (word → the word it means) make paraphrases meet
        self.synonyms: dict[str, str] = {}
        self.embed_dimensions = 64
        self._replies: list[Reply] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = _QuietServer(("127.0.0.1", port), self._handler_class())
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> FakeOllama:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()

    def remember(self, path: str, method: str, body: dict[str, Any] | None, port: int = 0) -> None:
        with self._lock:
            self.requests.append((path, method, body if self.record else None))
            self.ports.append(port)

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        return [body for path, _, body in self.requests if path == "/api/chat" and body is not None]

    def embedding(self, text: str) -> list[float]:
        """A unit vector of the text's words (each mapped through `synonyms`), hashed into a few dimensions."""
        vector = [0.0] * self.embed_dimensions
        for word in re.findall(r"[a-z0-9#]+", text.lower()):
            meaning = self.synonyms.get(word, word)
            vector[zlib.crc32(meaning.encode()) % self.embed_dimensions] += 1.0
        length = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / length for v in vector]

    def capabilities_of(self, model: str) -> Sequence[str]:
        if model in self.capabilities:
            return self.capabilities[model]
        return EMBEDDING_CAPABILITIES if "embed" in model.split(":")[0] else DEFAULT_CAPABILITIES

    def details_of(self, model: str) -> dict[str, Any]:
        """`details` as /api/tags and /api/show give them: an embedding model is a BERT, not a qwen3."""
        if "completion" not in self.capabilities_of(model):
            family, size, quantization = "nomic-bert", "137M", "F16"
        else:
            family, size, quantization = "qwen3", "4.0B", "Q4_K_M"
        return {
            "parent_model": "",
            "format": "gguf",
            "family": family,
            "families": [family],
            "parameter_size": size,
            "quantization_level": quantization,
        }

    def next_reply(self, body: dict[str, Any]) -> Reply:
        if self.summary_reply is not None and is_summary_request(body):
            return self.summary_reply
        with self._lock:
            if self._replies:
                return self._replies.pop(0)
        if self.responder is not None:
            return self.responder(body)
        return Reply.http_error(500, "fake Ollama: no scripted reply left for this request")

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(_OllamaHandler):
            server_fake = fake

        return Handler


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True
    # socketserver's default of 5 pending connections drops some of 50 clients that connect at once, which
    # the clients see as "the connection broke off"; Ollama's own server (Go) takes the system's maximum
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up mid-answer is part of the script, not a failure."""


class _OllamaHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # send each NDJSON line at once, as Ollama does
    server_fake: FakeOllama

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def _body(self) -> dict[str, Any] | None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        return json.loads(raw) if raw else None

    def _send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        fake = self.server_fake
        fake.remember(self.path, "GET", None, self.client_address[1])
        if self.path == "/api/tags":
            self._send_json(200, {"models": [_model_entry(name, fake.details_of(name)) for name in fake.models]})
        elif self.path == "/api/version":
            self._send_json(200, {"version": fake.version})
        elif self.path == "/api/ps":
            self._send_json(200, {"models": []})
        else:
            self._send_json(404, {"error": "404 page not found"})

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        fake = self.server_fake
        body = self._body()
        fake.remember(self.path, "POST", body, self.client_address[1])
        if self.path == "/api/show":
            self._show(body or {})
        elif self.path == "/api/chat":
            self._chat(body or {})
        elif self.path == "/api/embed":
            self._embed(body or {})
        else:
            self._send_json(404, {"error": "404 page not found"})

    def _embed(self, body: dict[str, Any]) -> None:
        fake = self.server_fake
        name = body.get("model", "")
        if name not in fake.models:
            self._send_json(404, {"error": f'model "{name}" not found, try pulling it first'})
            return
        texts = body.get("input", [])
        texts = [texts] if isinstance(texts, str) else texts
        vectors = [fake.embedding(str(text)) for text in texts]
        self._send_json(200, {"model": name, "embeddings": vectors, "total_duration": 1000, "prompt_eval_count": 1})

    def _show(self, body: dict[str, Any]) -> None:
        fake = self.server_fake
        name = body.get("model", "")
        if name not in fake.models:
            self._send_json(404, {"error": f"model '{name}' not found"})
            return
        details = fake.details_of(name)
        architecture = details["family"]
        chat = "completion" in fake.capabilities_of(name)
        self._send_json(
            200,
            {
                "modelfile": "FROM fake",
                "parameters": fake.parameters.get(name, ""),
                "template": "{{ .Prompt }}",
                "details": details,
                "model_info": {
                    "general.architecture": architecture,
                    f"{architecture}.context_length": fake.context_lengths.get(
                        name, DEFAULT_CONTEXT_LENGTH if chat else EMBEDDING_CONTEXT_LENGTH
                    ),
                },
                "capabilities": list(fake.capabilities_of(name)),
                "modified_at": _now(),
            },
        )

    def _refusal(self, body: dict[str, Any]) -> tuple[int, str] | None:
        fake = self.server_fake
        name = body.get("model", "")
        if name not in fake.models:
            return 404, f"model '{name}' not found"
        capabilities = fake.capabilities_of(name)
        if "completion" not in capabilities:
            return 400, f'"{name}" does not support chat'
        if body.get("tools") and "tools" not in capabilities:
            return 400, f"registry.ollama.ai/library/{name} does not support tools"
        if body.get("think") not in (None, False) and "thinking" not in capabilities:
            return 400, f'"{name}" does not support thinking'
        if any(message.get("images") for message in body.get("messages", [])) and "vision" not in capabilities:
            return 400, f'"{name}" does not support images'
        roles = {m.get("role") for m in body.get("messages", [])}
        if not roles <= {"system", "user", "assistant", "tool"}:
            return 400, f"invalid role in messages: {sorted(map(str, roles))}"
        return None

    def _chat(self, body: dict[str, Any]) -> None:
        refusal = self._refusal(body)
        if refusal:
            self._send_json(refusal[0], {"error": refusal[1]})
            return
        reply = self.server_fake.next_reply(body)
        steps = bounded(reply.steps, (body.get("options") or {}).get("num_predict"))
        if reply.status != 200:
            self._send_json(reply.status, {"error": reply.error or "error"})
        elif body.get("stream", True):
            self._stream(body, steps)
        elif any(isinstance(step, (Hang, Drop)) for step in steps):
            self._wait_or_drop(steps)
        else:
            self._send_json(200, {"model": body["model"], "created_at": _now(), **aggregate(steps)})

    def _stream(self, body: dict[str, Any], steps: Sequence[Step]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for step in steps:
                if isinstance(step, (Hang, Drop)):
                    self._fault(step)
                    return
                if isinstance(step, Pause):
                    self.server_fake._closing.wait(step.seconds)
                    continue
                if isinstance(step, Gate):
                    self._wait_for(step)
                    continue
                line = (
                    step.line
                    if isinstance(step, Raw)
                    else json.dumps({"model": body["model"], "created_at": _now(), **step})
                )
                self._write_chunk((line + "\n").encode())
            self._write_chunk(b"")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _wait_for(self, gate: Gate) -> None:
        """Until the test opens the gate, its time runs out, or the server shuts down."""
        deadline = time.monotonic() + gate.seconds
        while not gate.gate.wait(0.05) and not self.server_fake._closing.is_set() and time.monotonic() < deadline:
            pass

    def _wait_or_drop(self, steps: Sequence[Step]) -> None:
        for step in steps:
            if self._fault(step):
                return

    def _fault(self, step: Step) -> bool:
        """Act out a Hang or Drop step; False for a step that is content."""
        if isinstance(step, Hang):
            fake = self.server_fake
            with fake._lock:
                fake.hanging += 1
            try:
                fake._closing.wait(step.seconds)
            finally:
                with fake._lock:
                    fake.hanging -= 1
            self.close_connection = True
            return True
        if isinstance(step, Drop):
            self._drop()
            return True
        return False

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _drop(self) -> None:
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True


def _model_entry(name: str, details: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "model": name,
        "modified_at": _now(),
        "size": 2_600_000_000 if details["family"] == "qwen3" else 274_000_000,
        "digest": f"{abs(hash(name)):064x}"[:64],
        "details": details,
    }


def free_port() -> int:
    """A loopback port nothing listens on (yet)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def is_summary_request(body: dict[str, Any]) -> bool:
    """Whether a recorded /api/chat body is the application's digital-twin summary request."""
    from engine.prompt import SUMMARY_INSTRUCTIONS

    messages = body.get("messages") or [{}]
    return bool(messages[0].get("content") == SUMMARY_INSTRUCTIONS)


def wait_until(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll `predicate` until it is true or `timeout` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()
