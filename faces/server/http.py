"""The same protocol over HTTP, for `curl` and scripts: `POST /v1/dispatch` answers with an NDJSON stream of the
dispatch's events; `GET /v1/sessions` with the `sessions` event. Starlette and uvicorn, on the server's loop. The
OpenAI-compatible chat API (`faces/server/openai_api.py`) is served beside them.

Before a body is read, its declared size and any `Authorization: Bearer` token are checked; the body is then read
in pieces, at most MAX_LINE_BYTES of it (MAX_IMAGE_LINE_BYTES for a dispatch carrying images), within the
server's `line_seconds`. Connections count against the same
limits as the TCP face's (`faces/server/limits.py`). Each HTTP request is a connection of its own for request
ids: a cancel sent over HTTP reaches no dispatch (cancel over TCP; a stream closed early leaves its turn running).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from faces.server.http_bodies import BodyTooLongError, bearer_token, declared_too_long, read_body
from faces.server.limits import BACKLOG, ConnectionGuard
from faces.server.openai_api import openai_routes
from faces.server.protocol import (
    MAX_IMAGE_LINE_BYTES,
    MAX_LINE_BYTES,
    ErrorCode,
    Event,
    encode,
    error_event,
    line_allowed,
)
from faces.server.server import ProtocolServer

NDJSON = "application/x-ndjson"
TOO_LONG = (
    f"the body is longer than {MAX_LINE_BYTES:,} bytes ({MAX_IMAGE_LINE_BYTES:,} for a dispatch that carries images)"
)


@dataclass(eq=False)
class StreamSink:
    """Where one HTTP request's events go: a queue the response reads, ended by None."""

    queue: asyncio.Queue[Event | None] = field(default_factory=asyncio.Queue)
    sessions: set[int] = field(default_factory=set)
    closed: bool = False

    async def send(self, payload: Event) -> None:
        if not self.closed:
            self.queue.put_nowait(payload)


def http_app(server: ProtocolServer) -> Starlette:
    async def dispatch(request: Request) -> Response:
        if declared_too_long(request, MAX_IMAGE_LINE_BYTES):
            return _refusal(413, "INVALID_REQUEST", TOO_LONG)
        bearer = bearer_token(request)
        if server.token is not None and bearer is not None and not server.token_matches(bearer):
            return _refusal(401, "UNAUTHORIZED", "the Authorization header's token is wrong")
        seconds = server.guard.limits.line_seconds
        try:
            body = await read_body(request, seconds, lambda body: line_allowed(body, len(body)))
        except BodyTooLongError:
            return _refusal(413, "INVALID_REQUEST", TOO_LONG)
        except TimeoutError:
            return _refusal(408, "TIMEOUT", f"the body did not arrive whole within {seconds:g} s")
        authorized = server.token is not None and bearer is not None
        return StreamingResponse(_events(server, body.replace(b"\n", b" "), authorized), media_type=NDJSON)

    async def sessions(request: Request) -> Response:
        token = bearer_token(request)
        line = encode({"id": "sessions", "type": "list-sessions", **({"token": token} if token else {})})
        replies = [event async for event in _replies(server, line)]
        status = 401 if replies and replies[0].get("code") == "UNAUTHORIZED" else 200
        return JSONResponse(replies[0], status_code=status)

    routes = [Route("/v1/dispatch", dispatch, methods=["POST"]), Route("/v1/sessions", sessions)]
    return Starlette(routes=routes + openai_routes(server))


def _refusal(status: int, code: ErrorCode, message: str) -> Response:
    """The error event as the whole answer; the connection closes, so an unread body is never read."""
    return JSONResponse(error_event(None, code, message), status_code=status, headers={"Connection": "close"})


async def _events(server: ProtocolServer, line: bytes, authorized: bool) -> AsyncIterator[bytes]:
    async for payload in _replies(server, line, authorized):
        yield encode(payload)


async def _replies(server: ProtocolServer, line: bytes, authorized: bool = False) -> AsyncIterator[Event]:
    """The events `line` gets, as the TCP server would send them; a client gone mid-stream leaves the turn running."""
    sink = StreamSink()
    task = server.serve_line(line, sink, authorized)
    task.add_done_callback(lambda _: sink.queue.put_nowait(None))
    try:
        while (payload := await sink.queue.get()) is not None:
            yield payload
    finally:
        sink.closed = True


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 connection, counted by the server's guard: refused at once when every connection that
    counts is busy, closed when it waits too long for a request or for the rest of one."""

    guard: ConnectionGuard

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = self.client[0] if self.client else "unknown"
        self._last_active = time.monotonic()
        self._half_sent_since: float | None = None
        refusal = self.guard.admit(self)
        if refusal is not None:
            body = encode(error_event(None, "INVALID_REQUEST", refusal, recoverable=False))
            head = f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {len(body)}"
            transport.write(f"{head}\r\nConnection: close\r\n\r\n".encode() + body)
            transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._last_active = time.monotonic()
        if self._half_sent_since is None and not self.busy():
            self._half_sent_since = self._last_active
        super().data_received(data)

    def on_response_complete(self) -> None:
        self._half_sent_since, self._last_active = None, time.monotonic()
        super().on_response_complete()

    def busy(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def waiting(self) -> tuple[float, bool]:
        if self._half_sent_since is not None:
            return self._half_sent_since, True
        return self._last_active, False

    def hang_up(self, code: ErrorCode, reason: str) -> None:
        if not self.transport.is_closing():
            self.transport.close()


class _EmbeddedServer(uvicorn.Server):
    """uvicorn inside the protocol server's loop: the protocol server handles the signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def serve_http(server: ProtocolServer, host: str, port: int) -> tuple[Any, asyncio.Task[None]]:
    """Start the HTTP face; returns (the uvicorn server, its task). Set `should_exit` to stop it."""

    class Guarded(GuardedH11):
        guard = server.guard

    trusted = server.trusted_proxies  # a client's X-Forwarded-For counts only from these proxies
    config = uvicorn.Config(
        http_app(server), host=host, port=port, log_level="warning", lifespan="off", http=Guarded, backlog=BACKLOG,
        proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None,
    )  # fmt: skip
    embedded = _EmbeddedServer(config)
    task = asyncio.get_running_loop().create_task(embedded.serve())
    while not embedded.started and not task.done():
        await asyncio.sleep(0.01)
    if task.done():
        task.result()  # raises the reason it could not start
    return embedded, task
