"""The sign-off rules: who may check or approve which revision, each refusal one sentence.

A package moves draft → checked → approved. Checking needs a name (ENGINEER_NAME,
later the signed-in user) that is not among those who asked for the calculations;
approving needs a check that still covers the records. A viewer signs nothing.
Approval is final: what follows starts the next revision.
"""

from __future__ import annotations

from app.packages.revisions import CurrentRevision, next_letter
from domain.packages import Signer, SignoffStep

LONGEST_NOTE = 1_000


def same_person(first: str, second: str) -> bool:
    """Names compared as people write them: case and spacing aside."""
    return " ".join(first.split()).casefold() == " ".join(second.split()).casefold()


def refusal(
    step: SignoffStep, who: Signer, current: CurrentRevision, prepared_by: list[str], calculations: int, note: str
) -> str | None:
    """Why `who` may not take `step` on the current revision now, or None when they may."""
    if not who.name.strip():
        return "Signing off needs your name: set ENGINEER_NAME (in .env or the environment) and start the app again."
    if who.role == "viewer":
        return f"{who.name} may view this workspace but not sign it off; ask an engineer to sign it."
    if calculations == 0:
        return "This workspace has no calculations to sign off yet; ask for one first."
    if len(note) > LONGEST_NOTE:
        return f"A sign-off note may be at most {LONGEST_NOTE:,} characters; this one has {len(note):,}."
    stored = current.stored
    if current.status == "approved" and stored is not None:
        return (
            f"Revision {current.letter} is already approved (by {stored.approved_by}, "
            f"{(stored.approved_at or '')[:10]}); "
            f"a new calculation or a change to the project details starts revision {next_letter(current.letter)}."
        )
    if step == "checked":
        return _check_refusal(who, current, prepared_by)
    return _approval_refusal(current)


def _check_refusal(who: Signer, current: CurrentRevision, prepared_by: list[str]) -> str | None:
    if current.status == "checked" and current.stored is not None:
        return (
            f"Revision {current.letter} is already checked (by {current.stored.checked_by}, "
            f"{current.stored.checked_at[:10]}); it is ready for approval."
        )
    if any(same_person(who.name, name) for name in prepared_by):
        return (
            f"{who.name} prepared calculations in revision {current.letter}, and the checker may not be the "
            "preparer; another engineer must check it."
        )
    return None


def _approval_refusal(current: CurrentRevision) -> str | None:
    if current.status == "checked":
        return None
    if current.stale_check is not None:
        return (
            f"The calculations or project details changed after {current.stale_check.checked_by} checked revision "
            f"{current.letter}; it must be checked again before it is approved."
        )
    return f"Revision {current.letter} is a draft: it must be checked before it is approved."
