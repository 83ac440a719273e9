"""The project's documents as one user's application uses them: the process's shared library, read and searched
by everyone who may use the application, changed (uploads, removals) only by those who may create, each recorded.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.documents.library import DocumentLibrary, IndexProgress
from domain.records import DocumentFile

if TYPE_CHECKING:
    from app.documents.pages import PageImage
    from app.documents.uploads import IfExists


class Documents:
    """The workspace folder's shared document library as one user uses it: everyone signed in reads and searches
    it; uploading and removing files is for those who may change (not viewers), each recorded. The library itself
    is the process's, shared by its users' applications."""

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
        self._access.create("upload a document")
        said = self.library.save_upload(name, data, if_exists)
        self._audit.record("document uploaded", detail=said)
        return said

    def remove(self, relative: str) -> None:
        self._access.create("remove a document")
        self.library.remove(relative)
        self._audit.record("document removed", detail=relative)
