"""The audit trail as the application writes and reads it: who did what, in which workspace, when.

Each part that acts for a user hands what happened to its `AuditTrail`, made for that user when the
application was opened for them; the store chains the records (`store.audit`). Details never carry a
password or a key: what a part passes is its own wording, and secrets never reach it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from app.ports import AuditRecords, WorkspaceRecords
from domain.accounts import AuditRecord, ChainCheck
from domain.records import ToolCall

SERVER_OWNER = "(server)"  # who acts in the commands run on the server itself, with no sign-in
DETAIL_LENGTH = 2000


class AuditStore(AuditRecords, WorkspaceRecords, Protocol):
    """What the audit trail needs of the store: its records, and the workspaces' names."""


def digest(text: str) -> str:
    """The SHA-256 of a text, as the audit trail shows a tool's result."""
    return hashlib.sha256(text.encode()).hexdigest()


def tool_call_detail(call: ToolCall) -> str:
    """A tool call as the trail keeps it: its name, its arguments, the digest of its result."""
    arguments = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True, default=str)
    return f"{call.name} {arguments[:DETAIL_LENGTH]} result sha256 {digest(call.output)}"


def iso_to_store_time(text: str) -> str:
    """An ISO-8601 time (a date, or a date and time with or without a zone; no zone means UTC) in the store's
    time format; ValueError says what is expected."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO-8601 time; write it as 2026-05-01 or 2026-05-01T09:30.") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")


class AuditTrail:
    """Append records in the name of one user (or the server's owner), read them filtered, check the chain."""

    def __init__(
        self, store: AuditStore, actor: str, may_read: Callable[[str], None] | None = None, kept: bool = True
    ) -> None:
        self._store = store
        self.actor = actor
        self._may_read = may_read  # raises unless the actor may read the trail (admins, the server's owner)
        self.kept = kept  # False: one person's application without accounts, whose use is not recorded

    def acting_as(self, actor: str) -> AuditTrail:
        """The same trail, in another's name (a user who has just signed in)."""
        return AuditTrail(self._store, actor, self._may_read, self.kept)

    def record(
        self, action: str, chat_id: int | None = None, detail: str = "", workspace_name: str | None = None
    ) -> None:
        """Append one record (inside the caller's unit of work, when one is open); the workspace's name is kept as
        it is now (the record outlives a deleted one)."""
        if not self.kept:
            return
        if workspace_name is None and chat_id is not None:
            chat = self._store.get_chat(chat_id)
            workspace_name = chat.chat_name if chat is not None else None
        self._store.append_audit(self.actor, action, chat_id, workspace_name, detail[:DETAIL_LENGTH])

    def records(
        self, user: str | None = None, chat_id: int | None = None, since: str | None = None, limit: int = 10_000
    ) -> list[AuditRecord]:
        """Records, oldest first: of one user (by name), of one workspace (by id), from an ISO-8601 time; only an
        admin (or the server's owner) reads them, ForbiddenError for anyone else."""
        if self._may_read is not None:
            self._may_read("read the audit trail")
        return self._store.audit_records(user, chat_id, iso_to_store_time(since) if since else None, limit)

    def verify(self, from_checked: bool = False) -> ChainCheck:
        """Whether the chain is intact, or the first record that is not: all of it, or (`from_checked`) the records
        after the last one an earlier check found intact (a page looked at often)."""
        if self._may_read is not None:
            self._may_read("check the audit trail")
        return self._store.verify_audit(from_checked)


def record_as_json(record: AuditRecord) -> dict[str, Any]:
    """A record as one JSON object of `audit --json` (and the web app's CSV)."""
    return record.model_dump()
