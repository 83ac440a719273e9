"""The store's calculation packages: each workspace's project details and the revisions signed off.

A revision row appears when a revision is checked and becomes approved once; the
approval writes the PDF's bytes and SHA-256 in the same statement that moves the
row from checked to approved, so two approvals at once cannot both win.
"""

from __future__ import annotations

import json
from typing import Any

from domain.packages import PackageRevision, ProjectDetails, SheetEntry
from store.issued import IssuedRevisions
from store.sql import timestamp

_REVISION_COLUMNS = """id AS revision_id, chat_id, letter, status, workspace_name, records_digest, details, sheets,
    checked_by, checked_at, checked_note, approved_by, approved_at, approved_note, sha256"""


def _revision(row: Any) -> PackageRevision:
    fields = dict(row)
    fields["details"] = ProjectDetails.model_validate_json(fields["details"])
    fields["sheets"] = [SheetEntry.model_validate(entry) for entry in json.loads(fields["sheets"])]
    return PackageRevision.model_validate(fields)


class PackageStore(IssuedRevisions):
    """Project details and package revisions, per workspace."""

    def project_details(self, chat_id: int) -> ProjectDetails:
        """The workspace's project details (all empty until someone fills them in)."""
        with self._query() as db:
            row = db.execute(
                "SELECT project_name, project_number, client, description FROM project_details WHERE chat_id = ?",
                (chat_id,),
            ).fetchone()
        return ProjectDetails.model_validate(dict(row)) if row is not None else ProjectDetails()

    def set_project_details(self, chat_id: int, details: ProjectDetails) -> None:
        with self._write() as db:
            db.execute(
                """INSERT INTO project_details (chat_id, project_name, project_number, client, description, updated_at)
                   VALUES (:chat_id, :project_name, :project_number, :client, :description, :now)
                   ON CONFLICT (chat_id) DO UPDATE SET project_name = :project_name, project_number = :project_number,
                       client = :client, description = :description, updated_at = :now""",
                {"chat_id": chat_id, "now": timestamp(), **details.model_dump()},
            )

    def package_revisions(self, chat_id: int) -> list[PackageRevision]:
        """The workspace's signed revisions, A first (the PDFs' bytes are read with `issued_pdf`)."""
        with self._read() as db:
            rows = db.execute(
                f"SELECT {_REVISION_COLUMNS} FROM package_revisions WHERE chat_id = ? ORDER BY id",  # noqa: S608
                (chat_id,),
            ).fetchall()
        return [_revision(row) for row in rows]

    def record_check(self, revision: PackageRevision) -> PackageRevision:
        """Store `revision` as checked: a new row, or the same letter checked again (it was not approved)."""
        fields = revision.model_dump(exclude={"revision_id", "approved_by", "approved_at", "approved_note", "sha256"})
        fields["details"] = revision.details.model_dump_json()
        fields["sheets"] = json.dumps([entry.model_dump() for entry in revision.sheets], ensure_ascii=False)
        with self._write() as db:
            row = db.execute(
                f"""INSERT INTO package_revisions (chat_id, letter, status, workspace_name, records_digest, details,
                                                  sheets, checked_by, checked_at, checked_note)
                    VALUES (:chat_id, :letter, 'checked', :workspace_name, :records_digest, :details, :sheets,
                            :checked_by, :checked_at, :checked_note)
                    ON CONFLICT (chat_id, letter) DO UPDATE SET workspace_name = :workspace_name,
                        records_digest = :records_digest, details = :details, sheets = :sheets,
                        checked_by = :checked_by, checked_at = :checked_at, checked_note = :checked_note
                        WHERE package_revisions.status = 'checked'
                    RETURNING {_REVISION_COLUMNS}""",  # noqa: S608 - fixed columns
                fields,
            ).fetchone()
        if row is None:
            raise ValueError(f"Revision {revision.letter} was approved meanwhile; it cannot be checked again.")
        return _revision(row)

    def record_approval(self, approved: PackageRevision, pdf: bytes, sha256: str) -> bool:
        """Approve a checked revision and freeze its PDF; False when it was no longer checked (approved elsewhere)."""
        with self._write() as db:
            changed = db.execute(
                """UPDATE package_revisions SET status = 'approved', workspace_name = ?, approved_by = ?,
                       approved_at = ?, approved_note = ?, pdf = ?, sha256 = ?
                   WHERE id = ? AND status = 'checked'""",
                (
                    approved.workspace_name,
                    approved.approved_by,
                    approved.approved_at,
                    approved.approved_note,
                    pdf,
                    sha256,
                    approved.revision_id,
                ),
            ).rowcount
        return changed == 1

    def issued_pdf(self, chat_id: int, letter: str) -> bytes | None:
        """The frozen bytes of an approved revision, exactly as approved."""
        with self._query() as db:
            row = db.execute(
                "SELECT pdf FROM package_revisions WHERE chat_id = ? AND letter = ? AND status = 'approved'",
                (chat_id, letter),
            ).fetchone()
        return bytes(row[0]) if row is not None else None

    def calculation_fingerprint(self, chat_id: int) -> tuple[int, int, int]:
        """What changes whenever the workspace's turns do (one added, replaced or cleared): the newest turn's id,
        how many there are and how many were replaced. Turns are otherwise never changed."""
        with self._query() as db:
            row = db.execute(
                """SELECT COALESCE(MAX(id), 0), COUNT(*),
                          COALESCE(SUM(CASE WHEN status = 'superseded' THEN 1 ELSE 0 END), 0)
                   FROM history WHERE chat_id = ?""",
                (chat_id,),
            ).fetchone()
        return int(row[0]), int(row[1]), int(row[2])
