"""A workspace as documents: the calculation report, the whole record in Markdown (its pictures written beside it,
in a folder of their own), and a backup of every workspace. Nothing is written over the chat history's own files,
and a file appears complete or not at all."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.ports import ReportRecords
from app.reports.exports import report_pieces, workspace_pieces
from domain.records import Turn
from tools.atomic_files import write_atomically

ExportKind = Literal["calculations", "workspace"]


class Reports:
    """The calculation report and the Markdown export of a workspace the user may read, written a batch of turns at
    a time, each recorded; a backup of everything, for admins."""

    def __init__(self, store: ReportRecords, exports_dir: Path, access: Access, audit: AuditTrail) -> None:
        self._store = store
        self.exports_dir = exports_dir
        self._access = access
        self._audit = audit

    def markdown(self, chat_id: int) -> str:
        """The whole workspace as Markdown: its summary, then every turn with its tool calls (joined in memory;
        `write_export` writes a workspace of any length in constant memory)."""
        return "".join(self.markdown_pieces(chat_id))

    def report(self, chat_id: int) -> str:
        """Every calculation of the workspace, in order, as Markdown (joined in memory; see `write_report`)."""
        return "".join(self.report_pieces(chat_id))

    def markdown_pieces(self, chat_id: int, pictures: Path | None = None) -> Iterator[str]:
        """The Markdown export in pieces, read from the store a batch of turns at a time; with `pictures`, each
        turn's pictures are written into that folder as the turn is, and linked by file name (else described)."""
        chat = self._access.read(chat_id, "export")
        self._audit.record("export", chat_id, workspace_name=chat.chat_name)
        turns = self._store.iter_turns(chat_id)
        if pictures is None:
            return workspace_pieces(chat, turns)
        return workspace_pieces(chat, self._with_pictures(turns, pictures), pictures.name)

    def report_pieces(self, chat_id: int) -> Iterator[str]:
        """The calculation report in pieces, read from the store a batch of turns at a time."""
        chat = self._access.read(chat_id, "report")
        self._audit.record("report", chat_id, workspace_name=chat.chat_name)
        return report_pieces(chat, self._store.iter_turns(chat_id), self._store.turn_models(chat_id))

    def write_report(self, chat_id: int, path: Path) -> Path:
        """Write the calculation report to `path`: beside it first, then put in its place."""
        self.refuse_store_file(path, "report")
        write_atomically(path, self.report_pieces(chat_id))
        return path

    def write_export(self, chat_id: int, path: Path) -> Path:
        """Write the whole workspace as Markdown to `path`, as `write_report` writes the report; its pictures go in
        the folder `<name>-images` beside it, each linked by file name."""
        self.refuse_store_file(path, "export")
        write_atomically(path, self.markdown_pieces(chat_id, path.with_name(f"{path.stem}-images")))
        return path

    def _with_pictures(self, turns: Iterable[Turn], folder: Path) -> Iterator[Turn]:
        """The turns, each one's pictures written into `folder` (made when the first comes) before it is given."""
        for turn in turns:
            for image in turn.images:
                data = self._store.turn_image(turn.chat_id, image.image_id)
                if data is None:  # its turn was cleared meanwhile
                    continue
                folder.mkdir(exist_ok=True)
                self.refuse_store_file(folder / image.file_name, "picture")
                write_atomically(folder / image.file_name, data)
            yield turn

    def default_path(self, chat_id: int, kind: ExportKind) -> Path:
        """Where a report (`calculations`) or an export (`workspace`) goes without a file name: EXPORTS_DIR,
        made if missing, as `calculations-<id>.md` or `workspace-<id>.md` (the full path, to tell the user)."""
        self.exports_dir.mkdir(parents=True, exist_ok=True)
        return (self.exports_dir / f"{kind}-{chat_id}.md").absolute()

    def backup(self, path: Path) -> Path:
        """Copy every workspace into a new SQLite file (SQLite's online backup; writing may go on); admins only."""
        self._access.admin("back up every workspace")
        self._store.backup(path)
        self._audit.record("backup", detail=str(path))
        return path

    def refuse_store_file(self, path: Path, what: str) -> None:
        """PermissionError when `path` is one of the chat history's own files."""
        if self._store.owns(path):
            raise PermissionError(f"{path} is a file of the chat history itself; choose another file for the {what}")
