"""Digital-twin summaries written in the background, so leaving a workspace never waits for the model.

Leaving a workspace queues its summary, and so does a turn that leaves SUMMARY_EVERY_TURNS turns uncovered in a
workspace that stays open (a long session); the `SummaryWriter` an application shares with its siblings (a worker
thread with an event loop of its own) writes the queued summaries one after another. A face
collects what happened (`finished`) to tell the user, may wait for the rest
before it exits (`wait`), and may skip them (`skip`): a skipped summary is
written the next time the workspace is left, as its turns stay unsummarised.
"""

from __future__ import annotations

import logging

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.models import Models
from app.ports import SummaryRecords
from app.workspaces.summary_writer import SummaryWriter, SwitchOutcome
from domain.records import Workspace
from engine.agent import AIAgent
from store import HistoryError

TURNS_PER_SUMMARY = 100  # the most turns one refresh reads: the previous summary keeps the rest

logger = logging.getLogger(__name__)


class Summaries:
    """The digital twins: which workspaces need a summary, writing them in the background, the user's own edits."""

    def __init__(
        self,
        store: SummaryRecords,
        agent: AIAgent,
        models: Models,
        access: Access,
        audit: AuditTrail,
        writer: SummaryWriter,
        every_turns: int = 10,
    ) -> None:
        self._store = store
        self._every_turns = every_turns  # SUMMARY_EVERY_TURNS (0: only on leaving)
        self._access = access
        self._audit = audit
        self._agent = agent
        self._models = models  # summaries are written by the model in use
        self._writer = writer  # the application's, shared by its siblings

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
            self._writer.submit(self, chat, self.refresh)
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
        self._writer.submit(self, chat, self.refresh)
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
        return self._writer.pending(self)

    def is_pending(self, chat_id: int) -> bool:
        return self._writer.is_pending(chat_id)

    def finished(self) -> list[SwitchOutcome]:
        """The background summaries written (or failed) since the last call, each reported once."""
        return self._writer.finished(self)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the background summaries are written; False if `timeout` ran out first."""
        return self._writer.wait(self, timeout)

    def skip(self) -> list[Workspace]:
        """Give up the background summaries (they are written the next time those workspaces are left)."""
        return self._writer.skip(self)
