"""A workspace as documents: the calculation report, the whole record in Markdown, the calculation package as
PDF, and a backup of every workspace. Nothing is written over the chat history's own files, and a file appears
complete or not at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from app.access import Access
from app.audit_trail import AuditTrail
from app.exports import report_pieces, workspace_pieces
from app.packages import PackageDesk, PackagePdf, PackageStatus
from app.ports import ReportRecords
from domain.packages import IssuedMatch, ProjectDetails, Signer, SignoffStep
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

    def markdown_pieces(self, chat_id: int) -> Iterator[str]:
        """The Markdown export in pieces, read from the store a batch of turns at a time."""
        chat = self._access.read(chat_id, "export")
        self._audit.record("export", chat_id, workspace_name=chat.chat_name)
        return workspace_pieces(chat, self._store.iter_turns(chat_id))

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
        """Copy every workspace into a new SQLite file (SQLite's online backup; writing may go on); admins only."""
        self._access.admin("back up every workspace")
        self._store.backup(path)
        self._audit.record("backup", detail=str(path))
        return path

    def refuse_store_file(self, path: Path, what: str) -> None:
        """PermissionError when `path` is one of the chat history's own files."""
        if self._store.owns(path):
            raise PermissionError(f"{path} is a file of the chat history itself; choose another file for the {what}")


class Packages:
    """Calculation packages of the workspaces the user may read: the PDF of each revision, sign-off where they may
    change (as the signed-in user, with accounts), project details, and recognising issued PDFs."""

    def __init__(self, desk: PackageDesk, reports: Reports, engineer: str, access: Access, audit: AuditTrail) -> None:
        self._desk = desk
        self._reports = reports
        self.engineer = engineer.strip()  # who asks (the preparer) and who signs: the user, or ENGINEER_NAME
        self._access = access
        self._audit = audit

    def signer(self) -> Signer:
        """Who signs from this face: the signed-in user, or ENGINEER_NAME without accounts."""
        return Signer(name=self.engineer)

    def status(self, chat_id: int, who: Signer) -> PackageStatus:
        """The package's current revision, its signed revisions, and the sign-off steps `who` may take now."""
        self._access.read(chat_id, "read the package of")
        return self._desk.status(chat_id, who)

    def pdf(self, chat_id: int, revision: str | None = None) -> PackagePdf:
        """The current revision as PDF (an approved one as frozen), or issued `revision` (such as "B") as issued."""
        chat = self._access.read(chat_id, "download the package of")
        package = self._desk.pdf(chat_id, revision)
        self._audit.record("package", chat_id, f"revision {revision or 'current'} as PDF", chat.chat_name)
        return package

    def write(self, chat_id: int, path: Path, revision: str | None = None) -> PackagePdf:
        """Write `pdf` to `path` (complete or not at all; never over the chat history's files)."""
        self._reports.refuse_store_file(path, "package")
        package = self.pdf(chat_id, revision)
        write_atomically(path, package.data)
        return package

    def sign_off(self, chat_id: int, step: SignoffStep, who: Signer, note: str = "") -> str:
        """Check or approve the current revision as `who` (with accounts, always the signed-in user);
        `SignoffError` says in a sentence why not."""
        self._access.change(chat_id, "sign off the package of")
        signer = self.signer() if self._access.checks else who
        return self._desk.sign_off(chat_id, step, signer, note)

    def project_details(self, chat_id: int, details: ProjectDetails | None = None) -> ProjectDetails:
        """The project details on the workspace's cover sheet; with `details`, store those first."""
        if details is None:
            self._access.read(chat_id, "read the project details of")
            return self._desk.details(chat_id)
        chat = self._access.change(chat_id, "set the project details of")
        with self._desk.unit_of_work():
            stored = self._desk.set_details(chat_id, details)
            self._audit.record("project details", chat_id, stored.model_dump_json(), chat.chat_name)
        return stored

    def verify(self, data: bytes) -> IssuedMatch | None:
        """The issued revision a PDF's bytes are exactly, if any, among the workspaces the user may see."""
        return self._desk.verify(data, viewer=self._access.viewer)
