"""Notifications: what happened for a user while they may not have been looking, kept until they dismiss it.

The use cases that concern others tell them in the same transaction as the change: a package revision checked
("Revision A checked by bob — ready to approve") or approved tells the workspace's owner and editors but the one
who signed; a workspace shared with a user tells that user; a file edit waiting for approval tells the user whose
question proposed it, and goes once the edit is decided. Each is about something (`about`), so that a settled one
goes. With no accounts there is nobody to tell.
"""

from __future__ import annotations

from typing import Protocol

from app.accounts.policy import Access
from app.ports import NotificationRecords
from app.presentation.formatting import shown_name
from domain.accounts import EVERYONE, Share, User
from domain.packages import SignoffStep
from domain.records import Notification, Workspace

SHOWN = 20  # the newest notifications a face shows
GONE = "That notification was dismissed already (in another tab)."


class NotificationParts(NotificationRecords, Protocol):
    """What notifications need of the store: the notifications, and who a workspace concerns."""

    def owner_of(self, chat_id: int) -> User | None: ...
    def shares_of(self, chat_id: int) -> list[Share]: ...
    def get_user(self, name: str) -> User | None: ...
    def get_chat(self, chat_id: int) -> Workspace | None: ...


class Notifications:
    """The signed-in user's notifications, and the one way the other parts tell the people a change concerns."""

    def __init__(self, store: NotificationParts, access: Access) -> None:
        self._store = store
        self._access = access

    def mine(self) -> list[Notification]:
        """The user's notifications, newest first (none without accounts)."""
        user = self._access.user
        return self._store.notifications(user.user_id, SHOWN) if user is not None else []

    def dismiss(self, notification_id: int) -> None:
        """Dismiss one of the user's notifications; LookupError when it is gone already (or was never theirs)."""
        user = self._access.user
        if user is None or not self._store.dismiss_notification(notification_id, user.user_id):
            raise LookupError(GONE)

    def shared(self, chat: Workspace, user: User, role: str) -> None:
        """`chat` was shared with `user`: it appears in their list, and they are told by whom."""
        by = f"{self._access.user.name} shared" if self._access.user is not None else "An admin shared"
        text = f"{by} {shown_name(chat.chat_name)} with you ({role})."
        self._store.notify([user.user_id], text, chat.chat_id, "share")

    def signed_off(self, chat_id: int, letter: str, step: SignoffStep, by: str) -> None:
        """A revision of the workspace's package was checked or approved: its owner and editors are told (a check's
        notes go once the revision is approved)."""
        chat = self._store.get_chat(chat_id)
        named = f" ({shown_name(chat.chat_name)})" if chat is not None else ""
        about = f"revision {letter}"
        if step == "checked":
            text = f"Revision {letter} checked by {by} — ready to approve{named}."
        else:
            self.settled(chat_id, about)
            text = f"Revision {letter} approved by {by}{named}."
        self._store.notify(self.concerned(chat_id), text, chat_id, about)

    def edit_waiting(self, chat_id: int, edit_id: int, path: str, proposer: str | None) -> None:
        """A file edit waits for the approval of the user whose question proposed it: they are told."""
        user = self._store.get_user(proposer) if proposer else None
        chat = self._store.get_chat(chat_id)
        if user is not None and chat is not None:
            text = f"An edit to {shown_name(path)} waits for your approval ({shown_name(chat.chat_name)})."
            self._store.notify([user.user_id], text, chat_id, f"file edit {edit_id}")

    def edit_decided(self, chat_id: int, edit_id: int) -> None:
        self.settled(chat_id, f"file edit {edit_id}")

    def concerned(self, chat_id: int) -> list[int]:
        """Who a change to a workspace's work concerns: its owner and editors, but the one who made it."""
        owner = self._store.owner_of(chat_id)
        editors = [share.user_id for share in self._store.shares_of(chat_id) if share.role == "editor"]
        me = self._access.user.user_id if self._access.user is not None else None
        found = ([owner.user_id] if owner is not None else []) + editors
        return [user_id for user_id in dict.fromkeys(found) if user_id not in (me, EVERYONE)]

    def settled(self, chat_id: int, about: str) -> None:
        """What notifications about `about` said is over: they go."""
        self._store.clear_notifications(chat_id, about)
