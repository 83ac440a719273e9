"""Consent for file edits: the model proposes, the user approves; every applied edit can be undone.

`FILE_EDITS=confirm` (the default) keeps each edit the model asks for as a
proposal until the user approves it; `auto` applies it at once; `off` removes
the edit tool. Applied edits keep the file's previous bytes in the store, so
undo restores them exactly. A file that tells the model to overwrite something
(prompt injection) therefore cannot change anything unnoticed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

from core.records import FileEdit
from history import ChatHistoryDB
from tools.files import unified_diff
from tools.registry import ToolContext
from tools.workspace_paths import resolve_in_workspace, write_atomically

FileEditMode = Literal["confirm", "auto", "off"]


def _text(data: bytes | None) -> str:
    return "" if data is None else data.decode("utf-8", errors="replace")


def edit_diff(edit: FileEdit) -> str:
    """The edit as a unified diff."""
    return unified_diff(_text(edit.before), _text(edit.after), edit.path)


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _current_bytes(target: Path) -> bytes | None:
    return target.read_bytes() if target.is_file() else None


class FileEditGate:
    """The `edit_file` tool's handler for one workspace at a time (set `chat_id` when it changes)."""

    def __init__(self, db: ChatHistoryDB, workspace_root: Path, mode: FileEditMode = "confirm") -> None:
        self.db = db
        self.context = ToolContext(workspace_root=workspace_root, edits=self)
        self.mode = mode
        self.chat_id: int | None = None

    def submit(self, context: ToolContext, name: str, before: bytes | None, after: bytes) -> str:
        """Called by `edit_file` (in a worker thread): apply now, or keep as a proposal."""
        if self.chat_id is None:
            raise ValueError("there is no workspace to record the edit in")
        if self.mode == "off":
            raise PermissionError("file edits are switched off (FILE_EDITS=off)")
        diff = unified_diff(_text(before), _text(after), name)
        if self.mode == "auto":
            write_atomically(context, resolve_in_workspace(context, name), after, name)
            self.db.add_file_edit(self.chat_id, name, before, after, "applied")
            return f"Edited {name} (the user can undo it):\n{diff}"
        edit_id = self.db.add_file_edit(self.chat_id, name, before, after, "proposed")
        return (
            f"Proposed edit #{edit_id} to {name}. It is NOT applied: the user will see this diff and approve or "
            f"reject it. Tell them briefly what it changes.\n{diff}"
        )

    def pending(self) -> list[FileEdit]:
        return self.db.file_edits(self.chat_id, "proposed") if self.chat_id is not None else []

    def approve(self, edit_id: int) -> str:
        """Apply a proposed edit if the file is still as it was when the edit was proposed."""
        edit = self._edit(edit_id, "proposed")
        target = resolve_in_workspace(self.context, edit.path)
        if _digest(_current_bytes(target)) != _digest(edit.before):
            self.db.set_file_edit_status(edit_id, "rejected", "proposed")
            raise ValueError(f"{edit.path} changed after the edit was proposed, so it was not applied; ask again")
        write_atomically(self.context, target, edit.after, edit.path)
        self.db.set_file_edit_status(edit_id, "applied", "proposed")
        return f"Applied the edit to {edit.path}."

    def reject(self, edit_id: int) -> str:
        edit = self._edit(edit_id, "proposed")
        self.db.set_file_edit_status(edit_id, "rejected", "proposed")
        return f"Rejected the edit to {edit.path}; the file was not changed."

    def undo_last(self) -> str:
        """Put back the bytes from before the workspace's last applied edit (or remove a created file)."""
        applied = self.db.file_edits(self.chat_id, "applied") if self.chat_id is not None else []
        if not applied:
            raise LookupError("there is no applied file edit to undo in this workspace")
        edit = applied[-1]
        target = resolve_in_workspace(self.context, edit.path)
        if _digest(_current_bytes(target)) != _digest(edit.after):
            raise ValueError(f"{edit.path} changed after the edit, so undoing it would lose those changes")
        if edit.before is None:
            target.unlink()
        else:
            write_atomically(self.context, target, edit.before, edit.path)
        self.db.set_file_edit_status(edit.edit_id, "undone", "applied")
        return f"Undid the edit to {edit.path}; it is back as it was."

    def _edit(self, edit_id: int, status: str) -> FileEdit:
        edit = self.db.get_file_edit(edit_id)
        if edit is None or edit.chat_id != self.chat_id:
            raise LookupError(f"there is no edit #{edit_id} in this workspace")
        if edit.status != status:
            raise ValueError(f"edit #{edit_id} is already {edit.status}")
        return edit
