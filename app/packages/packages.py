"""The calculation packages part of the application: the PDF of each revision, sign-off, project details and
recognising issued PDFs, for the workspaces the user may read (`PackageDesk` does the work)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.packages.desk import PackageDesk, PackagePdf, PackageStatus, SignoffError
from app.reports.reports import Reports
from domain.issued import IssuedMatch
from domain.packages import ProjectDetails, Signer, SignoffStep
from store import HistoryError
from tools.atomic_files import write_atomically


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
        chat = self._access.change(chat_id, "sign off the package of")
        signer = self.signer() if self._access.checks else who
        try:
            return self._desk.sign_off(chat_id, step, signer, note)
        except SignoffError as refused:
            self._audit.record(f"package {step} refused", chat_id, f"{signer.name}: {refused}", chat.chat_name)
            raise
        except HistoryError as failed:
            with contextlib.suppress(HistoryError):  # the store may be what failed: the attempt is kept if it can be
                self._audit.record(f"package {step} failed", chat_id, f"{signer.name}: {failed}", chat.chat_name)
            raise HistoryError(f"The package was not {step}: {failed}") from None

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
