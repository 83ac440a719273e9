"""The package desk: a workspace's package as PDF, its sign-off, its project details, and recognising a PDF
that was issued. The service's package methods delegate here.

Who signs is passed in by the face (`Signer`: ENGINEER_NAME today, the signed-in user once accounts exist).
Each sign-off step is handed to `audit`, the seam where the audit trail will record it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime

from app.packages.content import Sheet, Signature, preparers, sheet
from app.packages.records import Calculation, package_calculations, records_digest
from app.packages.rendering import package_content
from app.packages.revisions import CurrentRevision, current_revision
from app.packages.signoff import refusal
from app.packages.typeset import render_pdf
from app.ports import PackageRecords
from domain.issued import IssuedMatch
from domain.packages import (
    SIGNOFF_STEPS,
    PackageRevision,
    ProjectDetails,
    RevisionStatus,
    SheetEntry,
    Signer,
    SignoffStep,
)
from domain.records import Workspace

_LETTER = re.compile(r"^[A-Z]{1,3}$")
LONGEST_DETAIL = 500


class SignoffError(ValueError):
    """A sign-off step that may not be taken now; the message says why."""


@dataclass(frozen=True)
class SignoffRecord:
    """One sign-off step, as the audit trail will keep it."""

    chat_id: int
    letter: str
    step: SignoffStep
    who: Signer
    at: str
    note: str
    sha256: str | None = None


AuditTrail = Callable[[SignoffRecord], None]


@dataclass(frozen=True)
class PackagePdf:
    """A revision's PDF: the frozen bytes of an approved one, or a draft (or checked) one made now."""

    data: bytes
    letter: str
    status: RevisionStatus
    sha256: str

    @property
    def issued(self) -> bool:
        return self.status == "approved"


