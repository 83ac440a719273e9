"""The calculation package at the prompt: `/report FILE.pdf [REV]`, `/signoff`, `/revisions` and `/project`.

Who signs is ENGINEER_NAME, as the service was started with it (`service.packages.signer()`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from app import Application
from domain.packages import SIGNOFF_STEPS, PackageRevision
from faces.cli.terminal import printable

_REVISION = re.compile(r"[A-Za-z]{1,3}")
PROJECT_FIELDS = {"name": "project_name", "number": "project_number", "client": "client", "description": "description"}
HELP = """  /report FILE.pdf [REV]  write the calculation package as PDF: the current revision, or REV as issued
  /signoff checked|approved [NOTE]  sign the current revision off as ENGINEER_NAME
  /revisions         the package's revisions, with the SHA-256 of each issued PDF
  /project [name|number|client|description TEXT]  the project details on the package's cover"""


def report_arguments(argument: str) -> tuple[str, str | None]:
    """ "calcs.pdf B" → ("calcs.pdf", "B"); anything else is the file name alone."""
    head, _, last = argument.rpartition(" ")
    if head.strip().lower().endswith(".pdf") and _REVISION.fullmatch(last):
        return head.strip(), last.upper()
    return argument, None


class PackageCommands:
    """The package's commands, for the current workspace of `service`."""

    def __init__(self, service: Application, say: Callable[[str], None], current: Callable[[str], int]) -> None:
        self.service, self.say, self.current = service, say, current

    def commands(self) -> dict[str, Callable[[str], None]]:
        return {"/signoff": self.signoff, "/revisions": self.revisions, "/project": self.project}

    def write_pdf(self, path: Path, revision: str | None) -> None:
        package = self.service.packages.write(self.current("write a package of"), path, revision)
        if package.issued:
            self.say(f"Wrote revision {package.letter} as issued to {path} (SHA-256 {package.sha256}).")
        else:
            self.say(f"Wrote revision {package.letter} of the calculation package ({package.status}) to {path}.")

    def signoff(self, argument: str) -> None:
        word, _, note = argument.strip().partition(" ")
        step = next((step for step in SIGNOFF_STEPS if step == word.lower()), None)
        if step is None:
            raise ValueError("Use /signoff checked [NOTE] or /signoff approved [NOTE].")
        chat_id = self.current("sign off")
        self.say(printable(self.service.packages.sign_off(chat_id, step, self.service.packages.signer(), note)))

    def revisions(self, _: str) -> None:
        status = self.service.packages.status(self.current("list the revisions of"), self.service.packages.signer())
        for revision in status.revisions:
            stale = revision.status == "checked" and status.status == "draft"
            self.say(printable(self._line(revision, stale)))
        if status.status != "approved":
            count = status.calculations
            self.say(printable(f"* {status.label} · {count} calculation{'s' * (count != 1)}"))
        if status.allowed:
            steps = " or ".join(f"/signoff {step}" for step in status.allowed)
            self.say(f"You ({printable(self.service.packages.engineer)}) may sign it off now: {steps}.")
        elif status.refusals:
            self.say(printable(next(iter(status.refusals.values()))))

    @staticmethod
    def _line(revision: PackageRevision, stale: bool) -> str:
        checked = f"checked by {revision.checked_by} {revision.checked_at[:16]}"
        if revision.status == "approved":
            return (
                f"  {revision.letter}  approved by {revision.approved_by} {(revision.approved_at or '')[:16]} · "
                f"{checked}\n     SHA-256 {revision.sha256}"
            )
        return f"  {revision.letter}  {checked}" + (" (before the latest changes: check it again)" if stale else "")

    def project(self, argument: str) -> None:
        chat_id = self.current("set the project of")
        field, _, text = argument.strip().partition(" ")
        if field:
            if field.lower() not in PROJECT_FIELDS:
                raise ValueError("Use /project name|number|client|description TEXT, or /project to see them.")
            details = self.service.packages.project_details(chat_id)
            changed = details.model_copy(update={PROJECT_FIELDS[field.lower()]: text})
            self.service.packages.project_details(chat_id, changed)
        details = self.service.packages.project_details(chat_id)
        for label, name in PROJECT_FIELDS.items():
            self.say(printable(f"  {label:<12} {getattr(details, name) or '—'}"))
