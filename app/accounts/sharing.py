"""Sharing workspaces: with a user as viewer or editor (who is told, `app.together.notifications`), or with everyone in
the office as viewer.

Only a workspace's owner (an engineer) or an admin shares it. A workspace made before accounts were on
has no owner: only admins see it, and an admin (or `python main.py share` on the server) shares it or
gives it an owner.
"""

from __future__ import annotations

from typing import Protocol

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.ports import AccountRecords, WorkspaceRecords
from app.presentation.formatting import shown_name
from app.together.notifications import Notifications
from app.webhooks import Webhooks
from app.workspaces.naming import By, the_one
from domain.accounts import EVERYONE, SHARE_ROLES, Share, ShareRole, User
from domain.records import Workspace


class SharingRecords(AccountRecords, WorkspaceRecords, Protocol):
    """What sharing needs of the store: users, owners and shares, and the workspaces by name or id."""


class Sharing:
    """Who owns a workspace and with whom it is shared, for one user's view."""

    def __init__(
        self,
        store: SharingRecords,
        access: Access,
        audit: AuditTrail,
        webhooks: Webhooks | None = None,
        notifications: Notifications | None = None,
    ) -> None:
        self._store = store
        self._webhooks = webhooks  # told of each share, in its transaction
        self._access = access
        self._audit = audit
        self._notifications = notifications

    def workspace(self, name_or_id: str, by: By | None = None) -> Workspace:
        """A workspace the user may see, by name or id (`by`: only by one); the missing sentence otherwise, and
        AmbiguousWorkspaceError when the text names several (an id and a name, or a name twice)."""
        found = the_one(name_or_id, self._store.find_chats(name_or_id, self._access.viewer, by), by)
        if found is not None:
            return found
        self._access.denied(f"find workspace {name_or_id.strip()!r}")
        raise LookupError(f"There is no workspace called {shown_name(name_or_id.strip())!r}.")

    def share(self, chat_id: int, user_name: str, role: str) -> Share:
        """Share with `user_name` as `role` (viewer or editor); LookupError for a user who does not exist."""
        if role not in SHARE_ROLES:
            raise ValueError(f"{role!r} is not a way to share; use viewer or editor.")
        chat = self._access.own(chat_id, "share")
        user = self._user(user_name, chat)
        shared: ShareRole = role
        with self._store.unit_of_work():
            self._store.share(chat_id, user.user_id, shared)
            self._audit.record("share", chat_id, f"with {user.name} as {role}", chat.chat_name)
            made = self._told(Share(chat_id=chat_id, user_id=user.user_id, user_name=user.name, role=shared))
            if self._notifications is not None:
                self._notifications.shared(chat, user, role)
        return made

    def share_with_everyone(self, chat_id: int) -> Share:
        """Share with everyone in the office, to read (at most MAX_WORKSPACES_PER_USER of one owner's)."""
        chat = self._access.own(chat_id, "share")
        owner = self._store.owner_of(chat_id)
        if not any(share.user_id == EVERYONE for share in self._store.shares_of(chat_id)):
            self._access.room_for(owner.user_id if owner is not None else None, everyone=True)
        with self._store.unit_of_work():
            self._store.share(chat_id, EVERYONE, "viewer")
            self._audit.record("share", chat_id, "with everyone as viewer", chat.chat_name)
            made = self._told(Share(chat_id=chat_id, user_id=EVERYONE, user_name=None, role="viewer"))
        return made

    def unshare(self, chat_id: int, user_name: str | None) -> bool:
        """Stop sharing with `user_name` (None: with everyone); False when it was not shared so."""
        chat = self._access.own(chat_id, "unshare")
        user_id = EVERYONE if user_name is None else self._user(user_name, chat).user_id
        with self._store.unit_of_work():
            removed = self._store.unshare(chat_id, user_id)
            self._audit.record("unshare", chat_id, f"with {user_name or 'everyone'}", chat.chat_name)
        return removed

    def shares(self, chat_id: int) -> list[Share]:
        """With whom a workspace the user may see is shared."""
        self._access.read(chat_id)
        return self._store.shares_of(chat_id)

    def owner(self, chat_id: int) -> User | None:
        """Who owns a workspace the user may see (None: nobody, one made before accounts)."""
        self._access.read(chat_id)
        return self._store.owner_of(chat_id)

    def owners(self) -> dict[int, str]:
        """The owner's name of each workspace the user may see (for the sidebar's "whose")."""
        return self._store.owners(viewer=self._access.viewer)

    def give(self, chat_id: int, user_name: str) -> None:
        """Make `user_name` the owner (an admin, or the server's owner, for a workspace with none)."""
        self._access.admin("give a workspace to another owner")
        chat = self._access.read(chat_id)
        user = self._user(user_name, chat)
        with self._store.unit_of_work():
            self._store.set_owner(chat_id, user.user_id)
            self._audit.record("owner set", chat_id, user.name, chat.chat_name)

    def _told(self, share: Share) -> Share:
        if self._webhooks is not None:
            self._webhooks.shared(share)
        return share

    def _user(self, name: str, chat: Workspace) -> User:
        user = self._store.get_user(name.strip())
        if user is None:
            self._access.denied(f"share with unknown user {name.strip()!r}", chat.chat_id, chat.chat_name)
            raise LookupError(f"{name.strip()!r} is not a user this workspace can be shared with; check the name.")
        return user
