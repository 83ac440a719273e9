"""The store as one user sees it: every way the application's parts reach a workspace's data goes through here.

`Application.for_user` hands each part this instead of the store, so the check cannot be forgotten by a
part or a face: lists and searches hold only the workspaces the user may see; reading one they may not
see reads as a missing one (nothing, or the missing sentence); changing one they may only read raises
`ForbiddenError`. The document index is the office's shared library (the folder WORKSPACE_ROOT), read by
every signed-in user. The memory belongs to one person, so with accounts it is off (nothing recalled,
nothing kept). Each method names the port it serves; nothing else of the store is reachable.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from app.access import Access, ForbiddenError
from app.audit_trail import AuditTrail
from app.ports import Store
from domain.packages import IssuedMatch, PackageRevision, ProjectDetails
from domain.records import (
    DocumentFile,
    FileEdit,
    FileEditStatus,
    Memory,
    Passage,
    SearchHit,
    ToolCall,
    Turn,
    TurnStatus,
    Workspace,
)

MEMORY_OFF = (
    "With accounts on, the memory is off (it would be shared by everyone); write what to remember in the question."
)
SEARCHED_AT_ONCE = 10_000  # workspaces' hits read before those the user may not see are left out


class GuardedStore:
    """The store's ports, each checked for one user's `Access`."""

    def __init__(self, store: Store, access: Access, audit: AuditTrail) -> None:
        self._store = store
        self._access = access
        self._audit = audit

    def _sees(self, chat_id: int) -> bool:
        """Whether the user may read `chat_id` (an existing one they may not is recorded as denied)."""
        if self._access.can_read(chat_id):
            return True
        chat = self._store.get_chat(chat_id)
        if chat is not None:
            self._access.denied("read", chat_id, chat.chat_name)
        return False

    # StoreFiles ------------------------------------------------------------------------

    def files(self) -> tuple[Path, ...]:
        return self._store.files()

    def owns(self, path: Path) -> bool:
        return self._store.owns(path)

    def backup(self, target: Path) -> None:
        self._access.admin("back up every workspace")
        self._store.backup(target)

    def check_writable(self) -> None:
        self._store.check_writable()

    def close(self) -> None:
        self._store.close()

    # WorkspaceRecords ------------------------------------------------------------------

    def create_chat(self, chat_name: str) -> int:
        self._access.create()
        chat_id = self._store.create_chat(chat_name)
        if self._access.user is not None:
            self._store.set_owner(chat_id, self._access.user.user_id)
        return chat_id

    def get_chat(self, chat_id: int) -> Workspace | None:
        return self._store.get_chat(chat_id) if self._sees(chat_id) else None

    def find_chat(self, name_or_id: str) -> Workspace | None:
        found = self._store.find_chat(name_or_id)
        if found is not None and self._sees(found.chat_id):
            return found
        wanted = name_or_id.strip().lower()
        return next((chat for chat in self.recent_chats() if chat.chat_name.lower() == wanted), None)

    def find_empty_chat(self, chat_name: str) -> Workspace | None:
        found = self._store.find_empty_chat(chat_name)
        return found if found is not None and self._access.of(found.chat_id) == "owner" else None

    def recent_chats(self, limit: int | None = None) -> list[Workspace]:
        visible = self._access.visible()
        if visible is None:
            return self._store.recent_chats(limit)
        shown = [chat for chat in self._store.recent_chats() if chat.chat_id in visible]
        return shown if limit is None else shown[:limit]

    def list_chats(self) -> list[tuple[int, str, str]]:
        visible = self._access.visible()
        chats = self._store.list_chats()
        return chats if visible is None else [chat for chat in chats if chat[0] in visible]

    def search_chats(self, text: str, limit: int = 20) -> list[SearchHit]:
        visible = self._access.visible()
        if visible is None:
            return self._store.search_chats(text, limit)
        return [hit for hit in self._store.search_chats(text, SEARCHED_AT_ONCE) if hit.chat_id in visible][:limit]

    def rename_chat(self, chat_id: int, new_name: str) -> None:
        self._access.change(chat_id, "rename")
        self._store.rename_chat(chat_id, new_name)

    def delete_chat(self, chat_id: int) -> None:
        chat = self._access.own(chat_id, "delete")
        self._store.delete_chat(chat_id)
        self._audit.record("workspace deleted", chat_id, workspace_name=chat.chat_name)

    def clear_history(self, chat_id: int) -> None:
        self._access.change(chat_id, "clear")
        self._store.clear_history(chat_id)

    def set_chat_agent(self, chat_id: int, agent: str | None) -> None:
        self._access.change(chat_id, "choose the agent of")
        self._store.set_chat_agent(chat_id, agent)

    # TurnRecords -----------------------------------------------------------------------

    def begin_turn(self, chat_id: int, question: str, model: str | None = None, asked_by: str | None = None) -> int:
        self._access.change(chat_id, "ask")
        return self._store.begin_turn(chat_id, question, model, asked_by)

    def add_to_history(
        self,
        chat_id: int,
        user: str,
        assistant: str,
        *,
        tool_calls: Sequence[ToolCall] = (),
        status: TurnStatus = "complete",
        model: str | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
        duration_ms: float | None = None,
        error: str | None = None,
        thinking: str | None = None,
        asked_by: str | None = None,
        running_id: int | None = None,
    ) -> int:
        """A turn begun under the check is stored however it ends, even if the share was taken back meanwhile."""
        if running_id is None:
            self._access.change(chat_id, "ask")
        return self._store.add_to_history(
            chat_id,
            user,
            assistant,
            tool_calls=tool_calls,
            status=status,
            model=model,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            duration_ms=duration_ms,
            error=error,
            thinking=thinking,
            asked_by=asked_by,
            running_id=running_id,
        )

    def get_turns(self, chat_id: int, limit: int | None = None, before_turn_id: int | None = None) -> list[Turn]:
        return self._store.get_turns(chat_id, limit, before_turn_id) if self._sees(chat_id) else []

    def iter_turns(self, chat_id: int, batch: int = 500) -> Iterator[Turn]:
        return self._store.iter_turns(chat_id, batch) if self._sees(chat_id) else iter(())

    def load_recent_history(self, chat_id: int, limit: int) -> list[tuple[str, str]]:
        return self._store.load_recent_history(chat_id, limit) if self._sees(chat_id) else []

    def count_turns(self, chat_id: int) -> int:
        return self._store.count_turns(chat_id) if self._sees(chat_id) else 0

    def has_turns_before(self, chat_id: int, turn_id: int) -> bool:
        return self._sees(chat_id) and self._store.has_turns_before(chat_id, turn_id)

    def has_answered_turns(self, chat_id: int) -> bool:
        return self._sees(chat_id) and self._store.has_answered_turns(chat_id)

    def supersede_turn(self, turn_id: int) -> None:
        """Called only by a turn asked with regenerate, after its workspace was checked for asking."""
        self._store.supersede_turn(turn_id)

    def turn_models(self, chat_id: int) -> list[str]:
        return self._store.turn_models(chat_id) if self._sees(chat_id) else []

    # SummaryRecords (a summary is written for whoever reads the workspace) ---------------

    def claim(self, name: str) -> bool:
        return self._store.claim(name)

    def release(self, name: str) -> None:
        self._store.release(name)

    def count_unsummarised_turns(self, chat_id: int) -> int:
        return self._store.count_unsummarised_turns(chat_id) if self._sees(chat_id) else 0

    def turns_since_summary(self, chat_id: int, limit: int) -> tuple[list[Turn], int]:
        return self._store.turns_since_summary(chat_id, limit) if self._sees(chat_id) else ([], 0)

    def set_context_summary(self, chat_id: int, summary: str | None, through_turn_id: int | None = None) -> None:
        """A summary the model wrote of the turns (through a turn) is kept for whoever reads the workspace; the
        user's own text in its place (or clearing it) is a change."""
        if through_turn_id is None:
            self._access.change(chat_id, "edit the summary of")
        if self._sees(chat_id):
            self._store.set_context_summary(chat_id, summary, through_turn_id)

    # EditRecords -----------------------------------------------------------------------

    def add_file_edit(self, chat_id: int, path: str, before: bytes | None, after: bytes, status: FileEditStatus) -> int:
        self._access.change(chat_id, "propose a file edit in")
        return self._store.add_file_edit(chat_id, path, before, after, status)

    def get_file_edit(self, edit_id: int) -> FileEdit | None:
        edit = self._store.get_file_edit(edit_id)
        return edit if edit is not None and self._sees(edit.chat_id) else None

    def file_edits(self, chat_id: int, status: FileEditStatus | None = None) -> list[FileEdit]:
        return self._store.file_edits(chat_id, status) if self._sees(chat_id) else []

    def set_file_edit_status(self, edit_id: int, status: FileEditStatus, expected: FileEditStatus) -> bool:
        edit = self._store.get_file_edit(edit_id)
        if edit is not None:
            self._access.change(edit.chat_id, f"mark a file edit {status} in")
        return self._store.set_file_edit_status(edit_id, status, expected)

    # DocumentRecords: the office's shared library ---------------------------------------

    def document_files(self) -> list[DocumentFile]:
        return self._store.document_files()

    def save_document(self, file: DocumentFile, passages: Iterable[Passage]) -> None:
        self._store.save_document(file, passages)

    def touch_document(self, path: str, size: int, mtime_ns: int) -> None:
        self._store.touch_document(path, size, mtime_ns)

    def drop_documents(self, paths: Iterable[str]) -> None:
        self._store.drop_documents(paths)

    def search_passages(self, query: str, limit: int) -> list[tuple[Passage, float]]:
        return self._store.search_passages(query, limit)

    def passages_by_id(self, ids: list[int]) -> dict[int, Passage]:
        return self._store.passages_by_id(ids)

    def passages_to_embed(self, model: str, limit: int) -> list[tuple[int, str]]:
        return self._store.passages_to_embed(model, limit)

    def save_embeddings(self, model: str, vectors: Iterable[tuple[int, bytes]]) -> None:
        self._store.save_embeddings(model, vectors)

    def embeddings(self, model: str) -> list[tuple[int, bytes]]:
        return self._store.embeddings(model)

    # MemoryRecords: off with accounts --------------------------------------------------

    def add_memory(self, text: str) -> int:
        raise ForbiddenError(MEMORY_OFF)

    def update_memory(self, memory_id: int, text: str) -> bool:
        raise ForbiddenError(MEMORY_OFF)

    def remove_memory(self, memory_id: int) -> bool:
        raise ForbiddenError(MEMORY_OFF)

    def memories(self, limit: int | None = None) -> list[Memory]:
        return []

    def search_memories(self, query: str, limit: int) -> list[Memory]:
        return []

    # PackageRecords --------------------------------------------------------------------

    def project_details(self, chat_id: int) -> ProjectDetails:
        self._access.read(chat_id)
        return self._store.project_details(chat_id)

    def set_project_details(self, chat_id: int, details: ProjectDetails) -> None:
        self._access.change(chat_id, "set the project details of")
        self._store.set_project_details(chat_id, details)

    def package_revisions(self, chat_id: int) -> list[PackageRevision]:
        return self._store.package_revisions(chat_id) if self._sees(chat_id) else []

    def record_check(self, revision: PackageRevision) -> PackageRevision:
        self._access.change(revision.chat_id, "check the package of")
        return self._store.record_check(revision)

    def record_approval(self, approved: PackageRevision, pdf: bytes, sha256: str) -> bool:
        self._access.change(approved.chat_id, "approve the package of")
        return self._store.record_approval(approved, pdf, sha256)

    def issued_pdf(self, chat_id: int, letter: str) -> bytes | None:
        return self._store.issued_pdf(chat_id, letter) if self._sees(chat_id) else None

    def find_issued(self, sha256: str) -> IssuedMatch | None:
        found = self._store.find_issued(sha256)
        return found if found is not None and self._sees(found.chat_id) else None

    def calculation_fingerprint(self, chat_id: int) -> tuple[int, int, int]:
        return self._store.calculation_fingerprint(chat_id) if self._sees(chat_id) else (0, 0, 0)
