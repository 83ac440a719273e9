"""The same protocol over HTTP, for `curl` and scripts: `POST /v1/dispatch` answers with an NDJSON stream of the
dispatch's events; `GET /v1/sessions` with the `sessions` event. Starlette and uvicorn, on the server's loop."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from faces.server.protocol import MAX_LINE_BYTES, Event, encode, error_event
from faces.server.server import ProtocolServer

NDJSON = "application/x-ndjson"


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
        body = await request.body()
        if len(body) > MAX_LINE_BYTES:
            refusal = error_event(None, "INVALID_REQUEST", f"the body is longer than {MAX_LINE_BYTES:,} bytes")
            return JSONResponse(refusal, status_code=413)
        return StreamingResponse(_events(server, body.replace(b"\n", b" ")), media_type=NDJSON)

    async def sessions(request: Request) -> Response:
        token = request.headers.get("authorization", "").removeprefix("Bearer ").strip() or None
        line = encode({"id": "sessions", "type": "list-sessions", **({"token": token} if token else {})})
        replies = [event async for event in _replies(server, line)]
        status = 401 if replies and replies[0].get("code") == "UNAUTHORIZED" else 200
        return JSONResponse(replies[0], status_code=status)

    return Starlette(routes=[Route("/v1/dispatch", dispatch, methods=["POST"]), Route("/v1/sessions", sessions)])


async def _events(server: ProtocolServer, line: bytes) -> AsyncIterator[bytes]:
    async for payload in _replies(server, line):
        yield encode(payload)


async def _replies(server: ProtocolServer, line: bytes) -> AsyncIterator[Event]:
    """The events `line` gets, as the TCP server would send them; a client gone mid-stream leaves the turn running."""
    sink = StreamSink()
    task = server.serve_line(line, sink)
    task.add_done_callback(lambda _: sink.queue.put_nowait(None))
    try:
        while (payload := await sink.queue.get()) is not None:
            yield payload
    finally:
        sink.closed = True


class _EmbeddedServer(uvicorn.Server):
    """uvicorn inside the protocol server's loop: the protocol server handles the signals."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def serve_http(server: ProtocolServer, host: str, port: int) -> tuple[Any, asyncio.Task[None]]:
    """Start the HTTP face; returns (the uvicorn server, its task). Set `should_exit` to stop it."""
    config = uvicorn.Config(http_app(server), host=host, port=port, log_level="warning", lifespan="off")
    embedded = _EmbeddedServer(config)
    task = asyncio.get_running_loop().create_task(embedded.serve())
    while not embedded.started and not task.done():
        await asyncio.sleep(0.01)
    if task.done():
        task.result()  # raises the reason it could not start
    return embedded, task
