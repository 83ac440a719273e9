"""Digital-twin summaries written in the background, so leaving a workspace never waits for the model.

Leaving a workspace queues its summary, and so does a turn that leaves SUMMARY_EVERY_TURNS turns uncovered in a
workspace that stays open (a long session); a worker thread with an event loop of
its own writes the queued summaries one after another, then ends. A face
collects what happened (`finished`) to tell the user, may wait for the rest
before it exits (`wait`), and may skip them (`skip`): a skipped summary is
written the next time the workspace is left, as its turns stay unsummarised.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.models import Models
from app.ports import SummaryRecords
from app.presentation.formatting import shown_name
from domain.events import AgentError
from domain.records import Workspace
from engine.agent import AIAgent
from store import HistoryError

TURNS_PER_SUMMARY = 100  # the most turns one refresh reads: the previous summary keeps the rest

logger = logging.getLogger(__name__)


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


WriteSummary = Callable[[int], Awaitable[bool]]
CloseLoop = Callable[[], Awaitable[None]]


class SummaryWriter:
    """A queue of workspaces whose summaries are due, written by a worker thread one at a time."""

    def __init__(self, write: WriteSummary, close_loop: CloseLoop) -> None:
        self._write = write
        self._close_loop = close_loop
        self._lock = threading.Lock()
        self._queue: list[Workspace] = []
        self._writing: Workspace | None = None
        self._finished: list[SwitchOutcome] = []
        self._thread: threading.Thread | None = None
        self._running: tuple[asyncio.AbstractEventLoop, asyncio.Task[bool]] | None = None

    def submit(self, chat: Workspace) -> None:
        """Queue `chat`'s summary (once, however often it is left before the worker gets to it)."""
        with self._lock:
            if all(queued.chat_id != chat.chat_id for queued in self._queue):
                self._queue.append(chat)
            if self._thread is None:
                self._start_worker()

    def pending(self) -> list[Workspace]:
        """The workspaces whose summaries are being written or wait their turn."""
        with self._lock:
            return ([self._writing] if self._writing else []) + list(self._queue)

    def is_pending(self, chat_id: int) -> bool:
        return any(chat.chat_id == chat_id for chat in self.pending())

    def finished(self) -> list[SwitchOutcome]:
        """What happened to the summaries written since the last call (each reported once)."""
        with self._lock:
            done, self._finished = self._finished, []
        return done

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every queued summary is written; False if `timeout` ran out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                thread = self._thread
            if thread is None:
                return not self.pending()
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return False
            thread.join(remaining)

    def skip(self) -> list[Workspace]:
        """Drop the queued summaries and cancel the one being written; returns the workspaces skipped."""
        with self._lock:
            skipped = ([self._writing] if self._writing else []) + self._queue
            self._queue = []
            running = self._running
        if running is not None:
            loop, task = running
            loop.call_soon_threadsafe(task.cancel)
        return skipped

    # The worker ---------------------------------------------------------------------

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
                if self._queue:  # submitted while the worker was ending
                    self._start_worker()

    async def _drain(self) -> None:
        try:
            while (chat := self._next()) is not None:
                outcome = await self._write_one(chat)
                with self._lock:
                    self._writing = None
                    if outcome is not None:
                        self._finished.append(outcome)
        finally:
            await self._close_loop()

    def _next(self) -> Workspace | None:
        with self._lock:
            self._writing = self._queue.pop(0) if self._queue else None
            return self._writing

    async def _write_one(self, chat: Workspace) -> SwitchOutcome | None:
        task = asyncio.ensure_future(self._write(chat.chat_id))
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


