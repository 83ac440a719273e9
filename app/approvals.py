"""Consent for file edits: the model proposes, the user approves; every applied edit can be undone.

This is the one consent path, for every face and for tests alike. The model's
`edit_file` only proposes (`tools.files`); a proposal is kept in the store and
written only by `EditApprovals.approve`, which a face calls when the user says
yes, or which `propose` calls itself when the user chose `FILE_EDITS=auto`.
With `off`, the application offers no edit tool and refuses any proposal.
Applied edits keep the file's previous bytes, so undo restores them exactly; a
file that tells the model to overwrite something (prompt injection) therefore
cannot change anything unnoticed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access, ForbiddenError
from app.ports import EditRecords
from app.presentation.formatting import shown_name
from app.together.notifications import Notifications
from domain.records import FileEdit, FileEditStatus
from tools.files import MAX_EDIT_BYTES, unified_diff
from tools.registry import ToolContext
from tools.workspace_paths import read_regular, remove_file, resolve_in_workspace, write_in_workspace

FileEditMode = Literal["confirm", "auto", "off"]


def _text(data: bytes | None) -> str:
    return "" if data is None else data.decode("utf-8", errors="replace")


def edit_diff(edit: FileEdit) -> str:
    """The edit as a unified diff."""
    return unified_diff(_text(edit.before), _text(edit.after), edit.path)


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _current_bytes(context: ToolContext, name: str) -> bytes | None:
    """The file's bytes now (enough to tell whether it is as the edit expects), read without following a link."""
    return read_regular(context, name, MAX_EDIT_BYTES + 1)


@dataclass(frozen=True)
class WorkspaceApprover:
    """The approver the tools get for one turn: proposals land in the workspace the question was asked in."""

    approvals: EditApprovals
    chat_id: int

    def submit(self, context: ToolContext, name: str, before: bytes | None, after: bytes) -> str:
        return self.approvals.propose(self.chat_id, name, before, after)


