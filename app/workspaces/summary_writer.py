"""The worker that writes a process's digital-twin summaries in the background, one after another.

An application and its siblings (the protocol server's workspaces, the web app's tabs) share one
writer: each queues its summaries as its own, and sees, waits for and skips only those, while the
worker writes them all with one event loop and one connection to Ollama (and the process's server
pool keeps them from holding every place a question could take). Once the queue is empty it
waits LINGER_SECONDS for more before it ends: a busy server leaves a workspace every few moments, and
a thread, an event loop and a connection for each summary cost as much as writing it (and a worker of
its own for each workspace wrote them all at once, beside the turns they then held up).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.presentation.formatting import shown_name
from domain.events import AgentError
from domain.records import Workspace

LINGER_SECONDS = 5.0

logger = logging.getLogger(__name__)

WriteSummary = Callable[[int], Awaitable[bool]]  # writes one workspace's summary; whether it wrote one
CloseLoop = Callable[[], Awaitable[None]]


@dataclass(frozen=True)
class SwitchOutcome:
    """What happened to the digital twin of the workspace that was left.

    `pending`: its summary is being written in the background.
    """

    left: Workspace | None = None
    summarised: bool = False
    error: AgentError | None = None
    pending: bool = False

    @property
    def notice(self) -> str | None:
        """One sentence for the user about the summary of the workspace left, if there is news."""
        name = shown_name(self.left.chat_name) if self.left else "the workspace"
        if self.error is not None:
            return f"The summary of {name} was not updated and the previous one was kept: {self.error.message}"
        if self.pending:
            return f"Updating the summary of {name} in the background."
        return f"Updated the summary of {name}." if self.summarised else None


@dataclass(frozen=True)
class _Job:
    owner: object  # the application's summaries that queued it
    chat: Workspace
    write: WriteSummary


class SummaryWriter:
    """A queue of workspaces whose summaries are due, written by one worker thread one at a time."""

    def __init__(self, close_loop: CloseLoop) -> None:
        self._close_loop = close_loop  # closes what the worker's loop opened (its connections to Ollama)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a summary was written, or the worker ended
        self._queue: list[_Job] = []
        self._writing: _Job | None = None
        self._finished: list[tuple[object, SwitchOutcome]] = []
        self._thread: threading.Thread | None = None
        self._running: tuple[asyncio.AbstractEventLoop, asyncio.Task[bool]] | None = None
        self._wake: Callable[[], None] | None = None  # set while the worker waits for more
        self._closed = False

    def submit(self, owner: object, chat: Workspace, write: WriteSummary) -> None:
        """Queue `chat`'s summary for `owner` (once, however often it is left before the worker gets to it)."""
        with self._lock:
            if all(job.chat.chat_id != chat.chat_id for job in self._queue):
                self._queue.append(_Job(owner, chat, write))
            if self._thread is None:
                self._start_worker()
            elif self._wake is not None:
                self._wake()

    def pending(self, owner: object) -> list[Workspace]:
        """The workspaces `owner` queued whose summaries are being written or wait their turn."""
        with self._lock:
            return [job.chat for job in self._jobs() if job.owner is owner]

    def is_pending(self, chat_id: int) -> bool:
        """Whether `chat_id`'s summary is being written or waits, whoever queued it."""
        with self._lock:
            return any(job.chat.chat_id == chat_id for job in self._jobs())

    def finished(self, owner: object) -> list[SwitchOutcome]:
        """What happened to `owner`'s summaries written since its last call (each reported once)."""
        with self._lock:
            done = [outcome for queued_by, outcome in self._finished if queued_by is owner]
            self._finished = [(queued_by, outcome) for queued_by, outcome in self._finished if queued_by is not owner]
        return done

    def wait(self, owner: object, timeout: float | None = None) -> bool:
        """Block until every summary `owner` queued is written; False if `timeout` ran out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while self._thread is not None and any(job.owner is owner for job in self._jobs()):
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._changed.wait(remaining)
            return not any(job.owner is owner for job in self._jobs())

    def skip(self, owner: object) -> list[Workspace]:
        """Drop `owner`'s queued summaries and cancel its one being written; the workspaces skipped."""
        with self._lock:
            skipped = [job.chat for job in self._jobs() if job.owner is owner]
            self._queue = [job for job in self._queue if job.owner is not owner]
            running = self._running if self._writing is not None and self._writing.owner is owner else None
        if running is not None:
            loop, task = running
            loop.call_soon_threadsafe(task.cancel)
        return skipped

    def close(self, timeout: float) -> bool:
        """Drop every summary not written, and end the worker; False if it had not ended within `timeout`."""
        with self._lock:
            self._closed = True
            self._queue = []
            thread, running, wake = self._thread, self._running, self._wake
        if running is not None:
            running[0].call_soon_threadsafe(running[1].cancel)
        if wake is not None:
            wake()
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    # The worker ---------------------------------------------------------------------

    def _jobs(self) -> list[_Job]:
        """The summary being written and those queued (the caller holds the lock)."""
        return ([self._writing] if self._writing else []) + self._queue

    def _start_worker(self) -> None:
        """Start the worker thread (the caller holds the lock)."""
        self._thread = threading.Thread(target=self._work, name="summary-writer", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        try:
            asyncio.run(self._drain())
        finally:
            with self._lock:
                self._thread = None
                if self._queue and not self._closed:  # submitted while the worker was ending
                    self._start_worker()
                self._changed.notify_all()

    async def _drain(self) -> None:
        more = asyncio.Event()
        loop = asyncio.get_running_loop()

        def wake() -> None:
            loop.call_soon_threadsafe(more.set)

        try:
            while True:
                more.clear()
                job = self._next(wake)
                if job is None:
                    if self._wake is None or not await _set_within(more, LINGER_SECONDS):
                        return  # closed, or nothing more came
                    continue
                outcome = await self._write_one(job)
                with self._lock:
                    self._writing = None
                    if outcome is not None:
                        self._finished.append((job.owner, outcome))
                    self._changed.notify_all()
        finally:
            with self._lock:
                self._wake = None
            await self._close_loop()

    def _next(self, wake: Callable[[], None]) -> _Job | None:
        """The next summary to write; with none, `wake` is what a summary submitted (or `close`) calls."""
        with self._lock:
            self._writing = self._queue.pop(0) if self._queue and not self._closed else None
            self._wake = None if self._writing is not None or self._closed else wake
            return self._writing

    async def _write_one(self, job: _Job) -> SwitchOutcome | None:
        chat = job.chat
        task = asyncio.ensure_future(job.write(chat.chat_id))
        with self._lock:
            self._running = (asyncio.get_running_loop(), task)
        try:
            return SwitchOutcome(chat, summarised=await task)
        except asyncio.CancelledError:
            logger.info("summary of workspace %s skipped", chat.chat_id)
            return None
        except AgentError as error:
            logger.warning("summary of workspace %s not refreshed: %s", chat.chat_id, error.message)
            return SwitchOutcome(chat, error=error)
        except Exception:  # a bug, or the store gone: the summary waits for the next switch
            logger.exception("summary of workspace %s failed", chat.chat_id)
            return None
        finally:
            with self._lock:
                self._running = None


async def _set_within(event: asyncio.Event, seconds: float) -> bool:
    """Whether `event` is set within `seconds`."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()
    return event.is_set()
