"""What an open page watches, so that people working in one workspace see each other without reloading.

A page reads `activity` every few seconds: one light statement (`store.page_activity`), which changes when anything
it shows that others change does: the open workspace's turns, the turn being answered in it and its file edits
waiting, the user's notifications, or whether the user may still see the workspace. Only then does it draw itself
again, and says who is asking (`asking`) while a turn runs there.
"""

from __future__ import annotations

from app.accounts.policy import Access
from app.ports import NotificationRecords
from domain.records import PageActivity, RunningTurn


class Live:
    """One user's view of what changes under an open page."""

    def __init__(self, store: NotificationRecords, access: Access) -> None:
        self._store = store
        self._access = access

    def activity(self, chat_id: int | None) -> PageActivity:
        """What a page open on `chat_id` (None: no workspace) shows that others change, in one statement; equal
        readings mean nothing changed."""
        return self._store.page_activity(chat_id, self._access.viewer)

    def asking(self, chat_id: int) -> RunningTurn | None:
        """The question being answered in the workspace now, with who asks it (None: none, or one the user may not
        see)."""
        running = self._store.running_turn(chat_id)
        return running if running is not None and self._access.sees(chat_id) else None
