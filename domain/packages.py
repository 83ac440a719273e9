"""Records of calculation packages: a workspace's project details and the revisions signed off.

A revision is stored once it is checked; approving it stores the PDF's bytes and
their SHA-256, which every later download of that revision returns.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

SignoffStep = Literal["checked", "approved"]
SIGNOFF_STEPS: tuple[SignoffStep, ...] = ("checked", "approved")
RevisionStatus = Literal["draft", "checked", "approved"]
Role = Literal["engineer", "viewer"]


class Signer(BaseModel):
    """Who signs: the name in ENGINEER_NAME today; the signed-in user, with the role of their account, later."""

    model_config = ConfigDict(frozen=True)

    name: str
    role: Role = "engineer"


class ProjectDetails(BaseModel):
    """The project a workspace's package is for, as its cover sheet shows it."""

    model_config = ConfigDict(frozen=True)

    project_name: str = ""
    project_number: str = ""
    client: str = ""
    description: str = ""


class SheetEntry(BaseModel):
    """One calculation of an issued revision, as the next revision's table of changes names it."""

    key: str  # "<turn id>:<position>": the stored tool call it was rendered from
    title: str


class PackageRevision(BaseModel):
    """A revision that was signed: checked, or approved and frozen (its PDF bytes stored apart)."""

    revision_id: int
    chat_id: int
    letter: str
    status: Literal["checked", "approved"]
    workspace_name: str  # as the cover sheet printed it when approved (or checked)
    records_digest: str  # SHA-256 of the calculation records it was checked (and approved) on
    details: ProjectDetails
    sheets: list[SheetEntry]
    checked_by: str
    checked_at: str
    checked_note: str = ""
    approved_by: str | None = None
    approved_at: str | None = None
    approved_note: str = ""
    sha256: str | None = None  # of the approved PDF's bytes
