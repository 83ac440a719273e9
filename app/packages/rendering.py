"""A revision's content: the cover's sign-off lines, the revision table and the statements, around the sheets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from app.packages.content import PackageContent, RevisionLine, Sheet, Signature
from app.packages.revisions import CurrentRevision, changes
from domain.packages import PackageRevision, ProjectDetails
from domain.records import Workspace

STATEMENT = (
    "Every value in this package was computed by the application's tools and is printed from the stored "
    "calculation records, not from the model's answers; the model chose the inputs, so check them against the "
    "drawings before relying on a result."
)
DIGEST_STATEMENT = (
    "The records digest is the SHA-256 of the calculation records this revision was made from (the questions, "
    "who asked them and when, the tools, their inputs and their results); every page's footer carries its first "
    "16 characters."
)


People = Mapping[str, str]  # a user name → the name packages show for that user (their display name)


def _signed(name: str | None, at: str | None, people: People) -> str:
    return f"{people.get(name, name)}, {at[:10]}" if name and at else "—"


def signatures(prepared: Signature, current: CurrentRevision, people: People) -> list[Signature]:
    stored = current.stored
    checked = Signature(role="Checked by", name="—", date="—")
    approved = Signature(role="Approved by", name="—", date="—")
    if stored is not None:
        checked = Signature(
            role="Checked by",
            name=people.get(stored.checked_by, stored.checked_by),
            date=f"{stored.checked_at[:16]} UTC",
            note=stored.checked_note,
        )
        if stored.approved_by and stored.approved_at:
            approved = Signature(
                role="Approved by",
                name=people.get(stored.approved_by, stored.approved_by),
                date=f"{stored.approved_at[:16]} UTC",
                note=stored.approved_note,
            )
    return [prepared, checked, approved]


def revision_lines(
    current: CurrentRevision,
    revisions: Sequence[PackageRevision],
    sheets: Sequence[Sheet],
    details: ProjectDetails,
    today: str,
    people: People,
) -> list[RevisionLine]:
    """One line per issued revision before this one, then this one, each saying what changed."""
    lines = []
    issued = [revision for revision in revisions if revision.status == "approved" and revision.letter != current.letter]
    for number, revision in enumerate(issued):
        before = issued[number - 1] if number else None
        lines.append(
            RevisionLine(
                letter=revision.letter,
                date=(revision.approved_at or "")[:10],
                status="approved",
                changes=changes(revision.sheets, revision.details, before),
                checked=_signed(revision.checked_by, revision.checked_at, people),
                approved=_signed(revision.approved_by, revision.approved_at, people),
            )
        )
    stored = current.stored
    lines.append(
        RevisionLine(
            letter=current.letter,
            date=(stored.approved_at if stored and stored.approved_at else today)[:10],
            status=current.status,
            changes=changes([sheet.entry for sheet in sheets], details, current.previous),
            checked=_signed(stored.checked_by, stored.checked_at, people) if stored else "—",
            approved=_signed(stored.approved_by, stored.approved_at, people) if stored else "—",
        )
    )
    return lines


def package_content(
    chat: Workspace,
    details: ProjectDetails,
    current: CurrentRevision,
    revisions: Sequence[PackageRevision],
    sheets: list[Sheet],
    digest: str,
    prepared: Signature,
    failed: int,
    when: datetime,
    people: People,
) -> PackageContent:
    today = when.strftime("%Y-%m-%d")
    stored = current.stored
    notes = [STATEMENT, DIGEST_STATEMENT]
    if failed:
        notes.append(f"{failed} tool call{'s' * (failed != 1)} that ended in an error {'is' if failed == 1 else 'are'} "
                     "not in the package.")  # fmt: skip
    return PackageContent(
        workspace=chat.chat_name,
        details=details,
        letter=current.letter,
        status=current.status,
        label=current.label,
        date=(stored.approved_at if stored and stored.approved_at else today)[:10],
        signatures=signatures(prepared, current, people),
        revisions=revision_lines(current, revisions, sheets, details, today, people),
        sheets=sheets,
        digest=digest,
        notes=notes,
    )
