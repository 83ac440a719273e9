"""The workspaces of one user's view (a browser tab, a terminal): which one is open, and each one's life.

Leaving a workspace for another hands it to the digital-twin summaries, which refresh it in the
background only if it has turns its summary does not cover: a switch never waits for the model.
"""

from __future__ import annotations

from app.formatting import shortened
from app.ports import WorkspaceRecords
from app.summaries import Summaries, SwitchOutcome
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

    def __init__(self, store: WorkspaceRecords, summaries: Summaries) -> None:
        self._store = store
        self._summaries = summaries
        self._current_id: int | None = None

    @property
    def current_id(self) -> int | None:
        """The id of the workspace open in this view (None before one is opened or made)."""
        return self._current_id

    @property
    def current(self) -> Workspace | None:
        return self._store.get_chat(self._current_id) if self._current_id is not None else None

    def recent(self, limit: int | None = None) -> list[Workspace]:
        """Workspaces, the most recently active first."""
        return self._store.recent_chats(limit)

    def count(self) -> int:
        return len(self._store.list_chats())

    def search(self, text: str) -> list[SearchHit]:
        """Workspaces whose name or messages contain `text`, most recently active first."""
        return self._store.search_chats(text)

    def get(self, chat_id: int) -> Workspace | None:
        return self._store.get_chat(chat_id)

    def find(self, name_or_id: str) -> Workspace:
        """A workspace by id or exact name; LookupError says how to see the others."""
        if not name_or_id.strip():
            raise ValueError("Give a workspace name or id.")
        chat = self._store.find_chat(name_or_id)
        if chat is None:
            raise LookupError(f"There is no workspace called {name_or_id.strip()!r}.")
        return chat

    # Opening ---------------------------------------------------------------------------------

    def open(self, chat_id: int) -> Workspace:
        """Make `chat_id` the open workspace (no summary is written)."""
        chat = self._store.get_chat(chat_id)
        if chat is None:
            raise LookupError(f"There is no workspace with id {chat_id}.")
        self._current_id = chat_id
        return chat

    def open_latest(self) -> Workspace | None:
        """Open the most recently active workspace, if there is one."""
        latest = self._store.recent_chats(1)
        if not latest:
            self._current_id = None
            return None
        return self.open(latest[0].chat_id)

    def open_or_create(self, name_or_id: str) -> Workspace:
        """Open the named (or numbered) workspace, creating a named one that does not exist yet."""
        chat = self._store.find_chat(name_or_id)
        if chat is not None:
            return self.open(chat.chat_id)
        if name_or_id.strip().isdigit():
            raise LookupError(f"There is no workspace with id {name_or_id.strip()}.")
        return self.create(name_or_id)

    def create(self, name: str = DEFAULT_WORKSPACE_NAME) -> Workspace:
        """Create a workspace and open it (without summarising the one left)."""
        return self.open(self._store.create_chat(name.strip() or DEFAULT_WORKSPACE_NAME))

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
        empty = self._store.find_empty_chat(cleaned) if cleaned == DEFAULT_WORKSPACE_NAME else None
        chat_id = empty.chat_id if empty is not None else self._store.create_chat(cleaned)
        outcome = await self.switch(chat_id)
        return self.open(chat_id), outcome

    async def switch(self, target_id: int) -> SwitchOutcome:
        """Open `target_id` now; the digital twin of the workspace left is refreshed in the background."""
        if self._store.get_chat(target_id) is None:
            raise LookupError(f"There is no workspace with id {target_id}.")
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
        self._store.rename_chat(chat_id, cleaned)
        return cleaned

    def delete(self, chat_id: int) -> Workspace | None:
        """Delete a workspace and its turns; if it was open, the latest one left is opened."""
        self._store.delete_chat(chat_id)
        if chat_id == self._current_id:
            return self.open_latest()
        return self.current

    def clear(self, chat_id: int) -> None:
        """Delete a workspace's turns (its summary stays)."""
        self._store.clear_history(chat_id)
