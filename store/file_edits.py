"""The store's file-edit table: proposals, decisions and the bytes kept for undo."""

from __future__ import annotations

from domain.records import FileEdit, FileEditStatus
from store.base import StoreBase
from store.sql import timestamp

_COLUMNS = "id AS edit_id, chat_id, path, before, after, status, created_at, decided_at, proposed_by"


class FileEditStore(StoreBase):
    """File edits of each workspace, in the order they were asked for."""

    def add_file_edit(
        self,
        chat_id: int,
        path: str,
        before: bytes | None,
        after: bytes,
        status: FileEditStatus,
        proposed_by: str | None = None,
    ) -> int:
        """Record an edit (proposed, or already applied), with who asked the question that proposed it; its id."""
        now = timestamp()
        with self._write() as db:
            row = db.execute(
                """INSERT INTO file_edits (chat_id, path, before, after, status, created_at, decided_at, proposed_by)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
                (chat_id, path, before, after, status, now, None if status == "proposed" else now, proposed_by),
            ).fetchone()
        return int(row[0])

    def get_file_edit(self, edit_id: int) -> FileEdit | None:
        with self._read() as db:
            row = db.execute(f"SELECT {_COLUMNS} FROM file_edits WHERE id = ?", (edit_id,)).fetchone()  # noqa: S608
        return FileEdit.model_validate(dict(row)) if row else None

    def file_edits(self, chat_id: int, status: FileEditStatus | None = None) -> list[FileEdit]:
        """A workspace's edits, oldest first, optionally only those with `status`."""
        only = "" if status is None else "AND status = ?"
        with self._read() as db:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM file_edits WHERE chat_id = ? {only} ORDER BY id",  # noqa: S608
                (chat_id,) if status is None else (chat_id, status),
            ).fetchall()
        return [FileEdit.model_validate(dict(row)) for row in rows]

    def set_file_edit_status(self, edit_id: int, status: FileEditStatus, expected: FileEditStatus) -> bool:
        """Move an edit from `expected` to `status`; False if it was not in `expected` (decided elsewhere)."""
        with self._write() as db:
            changed = db.execute(
                "UPDATE file_edits SET status = ?, decided_at = ? WHERE id = ? AND status = ?",
                (status, timestamp(), edit_id, expected),
            ).rowcount
        return changed == 1
