"""Which revision a workspace's package is at, and what changed from the revision issued before it.

A revision is A until it is approved; after that, new or changed calculations (or
project details) start the next letter: A, B, …, Z, AA, AB, … . Until approval a
revision is a draft, or checked while the records it was checked on are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.packages import PackageRevision, ProjectDetails, RevisionStatus, SheetEntry


def next_letter(letter: str) -> str:
    """A → B, Z → AA, AZ → BA: the revision after `letter`."""
    digits = [ord(char) - ord("A") for char in letter]
    position = len(digits) - 1
    while position >= 0 and digits[position] == 25:
        digits[position] = 0
        position -= 1
    if position < 0:
        return "A" * (len(letter) + 1)
    digits[position] += 1
    return "".join(chr(ord("A") + digit) for digit in digits)


@dataclass(frozen=True)
class CurrentRevision:
    """The revision a download gives now, and what it is built on."""

    letter: str
    status: RevisionStatus
    stored: PackageRevision | None = None  # its row, while the check (or the approval) still covers the records
    stale_check: PackageRevision | None = None  # a check made before the records last changed
    previous: PackageRevision | None = None  # the last approved revision before it

    @property
    def label(self) -> str:
        """ "Revision A — draft", "Revision A — checked", "Revision A"."""
        return f"Revision {self.letter}" + ("" if self.status == "approved" else f" — {self.status}")


def current_revision(revisions: Sequence[PackageRevision], digest: str, details: ProjectDetails) -> CurrentRevision:
    """The revision the records `digest` and the project `details` make now, given the signed `revisions`."""
    if not revisions:
        return CurrentRevision("A", "draft")
    last = revisions[-1]
    unchanged = last.records_digest == digest and last.details == details
    approved = [revision for revision in revisions if revision.status == "approved"]
    if last.status == "approved":
        if unchanged:
            return CurrentRevision(last.letter, "approved", stored=last, previous=_before(approved, last))
        return CurrentRevision(next_letter(last.letter), "draft", previous=last)
    previous = approved[-1] if approved else None
    if unchanged:
        return CurrentRevision(last.letter, "checked", stored=last, previous=previous)
    return CurrentRevision(last.letter, "draft", stale_check=last, previous=previous)


def _before(approved: list[PackageRevision], revision: PackageRevision) -> PackageRevision | None:
    index = approved.index(revision)
    return approved[index - 1] if index > 0 else None


def changes(sheets: Sequence[SheetEntry], details: ProjectDetails, previous: PackageRevision | None) -> str:
    """What a revision holds against the one issued before it, in a sentence for the revision table."""
    count = f"{len(sheets)} calculation{'s' * (len(sheets) != 1)}"
    if previous is None:
        return f"First issue: {count}."
    before = {entry.key for entry in previous.sheets}
    now = {entry.key for entry in sheets}
    parts = []
    if added := [entry.title for entry in sheets if entry.key not in before]:
        parts.append("added " + ", ".join(added))
    if removed := [entry.title for entry in previous.sheets if entry.key not in now]:
        parts.append(f"removed (numbered as in revision {previous.letter}) " + ", ".join(removed))
    if details != previous.details:
        parts.append("project details changed")
    said = "; ".join(parts) if parts else "no change to the calculations"
    return f"{said[0].upper()}{said[1:]}; {count}."