class EditApprovals:
    """Proposed, applied, rejected and undone edits of every workspace, decided only here."""

    def __init__(
        self,
        store: EditRecords,
        context: ToolContext,
        mode: FileEditMode,
        can_ask: bool = True,
        access: Access | None = None,
        audit: AuditTrail | None = None,
        notifications: Notifications | None = None,
    ) -> None:
        self.store = store
        self.context = context
        self.mode = mode
        self.can_ask = can_ask  # False: nobody can be asked (the protocol server), so FILE_EDITS=confirm refuses
        self._access = access
        self._audit = audit
        self._notifications = notifications  # the user whose question proposed an edit is told it waits for them

    def for_workspace(self, chat_id: int) -> WorkspaceApprover | None:
        """What to put in the tools' context for a turn in `chat_id` (None when edits are off)."""
        return None if self.mode == "off" else WorkspaceApprover(self, chat_id)

    def propose(self, chat_id: int, name: str, before: bytes | None, after: bytes) -> str:
        """Keep the model's edit as a proposal (applied at once only under FILE_EDITS=auto); text for the model."""
        if self.mode == "off":
            raise PermissionError("file edits are switched off (FILE_EDITS=off)")
        if self.mode == "confirm" and not self.can_ask:
            raise PermissionError(
                "file edits need the user's approval (FILE_EDITS=confirm), which cannot be asked for over this "
                "connection; the file was not changed. Make the edit in the web app or the command line"
            )
        with self.store.unit_of_work():  # the turn that proposes it was checked when it was asked
            edit_id = self.store.add_file_edit(chat_id, name, before, after, "proposed", self._proposer)
            self._record("file edit proposed", chat_id, name)
            if self.mode == "confirm" and self._notifications is not None:
                self._notifications.edit_waiting(chat_id, edit_id, name, self._proposer)
        diff = unified_diff(_text(before), _text(after), name)
        if self.mode == "auto":
            self.approve(chat_id, edit_id)
            done = "Created" if before is None else "Edited"
            return f"{done} {name} (the user can undo it):\n{diff}"
        return (
            f"Proposed edit #{edit_id} to {name}. It is NOT applied: the user will see this diff and approve or "
            f"reject it. Tell them briefly what it changes.\n{diff}"
        )

    def pending(self, chat_id: int) -> list[FileEdit]:
        return self.store.file_edits(chat_id, "proposed") if self._sees(chat_id) else []

    def has_applied(self, chat_id: int) -> bool:
        """Whether the workspace has an applied edit that undo could take back."""
        return self._sees(chat_id) and bool(self.store.file_edits(chat_id, "applied"))

    def _sees(self, chat_id: int) -> bool:
        return self._access is None or self._access.sees(chat_id)

    def approve(self, chat_id: int, edit_id: int) -> str:
        """Apply a proposed edit if the file is still as it was when the edit was proposed."""
        self._may_change(chat_id, "approve a file edit in")
        edit = self._edit(chat_id, edit_id, "proposed")
        target = resolve_in_workspace(self.context, edit.path)
        if _digest(_current_bytes(self.context, edit.path)) != _digest(edit.before):
            with self.store.unit_of_work():
                self.store.set_file_edit_status(edit_id, "rejected", "proposed")
                self._decided(chat_id, edit_id)
            raise ValueError(
                f"{shown_name(edit.path)} changed after the edit was proposed, so it was not applied; ask again."
            )
        self._record("file edit approved", chat_id, f"edit {edit_id}: {edit.path}")  # before the file is written
        write_in_workspace(self.context, target, edit.after, edit.path)
        with self.store.unit_of_work():
            self.store.set_file_edit_status(edit_id, "applied", "proposed")
            self._decided(chat_id, edit_id)
        return f"Applied the edit to {shown_name(edit.path)}."

    def reject(self, chat_id: int, edit_id: int) -> str:
        self._may_change(chat_id, "reject a file edit in")
        edit = self._edit(chat_id, edit_id, "proposed")
        with self.store.unit_of_work():
            self.store.set_file_edit_status(edit_id, "rejected", "proposed")
            self._record("file edit rejected", chat_id, f"edit {edit_id}: {edit.path}")
            self._decided(chat_id, edit_id)
        return f"Rejected the edit to {shown_name(edit.path)}; the file was not changed."

    def undo_last(self, chat_id: int) -> str:
        """Put back the bytes from before the workspace's last applied edit (or remove a created file)."""
        self._may_change(chat_id, "undo a file edit in")
        applied = self.store.file_edits(chat_id, "applied")
        if not applied:
            raise LookupError("There is no applied file edit to undo in this workspace.")
        edit = applied[-1]
        target = resolve_in_workspace(self.context, edit.path)
        if _digest(_current_bytes(self.context, edit.path)) != _digest(edit.after):
            raise ValueError(f"{shown_name(edit.path)} changed after the edit, so undoing it would lose those changes.")
        if edit.before is None:
            remove_file(self.context, target, edit.path)
        else:
            write_in_workspace(self.context, target, edit.before, edit.path)
        with self.store.unit_of_work():
            self.store.set_file_edit_status(edit.edit_id, "undone", "applied")
            self._record("file edit undone", chat_id, f"edit {edit.edit_id}: {edit.path}")
        return f"Undid the edit to {shown_name(edit.path)}; it is back as it was."

    @property
    def _proposer(self) -> str | None:
        """Who asks in this application (with accounts): the edits their questions propose are theirs to decide."""
        user = self._access.user if self._access is not None else None
        return user.name if user is not None else None

    def may_decide(self, edit: FileEdit) -> bool:
        """Whether this user decides `edit`: the one whose question proposed it (anyone, without accounts)."""
        return edit.proposed_by is None or self._proposer is None or edit.proposed_by == self._proposer

    def _may_change(self, chat_id: int, what: str) -> None:
        if self._access is not None:
            self._access.change(chat_id, what)

    def _decided(self, chat_id: int, edit_id: int) -> None:
        if self._notifications is not None:
            self._notifications.edit_decided(chat_id, edit_id)

    def _record(self, action: str, chat_id: int, detail: str) -> None:
        if self._audit is not None:
            self._audit.record(action, chat_id, detail)

    def _edit(self, chat_id: int, edit_id: int, status: FileEditStatus) -> FileEdit:
        edit = self.store.get_file_edit(edit_id)
        if edit is None or edit.chat_id != chat_id:
            raise LookupError(f"There is no edit #{edit_id} in this workspace.")
        if edit.status != status:
            raise ValueError(f"Edit #{edit_id} is already {edit.status}.")
        if status == "proposed" and not self.may_decide(edit):
            if self._access is not None:
                self._access.denied(f"decide edit {edit_id}, proposed by {edit.proposed_by}", chat_id)
            raise ForbiddenError(
                f"Edit #{edit_id} waits for {edit.proposed_by}: their question proposed it, so they decide it."
            )
        return edit
