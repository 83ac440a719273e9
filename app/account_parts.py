"""The parts of the application that act for a signed-in user: each checks the user's access before it acts
and records what it did in the audit trail, then does what the part does for one person.

The store they read is already the user's (`app.guarded_store`); these add what the store cannot see: a
question asked (and the user's fair share of turns), each tool call, a file edit approved before its file
is written, an export or report, a sign-off.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Iterator
from pathlib import Path
from typing import Any

from app.access import Access
from app.approvals import EditApprovals
from app.audit_trail import AuditTrail, tool_call_detail
from app.document_pages import PageImage
from app.document_uploads import IfExists
from app.documents import DocumentLibrary, IndexProgress
from app.packages import PackagePdf, PackageStatus
from app.reports import Packages, Reports
from app.turns import Consent, Turns
from app.user_turns import UserTurns
from domain.events import AgentEvent, TurnCompleted
from domain.packages import Signer, SignoffStep
from domain.records import DocumentFile


class AccountTurns(Turns):
    """Turns asked by one user: only where they may ask, at most MAX_TURNS_PER_USER at once, each recorded."""

    def __init__(self, *args: Any, access: Access, audit: AuditTrail, user_turns: UserTurns, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._access = access
        self._audit = audit
        self._user_turns = user_turns

    def ask(
        self, question: str, chat_id: int | None = None, regenerate: bool = False, consent: Consent | None = None
    ) -> AsyncGenerator[AgentEvent, None]:
        target = chat_id if chat_id is not None else self._workspaces.ensure_current().chat_id
        self._access.change(target, "ask")
        events = super().ask(question, target, regenerate, consent)
        self._audit.record("ask", target, question)
        return self._in_turn(events)

    async def _in_turn(self, events: AsyncGenerator[AgentEvent, None]) -> AsyncGenerator[AgentEvent, None]:
        user = self._audit.actor
        try:
            async for waiting in self._user_turns.waits(user):
                yield waiting
        except BaseException:
            await events.aclose()
            raise
        try:
            async for event in events:
                yield event
        finally:
            await events.aclose()
            self._user_turns.release(user)

    def record(self, chat_id: int, question: str, completed: TurnCompleted, running_id: int | None = None) -> int:
        turn_id = super().record(chat_id, question, completed, running_id)
        for call in completed.tool_calls:
            self._audit.record("tool call", chat_id, tool_call_detail(call))
        return turn_id


class AccountApprovals(EditApprovals):
    """File edits: proposed, approved, rejected and undone only where the user may change, each recorded."""

    def __init__(self, *args: Any, access: Access, audit: AuditTrail, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._access = access
        self._audit = audit

    def propose(self, chat_id: int, name: str, before: bytes | None, after: bytes) -> str:
        said = super().propose(chat_id, name, before, after)
        self._audit.record("file edit proposed", chat_id, name)
        return said

    def approve(self, chat_id: int, edit_id: int) -> str:
        self._access.change(chat_id, "approve a file edit in")
        said = super().approve(chat_id, edit_id)
        self._audit.record("file edit approved", chat_id, f"edit {edit_id}")
        return said

    def reject(self, chat_id: int, edit_id: int) -> str:
        self._access.change(chat_id, "reject a file edit in")
        said = super().reject(chat_id, edit_id)
        self._audit.record("file edit rejected", chat_id, f"edit {edit_id}")
        return said

    def undo_last(self, chat_id: int) -> str:
        self._access.change(chat_id, "undo a file edit in")
        said = super().undo_last(chat_id)
        self._audit.record("file edit undone", chat_id, said)
        return said


class AccountReports(Reports):
    """Exports and reports of what the user may read, each recorded; a backup of everything for admins."""

    def __init__(self, *args: Any, access: Access, audit: AuditTrail, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._access = access
        self._audit = audit

    def markdown_pieces(self, chat_id: int) -> Iterator[str]:
        self._access.read(chat_id)
        self._audit.record("export", chat_id)
        return super().markdown_pieces(chat_id)

    def report_pieces(self, chat_id: int) -> Iterator[str]:
        self._access.read(chat_id)
        self._audit.record("report", chat_id)
        return super().report_pieces(chat_id)

    def backup(self, path: Path) -> Path:
        self._access.admin("back up every workspace")
        done = super().backup(path)
        self._audit.record("backup", detail=str(path))
        return done


class AccountPackages(Packages):
    """Calculation packages of what the user may read; signed off only where they may change, as themselves."""

    def __init__(self, *args: Any, access: Access, audit: AuditTrail, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._access = access
        self._audit = audit

    def status(self, chat_id: int, who: Signer) -> PackageStatus:
        self._access.read(chat_id)
        return super().status(chat_id, who)

    def pdf(self, chat_id: int, revision: str | None = None) -> PackagePdf:
        self._access.read(chat_id)
        package = super().pdf(chat_id, revision)
        self._audit.record("package", chat_id, f"revision {revision or 'current'} as PDF")
        return package

    def sign_off(self, chat_id: int, step: SignoffStep, who: Signer, note: str = "") -> str:
        self._access.change(chat_id, "sign off the package of")
        return super().sign_off(chat_id, step, self.signer(), note)


class AccountDocuments:
    """The office's shared document library as one user uses it: everyone signed in reads and searches it;
    uploading and removing files is for those who may change (not viewers), each recorded."""

    def __init__(self, library: DocumentLibrary, access: Access, audit: AuditTrail) -> None:
        self.library = library
        self._access = access
        self._audit = audit

    @property
    def progress(self) -> IndexProgress:
        return self.library.progress

    @property
    def root(self) -> Path:
        return self.library.root

    @property
    def embedding_problem(self) -> str | None:
        return self.library.embedding_problem

    def refresh(self) -> None:
        self.library.refresh()

    def follow(self) -> None:
        self.library.follow()

    def following(self) -> str | None:
        return self.library.following()

    def close(self) -> None:
        self.library.close()

    def index_wait(self) -> str | None:
        return self.library.index_wait()

    def page_image(self, relative: str, page: int, mark: str = "") -> PageImage:
        return self.library.page_image(relative, page, mark)

    def wait(self, timeout: float | None = None) -> bool:
        return self.library.wait(timeout)

    def files(self) -> list[DocumentFile]:
        return self.library.files()

    def search(self, query: str, top_k: int) -> dict[str, Any]:
        return self.library.search(query, top_k)

    def save_upload(self, name: str, data: bytes, if_exists: IfExists = "ask") -> str:
        self._access.create()
        said = self.library.save_upload(name, data, if_exists)
        self._audit.record("document uploaded", detail=said)
        return said

    def remove(self, relative: str) -> None:
        self._access.create()
        self.library.remove(relative)
        self._audit.record("document removed", detail=relative)
