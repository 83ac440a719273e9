"""What varies from one turn to the next, handed to the agent as one immutable request.

The agent itself holds only what is fixed (the server, the context budget, time limits, its
caches), so one agent can run turns of different workspaces, agents and models at once: each
turn's question, workspace context, tools, approvers and Stop travel in its own request.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from engine.tool_selection import ToolOffer
from tools import ToolContext


def _task_lookup() -> Callable[[asyncio.AbstractEventLoop], asyncio.Task[Any] | None]:
    """`asyncio.current_task(loop)` at its cheapest: Python 3.11's is a Python function over a map of each loop's
    task, read directly here (an answer's every piece looks); later Pythons have it in C."""
    tasks = getattr(asyncio.tasks, "_current_tasks", None)
    if sys.version_info < (3, 12) and isinstance(tasks, dict):
        return tasks.get
    return asyncio.current_task


_current_task = _task_lookup()


class StopSignal:
    """A turn's Stop: pressed from any thread or a signal handler, it ends the turn at once (what arrived is kept).

    The turn may be resumed in a new task for each event (the web face does that), so the turn
    notes its running task after every event; a Stop whose cancel went to an earlier task (or to
    none) takes effect when the turn next looks.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requested = False
        self._cancelled: asyncio.Task[Any] | None = None
        self._running: tuple[asyncio.AbstractEventLoop, asyncio.Task[Any]] | None = None

    @property
    def requested(self) -> bool:
        return self._requested

    def stop(self) -> None:
        """Stop the turn (safe from a signal handler or another thread)."""
        with self._lock:
            running, self._running = self._running, None
            self._requested = True
            self._cancelled = running[1] if running is not None else None
        if running is not None:
            loop, task = running
            if not task.done():
                loop.call_soon_threadsafe(task.cancel)

    def follow(self) -> None:
        """Note the task the turn runs in now; raise CancelledError if Stop was pressed and missed this task."""
        running = self._running
        if running is not None and not self._requested and _current_task(running[0]) is running[1]:
            # Still the task noted (as for every piece of an answer): a Stop cancels it, as noted. The noted loop's
            # task is asked for, not the running loop's: the same while the turn stays in its task, and cheaper.
            return
        task = asyncio.current_task()
        with self._lock:
            self._running = (asyncio.get_running_loop(), task) if task else None
            missed = self._requested and self._cancelled is not task
        if missed:
            raise asyncio.CancelledError

    def ended(self) -> None:
        """The turn is over: a later Stop has nothing to cancel."""
        with self._lock:
            self._running = None

    def was_this(self, error: asyncio.CancelledError) -> bool:
        """Whether a cancellation of the running task came from this Stop (then the turn ends as stopped)."""
        task = asyncio.current_task()
        if not self._requested or task is None:
            return False
        while task.cancelling():
            task.uncancel()
        return True


@dataclass(frozen=True)
class TurnRequest:
    """One turn: the question and its pictures, the workspace's context, the agent profile's prompt and model, the
    tools offered (chosen once, with their schemas' size), the tools' context (approvers, documents, memory) and its
    Stop."""

    question: str
    model: str
    system_prompt: str
    summary: str | None = None
    history: tuple[tuple[str, str], ...] = ()
    memory: tuple[str, ...] = ()
    tools: ToolOffer = field(default_factory=ToolOffer)
    tool_context: ToolContext = field(default_factory=ToolContext)
    temperature: float | None = None  # an agent profile's own; None: the model's default
    think: bool | str = False
    workspace_key: Hashable | None = None  # says "older turns are left out" once per workspace
    images: tuple[bytes, ...] = field(
        default=(), repr=False
    )  # cleaned pictures (`app.turns.images`), sent with the question
    stop: StopSignal = field(default_factory=StopSignal, compare=False)
    # The turns other processes run on each server now (read from their store as the turn starts), so that a
    # process with nothing in flight does not send every turn to the first server; and who is told the server
    # the turn runs on (the application, which keeps it with the running turn for the other processes).
    busy_elsewhere: tuple[tuple[str, int], ...] = ()
    on_server: Callable[[str], None] | None = field(default=None, compare=False)
