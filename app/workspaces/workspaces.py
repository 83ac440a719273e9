"""The workspaces of one user's view (a browser tab, a terminal): which one is open, and each one's life.

Leaving a workspace for another hands it to the digital-twin summaries, which refresh it in the
background only if it has turns its summary does not cover: a switch never waits for the model.
Each use case asks the access policy once at its top; lists and searches hold only what the user may see,
filtered in the store's queries; a change and its audit record are one unit of work.
"""

from __future__ import annotations

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.ports import WorkspaceRecords
from app.presentation.formatting import shortened, shown_name
from app.workspaces.naming import By, the_one
from app.workspaces.summaries import Summaries
from app.workspaces.summary_writer import SwitchOutcome
from domain.records import SearchHit, Workspace

DEFAULT_WORKSPACE_NAME = "New workspace"
NAME_LENGTH = 64


def name_from_message(message: str) -> str:
    """A workspace name from its first message: the first line, at most 64 characters, a longer one cut at a
    word boundary and ended with "…"."""
    lines = message.strip().splitlines()
    first_line = " ".join(lines[0].split()) if lines else ""
    return shortened(first_line, NAME_LENGTH) or DEFAULT_WORKSPACE_NAME


class Workspaces:
    """Open, create, find, list, rename, delete and clear workspaces; the open one is this view's own."""

    def __init__(self, store: WorkspaceRecords, summaries: Summaries, access: Access, audit: AuditTrail) -> None:
        self._store = store
        self._summaries = summaries
        self._access = access
        self._audit = audit
        self._current_id: int | None = None

    @property
    def current_id(self) -> int | None:
        """The id of the workspace open in this view (None before one is opened or made)."""
        return self._current_id

    @property
    def current(self) -> Workspace | None:
        """The open workspace as it is now (None when it was deleted, or is no longer shared with the user)."""
        return self._access.visible(self._current_id) if self._current_id is not None else None

    def recent(self, limit: int | None = None) -> list[Workspace]:
        """The workspaces the user may see, the most recently active first (SignInError for a user removed
        meanwhile, whom the store shows nothing)."""
        found = self._store.recent_chats(limit, viewer=self._access.viewer)
        if not found and self._access.checks:
            _ = self._access.role  # nothing to show: say so if it is because the user was removed
        return found

    def count(self) -> int:
        return self._store.count_chats(viewer=self._access.viewer)

    def search(self, text: str) -> list[SearchHit]:
        """Workspaces the user may see whose name or messages contain `text`, most recently active first."""
        return self._store.search_chats(text, viewer=self._access.viewer)

    def get(self, chat_id: int) -> Workspace | None:
        """The workspace if the user may see it, else None, as for one that does not exist."""
        return self._access.visible(chat_id)

    def read(self, chat_id: int) -> Workspace:
        """The workspace if the user may see it; else the missing sentence (LookupError), the attempt recorded."""
        return self._access.read(chat_id)

    def find(self, name_or_id: str, by: By | None = None) -> Workspace:
        """A workspace the user may see, by id or exact name (`by`: only by one); LookupError says there is none,
        AmbiguousWorkspaceError that the text names several."""
        if not name_or_id.strip():
            raise ValueError("Give a workspace name or id.")
        chat = self._named(name_or_id, by)
        if chat is None:
            raise LookupError(f"There is no workspace called {shown_name(name_or_id.strip())!r}.")
        return chat

    def _named(self, name_or_id: str, by: By | None = None) -> Workspace | None:
        return the_one(name_or_id, self._store.find_chats(name_or_id, self._access.viewer, by), by)

    def named(self, name: str) -> Workspace:
        """The workspace named exactly `name` among the user's (owned, or shared with them), for a program that
        names where it asks: their own first, else one they may change, else one they may only read (where asking
        is refused); one of their own is made when there is none (one they may not see counts as missing, and an
        admin's reach over every workspace does not make another's theirs). It is not opened."""
        found = self._store.chats_named(name, viewer=self._access.viewer)
        changing = [chat for chat in found if self._access.grant(chat.chat_id) in ("owner", "editor")]
        if changing or found:
            return (changing or found)[0]
        return self._access.read(self._created(name))

    # Opening ---------------------------------------------------------------------------------

    def open(self, chat_id: int) -> Workspace:
        """Make `chat_id` the open workspace (no summary is written)."""
        chat = self._access.read(chat_id, "open")
        self._current_id = chat_id
        return chat

    def open_latest(self) -> Workspace | None:
        """Open the most recently active workspace the user may see, if there is one."""
        latest = self.recent(1)
        if not latest:
            self._current_id = None
            return None
        self._current_id = latest[0].chat_id
        return latest[0]

    def open_or_create(self, name_or_id: str) -> Workspace:
        """Open the named (or numbered) workspace, creating a named one that does not exist yet."""
        chat = self._named(name_or_id)
        if chat is not None:
            self._current_id = chat.chat_id
            return chat
        if name_or_id.strip().isdigit():
            raise LookupError(f"There is no workspace with id {name_or_id.strip()}.")
        return self.create(name_or_id)

    def create(self, name: str = DEFAULT_WORKSPACE_NAME) -> Workspace:
        """Create a workspace, owned by the user, and open it (without summarising the one left)."""
        chat_id = self._created(name.strip() or DEFAULT_WORKSPACE_NAME)
        return self.open(chat_id)

    def _created(self, name: str) -> int:
        """A new workspace owned by the user, with its audit record, in one unit of work."""
        self._access.create()
        self._access.room_for(self._access.viewer)
        with self._store.unit_of_work():
            chat_id = self._store.create_chat(name, owner=self._access.viewer)
            self._audit.record("workspace created", chat_id, workspace_name=name)
        return chat_id

    def ensure_current(self) -> Workspace:
        """The open workspace, creating one when there is none (the first message names it)."""
        chat = self.current
        return chat if chat is not None else self.create()

    async def start_new(self, name: str = DEFAULT_WORKSPACE_NAME) -> tuple[Workspace, SwitchOutcome]:
        """Switch to a new workspace (refreshing the digital twin of the one left).

        A new workspace with the default name reuses an empty one, so that "New
        workspace" clicked twice does not leave a pile of empty workspaces.
        """
        cleaned = name.strip() or DEFAULT_WORKSPACE_NAME
        empty = (
            self._store.find_empty_chat(cleaned, owner=self._access.viewer)
            if cleaned == DEFAULT_WORKSPACE_NAME
            else None
        )
        chat_id = empty.chat_id if empty is not None else self._created(cleaned)
        outcome = await self.switch(chat_id)
        current = self.current
        assert current is not None  # just opened
        return current, outcome

    async def switch(self, target_id: int) -> SwitchOutcome:
        """Open `target_id` now; the digital twin of the workspace left is refreshed in the background."""
        leaving = self.current
        self.open(target_id)
        if leaving is None or leaving.chat_id == target_id or not self._summaries.leave(leaving.chat_id):
            return SwitchOutcome(left=leaving)
        return SwitchOutcome(leaving, pending=True)

    def leave(self, chat_id: int) -> bool:
        """The user is done with `chat_id` for now: its digital twin is refreshed in the background if it has
        new turns (True when a summary was queued)."""
        return self._summaries.leave(chat_id)

    # Changing --------------------------------------------------------------------------------

    def rename(self, chat_id: int, name: str) -> str:
        """Rename a workspace; returns the name it now has."""
        cleaned = " ".join(name.split())
        if not cleaned:
            raise ValueError("Give the new name.")
        chat = self._access.change(chat_id, "rename")
        with self._store.unit_of_work():
            self._store.rename_chat(chat_id, cleaned)
            self._audit.record("workspace renamed", chat_id, f"from {chat.chat_name!r}", cleaned)
        return cleaned

    def delete(self, chat_id: int) -> Workspace | None:
        """Delete a workspace and its turns; if it was open, the latest one left is opened."""
        chat = self._access.own(chat_id, "delete")
        with self._store.unit_of_work():
            self._store.delete_chat(chat_id)
            self._audit.record("workspace deleted", chat_id, workspace_name=chat.chat_name)
        if chat_id == self._current_id:
            return self.open_latest()
        return self.current

    def clear(self, chat_id: int) -> None:
        """Delete a workspace's turns (its summary stays): its owner's to decide, as a deletion is."""
        chat = self._access.own(chat_id, "clear")
        with self._store.unit_of_work():
            self._store.clear_history(chat_id)
            self._audit.record("history cleared", chat_id, workspace_name=chat.chat_name)