class Summaries:
    """The digital twins: which workspaces need a summary, writing them in the background, the user's own edits."""

    def __init__(
        self,
        store: SummaryRecords,
        agent: AIAgent,
        models: Models,
        access: Access,
        audit: AuditTrail,
        every_turns: int = 10,
    ) -> None:
        self._store = store
        self._every_turns = every_turns  # SUMMARY_EVERY_TURNS (0: only on leaving)
        self._access = access
        self._audit = audit
        self._agent = agent
        self._models = models  # summaries are written by the model in use
        self._writer = SummaryWriter(self.refresh, agent.aclose)

    def needed(self, chat_id: int | None) -> bool:
        """Whether leaving the workspace would call the model to refresh its summary (never when the history
        file has gone from under the app: the summary could not be kept)."""
        if chat_id is None or not self._access.sees(chat_id) or self._store.count_unsummarised_turns(chat_id) == 0:
            return False
        try:
            self._store.check_writable()
        except HistoryError:
            return False
        return True

    def leave(self, chat_id: int) -> bool:
        """The user left `chat_id`: queue its summary if it has new turns; whether one is now pending (a summary is
        written for whoever reads the workspace, so anyone who sees it may leave it)."""
        chat = self._access.visible(chat_id)
        if chat is None:
            return False
        if not self._writer.is_pending(chat_id):
            if not self.needed(chat_id):
                return False
            self._writer.submit(chat)
        return True

    def after_turn(self, chat_id: int) -> bool:
        """A turn was stored in `chat_id`, which stays open: queue its summary each time SUMMARY_EVERY_TURNS more
        turns are not covered by it (one statement; the summary is written in the background, so no turn waits for
        it; one that failed is tried again that many turns later, not after every turn); whether one was queued."""
        if self._every_turns <= 0 or self._writer.is_pending(chat_id):
            return False
        uncovered = self._store.count_unsummarised_turns(chat_id)
        if uncovered == 0 or uncovered % self._every_turns:
            return False
        chat = self._store.get_chat(chat_id)
        if chat is None:
            return False
        self._writer.submit(chat)
        return True

    async def refresh(self, chat_id: int) -> bool:
        """Summarise the turns the summary does not cover yet; False when there were none, or when another process
        (or window) is writing this summary now: it is written once, whoever left the workspace.

        Raises `AgentError` when the model cannot summarise; the old summary stays.
        """
        claim = f"summary {chat_id}"
        if not self._store.claim(claim):
            return False
        released = False
        try:
            written = await self._summarise(chat_id)
            if written is None:
                return False
            with self._store.unit_of_work():  # stored and given up in one transaction: one flush to disk, not two
                self._store.set_context_summary(chat_id, written[0], through_turn_id=written[1])
                self._store.release(claim)
            released = True
            return True
        finally:
            if not released:
                self._store.release(claim)

    async def _summarise(self, chat_id: int) -> tuple[str, int] | None:
        """The new summary, and the last turn it covers; None when no turn is left to cover."""
        chat = self._store.get_chat(chat_id)
        turns, pending = self._store.turns_since_summary(chat_id, TURNS_PER_SUMMARY)
        if chat is None or not pending:
            return None
        pairs = [(turn.user, turn.assistant) for turn in turns if turn.status != "superseded"]
        summary = await self._agent.summarize_history(
            pairs, previous_summary=chat.context_summary, model=self._models.current
        )
        return summary, turns[-1].turn_id

    def set(self, chat_id: int, text: str | None) -> None:
        """Replace the summary with the user's own text (None or blank clears it), where the user may change."""
        chat = self._access.change(chat_id, "edit the summary of")
        cleaned = text.strip() if text and text.strip() else None
        with self._store.unit_of_work():
            self._store.set_context_summary(chat_id, cleaned)
            self._audit.record(
                "summary edited" if cleaned else "summary cleared", chat_id, cleaned or "", chat.chat_name
            )

    def pending(self) -> list[Workspace]:
        """The workspaces whose summaries are being written in the background, or wait to be."""
        return self._writer.pending()

    def is_pending(self, chat_id: int) -> bool:
        return self._writer.is_pending(chat_id)

    def finished(self) -> list[SwitchOutcome]:
        """The background summaries written (or failed) since the last call, each reported once."""
        return self._writer.finished()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the background summaries are written; False if `timeout` ran out first."""
        return self._writer.wait(timeout)

    def skip(self) -> list[Workspace]:
        """Give up the background summaries (they are written the next time those workspaces are left)."""
        return self._writer.skip()