@dataclass(frozen=True)
class PackageStatus:
    """Where a workspace's package stands, and which sign-off steps `who` may take now (and why not the others)."""

    letter: str
    status: RevisionStatus
    label: str
    calculations: int
    revisions: list[PackageRevision]
    allowed: tuple[SignoffStep, ...]
    refusals: dict[SignoffStep, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Records:
    """The workspace's calculations as a package sees them, without the records themselves."""

    entries: list[SheetEntry]
    preparers: list[str]
    digest: str
    failed: int


def now_utc() -> datetime:
    return datetime.now(UTC)


class PackageDesk:
    """Packages of the workspaces in one store."""

    def __init__(self, store: PackageRecords, audit: AuditTrail | None = None, clock: Callable[[], datetime] = now_utc):
        self._store = store
        self.audit = audit
        self._clock = clock
        self._seen: dict[int, tuple[tuple[int, int, int], _Records]] = {}

    # Reading ---------------------------------------------------------------------------------

    def _calculations(self, chat_id: int) -> tuple[list[Calculation], _Records]:
        fingerprint = self._store.calculation_fingerprint(chat_id)
        found, failed = package_calculations(self._store.iter_turns(chat_id))
        entries = [
            SheetEntry(key=item.key, title=f"{number}. {item.call.name}") for number, item in enumerate(found, 1)
        ]
        records = _Records(entries, preparers(found), records_digest(found), failed)
        self._seen[chat_id] = (fingerprint, records)
        return found, records

    def _records(self, chat_id: int) -> _Records:
        """The records' digest and entries, read again only when the workspace's turns changed."""
        seen = self._seen.get(chat_id)
        if seen is not None and seen[0] == self._store.calculation_fingerprint(chat_id):
            return seen[1]
        return self._calculations(chat_id)[1]

    def _chat(self, chat_id: int) -> Workspace:
        chat = self._store.get_chat(chat_id)
        if chat is None:
            raise LookupError(f"There is no workspace with id {chat_id}.")
        return chat

    def _current(self, chat_id: int, records: _Records) -> tuple[CurrentRevision, list[PackageRevision]]:
        revisions = self._store.package_revisions(chat_id)
        return current_revision(revisions, records.digest, self._store.project_details(chat_id)), revisions

    def status(self, chat_id: int, who: Signer) -> PackageStatus:
        self._chat(chat_id)
        records = self._records(chat_id)
        current, revisions = self._current(chat_id, records)
        refusals = {
            step: why
            for step in SIGNOFF_STEPS
            if (why := refusal(step, who, current, records.preparers, len(records.entries), "")) is not None
        }
        allowed = tuple(step for step in SIGNOFF_STEPS if step not in refusals)
        return PackageStatus(current.letter, current.status, current.label, len(records.entries), revisions, allowed,
                             refusals)  # fmt: skip

    def details(self, chat_id: int) -> ProjectDetails:
        return self._store.project_details(chat_id)

    def set_details(self, chat_id: int, details: ProjectDetails) -> ProjectDetails:
        """Store the workspace's project details (each field on one line, at most 500 characters)."""
        self._chat(chat_id)
        cleaned = {name: " ".join(str(value).split()) for name, value in details.model_dump().items()}
        for name, value in cleaned.items():
            if len(value) > LONGEST_DETAIL:
                raise ValueError(
                    f"The {name.replace('_', ' ')} may be at most {LONGEST_DETAIL} characters; it has {len(value):,}."
                )
        stored = ProjectDetails.model_validate(cleaned)
        self._store.set_project_details(chat_id, stored)
        return stored

    def verify(self, data: bytes, viewer: int | None = None) -> IssuedMatch | None:
        """The issued revision whose PDF is exactly `data`, if any, in a workspace user `viewer` may see (None:
        any)."""
        return self._store.find_issued(hashlib.sha256(data).hexdigest(), viewer=viewer)

    def unit_of_work(self) -> AbstractContextManager[None]:
        """The store's unit of work: a change and its audit record in one transaction."""
        return self._store.unit_of_work()

    # The PDF ---------------------------------------------------------------------------------

    def pdf(self, chat_id: int, letter: str | None = None) -> PackagePdf:
        """The current revision's PDF, or revision `letter` as issued (its frozen bytes)."""
        chat = self._chat(chat_id)
        if letter is not None:
            return self._issued(chat_id, letter)
        found, records = self._calculations(chat_id)
        current, revisions = self._current(chat_id, records)
        if current.status == "approved":
            return self._issued(chat_id, current.letter)
        data = self._render(chat, found, records, current, revisions)
        return PackagePdf(data, current.letter, current.status, hashlib.sha256(data).hexdigest())

    def _issued(self, chat_id: int, letter: str) -> PackagePdf:
        wanted = letter.strip().upper()
        if not _LETTER.match(wanted):
            raise ValueError(f"A revision is named by its letter, such as A or B; {letter.strip()[:20]!r} is not one.")
        data = self._store.issued_pdf(chat_id, wanted)
        if data is not None:
            return PackagePdf(data, wanted, "approved", hashlib.sha256(data).hexdigest())
        current, revisions = self._current(chat_id, self._records(chat_id))
        if wanted == current.letter:
            raise LookupError(
                f"Revision {wanted} is not issued yet ({current.status}); the current revision can be written "
                "as a draft without a letter."
            )
        issued = ", ".join(r.letter for r in revisions if r.status == "approved") or "none yet"
        raise LookupError(f"There is no issued revision {wanted} of this package (issued: {issued}).")

    def _render(
        self,
        chat: Workspace,
        found: list[Calculation],
        records: _Records,
        current: CurrentRevision,
        revisions: list[PackageRevision],
    ) -> bytes:
        people = {user.name: user.shown_as for user in self._store.list_users() if user.display_name}
        sheets: list[Sheet] = [sheet(number, item, people) for number, item in enumerate(found, 1)]
        when = self._clock()
        content = package_content(
            chat, self._store.project_details(chat.chat_id), current, revisions, sheets, records.digest,
            self._prepared(found, people), records.failed, when, people,
        )  # fmt: skip
        return render_pdf(content, when, self._pictures(chat.chat_id, found))

    def _pictures(self, chat_id: int, found: list[Calculation]) -> dict[str, bytes]:
        """The pictures asked with the calculations' questions, by file name (each once)."""
        pictures: dict[str, bytes] = {}
        for item in found:
            for image in item.turn.images:
                if image.file_name not in pictures and (data := self._store.turn_image(chat_id, image.image_id)):
                    pictures[image.file_name] = data
        return pictures

    @staticmethod
    def _prepared(found: list[Calculation], people: Mapping[str, str]) -> Signature:
        """Who asked for the calculations, by the names packages show for them ("Prepared by Ann Smith")."""
        names = [people.get(name, name) for name in preparers(found)]
        last = max((item.turn.created_at or "" for item in found), default="")
        return Signature(role="Prepared by", name=", ".join(names) or "not recorded", date=last[:10] or "—")

    # Sign-off --------------------------------------------------------------------------------

    def sign_off(self, chat_id: int, step: SignoffStep, who: Signer, note: str = "") -> str:
        """Check or approve the current revision as `who`; SignoffError says why not."""
        chat = self._chat(chat_id)
        note = " ".join(note.split())
        found, records = self._calculations(chat_id)
        current, revisions = self._current(chat_id, records)
        why = refusal(step, who, current, records.preparers, len(found), note)
        if why is not None:
            raise SignoffError(why)
        at = self._clock().strftime("%Y-%m-%d %H:%M:%S")
        if step == "checked":
            with self._store.unit_of_work():
                checked = self._checked(chat, current, records, who, at, note)
                self._recorded(SignoffRecord(chat_id, checked.letter, step, who, at, note))
            return f"Revision {checked.letter} checked by {checked.checked_by}; it is ready for approval."
        return self._approve(chat, found, records, current, revisions, who, at, note)

    def _checked(
        self, chat: Workspace, current: CurrentRevision, records: _Records, who: Signer, at: str, note: str
    ) -> PackageRevision:
        chat_id = chat.chat_id
        return self._store.record_check(
            PackageRevision(
                revision_id=0,
                chat_id=chat_id,
                letter=current.letter,
                status="checked",
                workspace_name=chat.chat_name,
                records_digest=records.digest,
                details=self._store.project_details(chat_id),
                sheets=records.entries,
                checked_by=who.name.strip(),
                checked_at=at,
                checked_note=note,
            )  # fmt: skip
        )

    def _approve(
        self,
        chat: Workspace,
        found: list[Calculation],
        records: _Records,
        current: CurrentRevision,
        revisions: list[PackageRevision],
        who: Signer,
        at: str,
        note: str,
    ) -> str:
        assert current.stored is not None  # the rules allow approval only of a checked revision
        approved = current.stored.model_copy(
            update={
                "status": "approved",
                "workspace_name": chat.chat_name,
                "approved_by": who.name.strip(),
                "approved_at": at,
                "approved_note": note,
            }
        )
        issuing = CurrentRevision(current.letter, "approved", stored=approved, previous=current.previous)
        data = self._render(chat, found, records, issuing, revisions)
        digest = hashlib.sha256(data).hexdigest()
        with self._store.unit_of_work():
            if not self._store.record_approval(approved, data, digest):
                raise SignoffError(f"Revision {current.letter} was approved meanwhile (in another window).")
            self._recorded(SignoffRecord(chat.chat_id, current.letter, "approved", who, at, note, digest))
        return f"Revision {current.letter} approved by {approved.approved_by}; issued with SHA-256 {digest}."

    def _recorded(self, record: SignoffRecord) -> None:
        if self.audit is not None:
            self.audit(record)
