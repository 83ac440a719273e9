"""A webhook receiver on loopback, as an office's job tracker would run one: it checks each request's
`X-Signature-256` against its own copy of the secret, answers with the statuses it is scripted with (then the last
one, forever), and keeps what came. It can be stopped (and its port then refuses connections) and started again
on the same port, and made to hang: to take a request and not answer it until it is stopped."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from fakes.ollama import free_port, wait_until


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    signed: bool  # the signature is the HMAC-SHA256 of exactly these bytes with the receiver's secret
    answered: int  # the status it was answered with (0: never answered, the receiver hung)

    @property
    def event(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.body)
        return loaded


class Receiver:
    """Start with `with Receiver(secret, answers=(503, 503, 200)) as receiver:`; `receiver.url` is its hook URL."""

    def __init__(
        self,
        secret: str,
        answers: Sequence[int] = (200,),
        port: int | None = None,
        hang: bool = False,
        location: str | None = None,
    ) -> None:
        self.secret = secret
        self.location = location  # sent with every answer: a redirect's target
        self.answers = list(answers)
        self.port = port or free_port()
        self.hang = hang
        self.received: list[Received] = []
        self.lock = threading.Lock()
        self.released = threading.Event()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def __enter__(self) -> Receiver:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self.released.clear()
        self._server = _Server(("127.0.0.1", self.port), self._handler())
        threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True).start()

    def stop(self) -> None:
        """Stop listening (its port then refuses connections); a hanging request is let go."""
        self.released.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def wait_for(self, predicate: Callable[[list[Received]], bool], timeout: float = 30.0) -> bool:
        return wait_until(lambda: predicate(self.seen()), timeout)

    def seen(self) -> list[Received]:
        with self.lock:
            return list(self.received)

    def _next_status(self) -> int:
        with self.lock:
            return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                expected = "sha256=" + hmac.new(receiver.secret.encode(), body, hashlib.sha256).hexdigest()
                signed = hmac.compare_digest(expected, self.headers.get("X-Signature-256", ""))
                headers = {key.lower(): value for key, value in self.headers.items()}
                if receiver.hang:
                    with receiver.lock:
                        receiver.received.append(Received(self.path, headers, body, signed, 0))
                    receiver.released.wait()
                    return
                status = receiver._next_status() if signed else 401
                with receiver.lock:
                    receiver.received.append(Received(self.path, headers, body, signed, status))
                self.send_response(status)
                if receiver.location is not None:
                    self.send_header("Location", receiver.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A sender that hangs up is part of the test, not a failure."""


def hooks_file(folder: Path, *hooks: tuple[str, Sequence[str], str]) -> Path:
    """A WEBHOOKS_CONFIG file of (url, events, secret) hooks, as an office would write it."""
    lines = []
    for url, events, secret in hooks:
        lines += [f"- url: {url}", f"  events: [{', '.join(events)}]", f"  secret: {json.dumps(secret)}"]
    path = folder / "webhooks.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
