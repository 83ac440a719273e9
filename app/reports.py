"""A workspace as documents: the calculation report, the whole record in Markdown, the calculation package as
PDF, and a backup of every workspace. Nothing is written over the chat history's own files, and a file appears
complete or not at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from app.exports import report_pieces, workspace_pieces
from app.packages import PackageDesk, PackagePdf, PackageStatus
from app.ports import ReportRecords
from domain.packages import IssuedMatch, ProjectDetails, Signer, SignoffStep
from domain.records import Workspace
from tools.atomic_files import write_atomically

ExportKind = Literal["calculations", "workspace"]


class Reports:
    """The calculation report and the Markdown export of a workspace, written a batch of turns at a time."""

    def __init__(self, store: ReportRecords, exports_dir: Path) -> None:
        self._store = store
        self.exports_dir = exports_dir

    def markdown(self, chat_id: int) -> str:
        """The whole workspace as Markdown: its summary, then every turn with its tool calls (joined in memory;
        `write_export` writes a workspace of any length in constant memory)."""
        return "".join(self.markdown_pieces(chat_id))

    def report(self, chat_id: int) -> str:
        """Every calculation of the workspace, in order, as Markdown (joined in memory; see `write_report`)."""
        return "".join(self.report_pieces(chat_id))

    def markdown_pieces(self, chat_id: int) -> Iterator[str]:
        """The Markdown export in pieces, read from the store a batch of turns at a time."""
        return workspace_pieces(self._chat(chat_id), self._store.iter_turns(chat_id))

    def report_pieces(self, chat_id: int) -> Iterator[str]:
        """The calculation report in pieces, read from the store a batch of turns at a time."""
        return report_pieces(self._chat(chat_id), self._store.iter_turns(chat_id), self._store.turn_models(chat_id))

    def write_report(self, chat_id: int, path: Path) -> Path:
        """Write the calculation report to `path`: beside it first, then put in its place."""
        self.refuse_store_file(path, "report")
        write_atomically(path, self.report_pieces(chat_id))
        return path

    def write_export(self, chat_id: int, path: Path) -> Path:
        """Write the whole workspace as Markdown to `path`, as `write_report` writes the report."""
        self.refuse_store_file(path, "export")
        write_atomically(path, self.markdown_pieces(chat_id))
        return path

    def default_path(self, chat_id: int, kind: ExportKind) -> Path:
        """Where a report (`calculations`) or an export (`workspace`) goes without a file name: EXPORTS_DIR,
        made if missing, as `calculations-<id>.md` or `workspace-<id>.md` (the full path, to tell the user)."""
        self.exports_dir.mkdir(parents=True, exist_ok=True)
        return (self.exports_dir / f"{kind}-{chat_id}.md").absolute()

    def backup(self, path: Path) -> Path:
        """Copy every workspace into a new SQLite file (SQLite's online backup; writing may go on)."""
        self._store.backup(path)
        return path

    def refuse_store_file(self, path: Path, what: str) -> None:
        """PermissionError when `path` is one of the chat history's own files."""
        if self._store.owns(path):
            raise PermissionError(f"{path} is a file of the chat history itself; choose another file for the {what}")

    def _chat(self, chat_id: int) -> Workspace:
        chat = self._store.get_chat(chat_id)
        if chat is None:
            raise LookupError(f"There is no workspace with id {chat_id}.")
        return chat


class Packages:
    """Calculation packages: the PDF of each revision, sign-off, project details, and recognising issued PDFs."""

    def __init__(self, desk: PackageDesk, reports: Reports, engineer: str = "") -> None:
        self._desk = desk
        self._reports = reports
        self.engineer = engineer.strip()  # ENGINEER_NAME: who asks (the preparer) and who signs, until accounts

    def signer(self) -> Signer:
        """Who signs from this face: ENGINEER_NAME (a face with accounts passes the signed-in user instead)."""
        return Signer(name=self.engineer)

    def status(self, chat_id: int, who: Signer) -> PackageStatus:
        """The package's current revision, its signed revisions, and the sign-off steps `who` may take now."""
        return self._desk.status(chat_id, who)

    def pdf(self, chat_id: int, revision: str | None = None) -> PackagePdf:
        """The current revision as PDF (an approved one as frozen), or issued `revision` (such as "B") as issued."""
        return self._desk.pdf(chat_id, revision)

    def write(self, chat_id: int, path: Path, revision: str | None = None) -> PackagePdf:
        """Write `pdf` to `path` (complete or not at all; never over the chat history's files)."""
        self._reports.refuse_store_file(path, "package")
        package = self._desk.pdf(chat_id, revision)
        write_atomically(path, package.data)
        return package

    def sign_off(self, chat_id: int, step: SignoffStep, who: Signer, note: str = "") -> str:
        """Check or approve the current revision as `who`; `SignoffError` says in a sentence why not."""
        return self._desk.sign_off(chat_id, step, who, note)

    def project_details(self, chat_id: int, details: ProjectDetails | None = None) -> ProjectDetails:
        """The project details on the workspace's cover sheet; with `details`, store those first."""
        return self._desk.details(chat_id) if details is None else self._desk.set_details(chat_id, details)

    def verify(self, data: bytes) -> IssuedMatch | None:
        """The issued revision a PDF's bytes are exactly, if any."""
        return self._desk.verify(data)
