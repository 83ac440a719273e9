"""What a client may hold of the server before it has sent a request that counts: connections (in total and per
address) and time (to finish a request it has begun, and to sit idle).

Both faces, TCP and HTTP, register their connections with one `ConnectionGuard`. A connection with a request in
flight is busy, and never closed for waiting. Any other connection is idle (nothing since it connected or since
its last request ended) or half-sent (a request begun and not finished). The guard closes an idle connection
after `idle_seconds`, and a half-sent one `line_seconds` after the request's first byte. When a new client would
pass a limit, the connection that has waited longest without a request in flight makes room for it, so idle or
half-sent connections never lock anyone out; only when every connection counted against the limit is busy is
the new client refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from faces.server.protocol import ErrorCode

logger = logging.getLogger(__name__)
MAX_CONNECTIONS = 256
MAX_PER_ADDRESS = 64
IDLE_SECONDS = 300.0
LINE_SECONDS = 30.0
BACKLOG = 128  # connections the kernel queues, and so the most accepted at once before the guard sees them
OUT_OF_FILES_EVERY = 60.0  # seconds between two log lines saying the process is out of descriptors


@dataclass(frozen=True)
class Limits:
    """The server's bounds (`python main.py serve --max-connections … --idle-seconds …`)."""

    max_connections: int = MAX_CONNECTIONS
    max_per_address: int = MAX_PER_ADDRESS
    idle_seconds: float = IDLE_SECONDS
    line_seconds: float = LINE_SECONDS

    @property
    def check_seconds(self) -> float:
        """How often the guard looks for connections that waited too long."""
        return max(0.05, min(1.0, self.idle_seconds / 4, self.line_seconds / 4))


class Guarded(Protocol):
    """A connection as the guard sees it (a TCP `Connection`, an HTTP connection's protocol)."""

    address: str

    def busy(self) -> bool:
        """Whether a request of this connection is in flight."""
        ...

    def waiting(self) -> tuple[float, bool]:
        """Since when (`time.monotonic`) it has waited, and whether for the rest of a request it has begun."""
        ...

    def hang_up(self, code: ErrorCode, reason: str) -> None:
        """Tell the client `reason` if the transport allows, and close the connection."""
        ...


class ConnectionGuard:
    """The connections of both faces, counted, and closed when they wait too long or must make room."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._open: dict[Guarded, None] = {}  # in the order they connected
        self._watching: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, connection: Guarded) -> str | None:
        """None when `connection` may stay (another made room if need be); else the sentence refusing it."""
        same = [c for c in self._open if c.address == connection.address]
        if len(same) >= self.limits.max_per_address and not self._make_room(same):
            return (
                f"{connection.address} already has {len(same)} connections open, each with a request in flight; "
                "send more requests on those (several may be in flight on one connection) or wait for one to end"
            )
        if len(self._open) >= self.limits.max_connections and not self._make_room(list(self._open)):
            return f"the server has {len(self._open)} connections open, each with a request in flight; try again soon"
        self._open[connection] = None
        self._watch()
        return None

    def release(self, connection: Guarded) -> None:
        self._open.pop(connection, None)

    async def stop(self) -> None:
        if self._watching is not None:
            self._watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watching

    def _make_room(self, candidates: Iterable[Guarded]) -> bool:
        """Close the candidate that has waited longest without a request in flight; False when all are busy."""
        waiting = [(c.waiting()[0], n, c) for n, c in enumerate(candidates) if not c.busy()]
        if not waiting:
            return False
        _, _, oldest = min(waiting)
        self.release(oldest)
        oldest.hang_up("TIMEOUT", "the server closed this connection to make room for a new client, since it had no "
                                  "request in flight; connect again to go on")  # fmt: skip
        return True

    def _watch(self) -> None:
        if self._watching is None or self._watching.done():
            self._watching = asyncio.get_running_loop().create_task(self._close_the_waiting())

    async def _close_the_waiting(self) -> None:
        while self._open:
            await asyncio.sleep(self.limits.check_seconds)
            now = time.monotonic()
            for connection in list(self._open):
                reason = None if connection.busy() else self._overdue(connection, now)
                if reason is not None:
                    self.release(connection)
                    connection.hang_up("TIMEOUT", reason)

    def _overdue(self, connection: Guarded, now: float) -> str | None:
        since, half_sent = connection.waiting()
        if half_sent and now - since > self.limits.line_seconds:
            return (
                f"a request did not arrive whole within {self.limits.line_seconds:g} s of its first byte; "
                "the connection is closed"
            )
        if not half_sent and now - since > self.limits.idle_seconds:
            return f"the connection was idle for {self.limits.idle_seconds:g} s and is closed; connect again to go on"
        return None


def raise_open_files_limit() -> None:
    """Let the process open as many descriptors as the system allows it (the soft limit up to the hard one)."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Out of descriptors, asyncio logs a traceback for every connection it cannot accept (up to the backlog
    each second): say it once a minute instead, in a sentence. Other errors are logged as before."""
    last = [-OUT_OF_FILES_EVERY]

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != "socket.accept() out of system resource":
            loop.default_exception_handler(context)
        elif time.monotonic() - last[0] >= OUT_OF_FILES_EVERY:
            last[0] = time.monotonic()
            logger.warning(
                "New connections wait: the process is out of file descriptors (%s); raise its limit (ulimit -n) "
                "or lower --max-connections.",
                context.get("exception"),
            )

    handler: Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None] = handle
    loop.set_exception_handler(handler)
