"""A turn stored however it ends: finishing the running turn stored when it was asked, naming a new workspace by its
first answered question, with its tool calls in the audit trail and its event for the webhooks, in one transaction;
and, when the database is away, kept by the store until it is back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from app.accounts.audit_trail import AuditTrail, tool_call_detail
from app.ports import TurnRecords
from app.webhooks import Webhooks
from app.workspaces.workspaces import DEFAULT_WORKSPACE_NAME, name_from_message
from domain.events import StopReason, TurnCompleted
from domain.records import CleanImage, FinishedTurn, TurnStatus
from store import HistoryError

T = TypeVar("T")

_TURN_STATUS: dict[StopReason, TurnStatus] = {
    "end_turn": "complete",
    "max_tool_rounds": "complete",
    "stopped": "stopped",
    "error": "error",
}


async def written_to_the_end(write: Callable[[], T], done: Callable[[T], None]) -> T:
    """`write` on a worker thread (a commit waits for the disk or the database server, and the event loop meanwhile
    streams the other turns it serves); cut off meanwhile, the write still ends, and `done` is told what it wrote
    whenever it succeeded, so that the caller knows what was stored."""
    writing = asyncio.ensure_future(asyncio.to_thread(write))
    try:
        return await asyncio.shield(writing)
    finally:
        await asyncio.wait([writing])
        if not writing.cancelled() and writing.exception() is None:
            done(writing.result())


class TurnRecorder:
    """Stores one view's turns: as asked by `asked_by` (the preparer of their calculations)."""

    def __init__(self, store: TurnRecords, audit: AuditTrail, webhooks: Webhooks | None, asked_by: str) -> None:
        self._store = store
        self._audit = audit
        self._webhooks = webhooks  # told of each turn stored, in its transaction
        self._asked_by = asked_by.strip()

    def record(
        self,
        chat_id: int,
        question: str,
        completed: TurnCompleted,
        running_id: int | None = None,
        images: tuple[CleanImage, ...] = (),
    ) -> int:
        """Store a finished (or stopped, or failed) turn with its pictures, finishing the running turn `running_id`
        stored when it was asked; the first answered message names a new workspace.

        A turn that failed (Ollama down, an empty answer) names nothing: the workspace keeps its default name until a
        question is answered.
        """
        with self._store.unit_of_work():
            self._named(chat_id, question, completed)
            turn_id = self._store.store_turn(self._finished(chat_id, question, completed, running_id, images))
            if self._webhooks is not None:
                self._webhooks.turn_completed(chat_id, turn_id, question, completed)
            for call in completed.tool_calls:
                self._audit.record("tool call", chat_id, tool_call_detail(call))
        return turn_id

    def kept(
        self, chat_id: int, question: str, completed: TurnCompleted, running: int, images: tuple[CleanImage, ...]
    ) -> None:
        """Store a turn that did not end as it should; if the database is away, the store keeps it and stores it
        as soon as the database is back (the face says what happened meanwhile), and HistoryError says so."""
        try:
            self.record(chat_id, question, completed, running, images)
        except HistoryError:
            self._store.store_turn_when_back(self._finished(chat_id, question, completed, running, images))
            raise

    def _named(self, chat_id: int, question: str, completed: TurnCompleted) -> None:
        """The first answered message names a workspace that still has the default name."""
        answered = completed.stop_reason != "error" and bool(completed.content.strip())
        chat = self._store.get_chat(chat_id) if answered else None
        if (
            chat is not None
            and chat.chat_name == DEFAULT_WORKSPACE_NAME
            and not self._store.has_answered_turns(chat_id)
        ):
            self._store.rename_chat(chat_id, name_from_message(question))

    def _finished(
        self,
        chat_id: int,
        question: str,
        completed: TurnCompleted,
        running_id: int | None,
        images: tuple[CleanImage, ...] = (),
    ) -> FinishedTurn:
        return FinishedTurn(
            chat_id=chat_id,
            user=question,
            assistant=completed.content,
            tool_calls=tuple(completed.tool_calls),
            status=_TURN_STATUS[completed.stop_reason],
            model=completed.model,
            prompt_tokens=completed.usage.prompt_tokens,
            completion_tokens=completed.usage.completion_tokens,
            duration_ms=completed.duration_ms,
            error=completed.error,
            thinking=completed.thinking,
            asked_by=self._asked_by or None,
            running_id=running_id,
            images=images,
        )
