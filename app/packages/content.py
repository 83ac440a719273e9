"""What a package says, built from the stored calculation records only: the cover, the revision table, the index
and one sheet per calculation. Nothing here comes from the model's answers; the inputs are the arguments the
tools ran with, and everything else is what the tools returned and the store kept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from app.packages.concrete_drawings import interaction_drawing, section_drawing
from app.packages.diagrams import Drawing, beam_drawings
from app.packages.records import Calculation
from app.presentation.calculation import PresentedCalculation, PresentedCheck, present
from domain.packages import ProjectDetails, RevisionStatus, SheetEntry

LONGEST_TEXT = 2_000  # characters of a question or an input shown; the record keeps the rest
LONGEST_INDEX_QUESTION = 110


class CheckRow(BaseModel):
    name: str
    value: str
    limit: str  # with the value's relation to it: "≤ 378.7 kip·ft"
    ratio: str
    status: str  # "OK" or "NG"
    clause: str
    governs: bool = False


class Sheet(BaseModel):
    """One calculation: the question, inputs, formula, substitution, results, checks, reference and diagrams."""

    number: int
    key: str
    tool: str
    asked: str  # "2026-11-22 14:05 UTC by A. Engineer"
    question: str
    index_question: str
    inputs: list[tuple[str, str]]
    warnings: list[str] = []
    formula: str = ""
    substituted: str = ""
    results: list[tuple[str, str, str]] = []  # name, value, full precision
    checks: list[CheckRow] = []
    reference: str = ""
    notes: list[str] = []
    output: str = ""  # a tool without a calculation record: its result as it returned it
    drawings: list[Drawing] = []
    verdict: str = ""  # "NG" if any check fails, "OK" if all pass, "" without checks
    verdict_line: str = ""  # "OK for bolt shear and tension only"
    not_checked: list[str] = []
    pictures: list[str] = []  # the question's pictures, by their file names in the typesetter's folder

    @property
    def entry(self) -> SheetEntry:
        return SheetEntry(key=self.key, title=f"{self.number}. {self.tool}")


class Signature(BaseModel):
    role: str  # "Prepared by", "Checked by", "Approved by"
    name: str
    date: str
    note: str = ""


class RevisionLine(BaseModel):
    letter: str
    date: str
    status: str
    changes: str
    checked: str
    approved: str


class PackageContent(BaseModel):
    """Everything the typesetter needs, as plain text and numbers."""

    workspace: str
    details: ProjectDetails
    letter: str
    status: RevisionStatus
    label: str  # "Revision A — draft"
    date: str
    signatures: list[Signature]
    revisions: list[RevisionLine]
    sheets: list[Sheet]
    digest: str
    notes: list[str] = []


def clipped(text: str, limit: int = LONGEST_TEXT) -> str:
    """`text`, or its first `limit` characters and a note of how much more the record keeps."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]} … [{len(text) - limit:,} more characters, kept in the workspace's record]"


def sheet(number: int, item: Calculation, people: Mapping[str, str] | None = None) -> Sheet:
    """The sheet of one calculation, from its stored record."""
    turn, call, record = item.turn, item.call, item.record
    question = " ".join(turn.user.split())
    fields: dict[str, Any] = {}
    if record is None:
        fields["output"] = clipped(call.output)
    else:
        shown = present(record)
        fields = {
            "warnings": list(shown.warnings),
            "formula": shown.formula,
            "substituted": shown.substituted,
            "results": [(item.name, item.value, item.precise) for item in shown.results],
            "checks": [_check(check) for check in shown.checks],
            "reference": shown.reference,
            "notes": list(shown.notes),
            "drawings": drawings(shown),
            "verdict": shown.verdict or "",
            "verdict_line": shown.verdict_line,
            "not_checked": list(shown.not_checked),
        }
    return Sheet(
        number=number,
        key=item.key,
        tool=call.name,
        asked=f"{(turn.created_at or '')[:16]} UTC" + (f" by {_shown(turn.asked_by, people)}" if turn.asked_by else ""),
        question=clipped(turn.user.strip()),
        index_question=clipped(question, LONGEST_INDEX_QUESTION),
        pictures=[image.file_name for image in turn.images],
        inputs=[(name, clipped(_argument(value))) for name, value in call.arguments.items()],
        **fields,
    )


def drawings(shown: PresentedCalculation) -> list[Drawing]:
    """A beam's shear and moment, a column's interaction diagram and a concrete section, those the record has."""
    found = beam_drawings(shown.diagram) if shown.diagram else []
    if shown.interaction:
        found.append(interaction_drawing(shown.interaction))
    if shown.section:
        found.append(section_drawing(shown.section))
    return found


def _argument(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _check(check: PresentedCheck) -> CheckRow:
    return CheckRow(
        name=check.name,
        value=check.value,
        limit=f"{check.relation} {check.limit}",
        ratio=check.ratio,
        status=check.status,
        clause=check.clause,
        governs=check.governs,
    )


def _shown(name: str, people: Mapping[str, str] | None) -> str:
    return people.get(name, name) if people else name


def preparers(found: list[Calculation]) -> list[str]:
    """Who asked for the calculations, in the order they first did (names as recorded at the time)."""
    names: dict[str, None] = {}
    for item in found:
        if item.turn.asked_by:
            names.setdefault(item.turn.asked_by, None)
    return list(names)
