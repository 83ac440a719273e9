"""Calculation packages: a workspace's calculations as a PDF engineers sign, checked and approved, frozen by
revision.

`records` reads the stored calculations (the report's selection), `content` and `rendering` make what the
package says from them, `diagrams` draws the beam diagrams as vector shapes, `typeset` turns it into PDF with
Typst (the only module that imports it) through the template `package.typ`, `revisions` and `signoff` hold the
rules, and `desk` is what the service delegates to.
"""

from __future__ import annotations

from app.packages.desk import AuditTrail, PackageDesk, PackagePdf, PackageStatus, SignoffError, SignoffRecord
from app.packages.typeset import PackageError

__all__ = [
    "AuditTrail",
    "PackageDesk",
    "PackageError",
    "PackagePdf",
    "PackageStatus",
    "SignoffRecord",
    "SignoffError",
]
