"""One TCP client of the protocol server: its lines read within bounds, its events written whole."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from faces.server.protocol import (
    MAX_IMAGE_LINE_BYTES,
    MAX_LINE_BYTES,
    ErrorCode,
    Event,
    encode,
    error_event,
    line_allowed,
)

BEHIND_BYTES = 256 * 1024  # unsent bytes to one client before its events wait for it
CHUNK_BYTES = 64 * 1024


class Sink(Protocol):
    """Where a request's events go (a TCP connection, an HTTP response), and the sessions it used.
    Request ids are its own: a cancel reaches only the dispatches sent through the same sink."""

    sessions: set[int]

    async def send(self, payload: Event) -> None: ...


@dataclass(eq=False)
class Connection:
    """One client's socket: events are written whole lines at a time; a vanished client is written no more.

    The lines of one turn of the event loop go out in one `write` (`flush`, called as the loop gets to it): a
    turn's events come a few at a time, as the model's chunks arrive, and a system call per line cost the server
    more than building the lines."""

    writer: asyncio.StreamWriter
    address: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sessions: set[int] = field(default_factory=set)
    closed: bool = False
    in_flight: int = 0
    last_active: float = field(default_factory=time.monotonic)
    half_sent_since: float | None = None  # the first byte of a line not yet ended
    lines: list[bytes] = field(default_factory=list)  # queued for the next `flush`

    async def send(self, payload: Event) -> None:
        """Queue the event's line at once (whole lines, in order, so lines never interleave); wait for the
        client only when it falls behind."""
        if self.closed or self.writer.is_closing():
            self.closed = True
            return
        if not self.lines:
            asyncio.get_running_loop().call_soon(self.flush)
        self.lines.append(encode(payload))
        if self.writer.transport.get_write_buffer_size() + sum(map(len, self.lines)) > BEHIND_BYTES:
            self.flush()
            try:
                async with self.lock:
                    await self.writer.drain()
            except (ConnectionError, RuntimeError):
                self.closed = True

    def flush(self) -> None:
        """Write the lines queued so far, in one `write`."""
        if not self.lines:
            return
        lines, self.lines = b"".join(self.lines), []
        if self.closed or self.writer.is_closing():
            self.closed = True
            return
        try:
            self.writer.write(lines)
        except (ConnectionError, RuntimeError):
            self.closed = True

    def close(self) -> None:
        """Write what is queued, then close."""
        self.flush()
        self.closed = True
        with contextlib.suppress(ConnectionError, RuntimeError):
            self.writer.close()

    def busy(self) -> bool:
        return self.in_flight > 0

    def waiting(self) -> tuple[float, bool]:
        if self.half_sent_since is not None:
            return self.half_sent_since, True
        return self.last_active, False

    def started(self, request: asyncio.Task[Any]) -> None:
        """A request of this connection is in flight until `request` ends."""
        self.in_flight += 1
        request.add_done_callback(self._ended)

    def _ended(self, _: asyncio.Task[Any]) -> None:
        self.in_flight -= 1
        self.last_active = time.monotonic()

    def hang_up(self, code: ErrorCode, reason: str) -> None:
        """Say why in an error event (not recoverable), and close."""
        self.flush()
        if not self.closed and not self.writer.is_closing():
            with contextlib.suppress(ConnectionError, RuntimeError):
                self.writer.write(encode(error_event(None, code, reason, recoverable=False)))
        self.closed = True
        with contextlib.suppress(ConnectionError, RuntimeError):
            self.writer.close()


async def read_lines(reader: asyncio.StreamReader, connection: Connection, serve: Callable[[bytes], None]) -> None:
    """Hand each non-blank line to `serve` as it arrives, until the client is done, the connection is closed, or a
    line passes MAX_LINE_BYTES (MAX_IMAGE_LINE_BYTES for a dispatch carrying images), which is answered and ends
    the connection. What is buffered is at most one line."""
    pending = bytearray()
    while not connection.closed:
        chunk = await reader.read(CHUNK_BYTES)
        if not chunk:
            break
        now = connection.last_active = time.monotonic()
        searched = len(pending)
        pending += chunk
        ended = False
        while (end := pending.find(b"\n", searched)) >= 0 and line_allowed(pending, end):
            line, searched, ended = bytes(pending[:end]), 0, True
            del pending[: end + 1]
            if line.strip():
                serve(line)
        if not line_allowed(pending, len(pending)):
            message = (
                f"the line is longer than {MAX_LINE_BYTES:,} bytes ({MAX_IMAGE_LINE_BYTES:,} for a dispatch that "
                "carries images); the connection is closed"
            )
            await connection.send(error_event(None, "INVALID_REQUEST", message, recoverable=False))
            return
        if not pending:
            connection.half_sent_since = None
        elif ended or connection.half_sent_since is None:
            connection.half_sent_since = now
    if pending.strip() and not connection.closed:  # the last line, without its newline
        serve(bytes(pending))
