"""Who may do what to which workspace, decided once per operation in the application service.

An application opened for a user (`Application.for_user`) holds an `Access` for that user, fixed for its
life: no face assigns it later. Roles: an `admin` may do everything; an `engineer` changes and asks in the
workspaces they own or have been shared as editor, and shares their own; a `viewer` reads what is shared
with them and changes nothing. A workspace the user may not see answers exactly as a missing one does
(`LookupError`, the same sentence); one they may see but not change answers `ForbiddenError`. Every denied
attempt goes into the audit trail. With no user (AUTH=none, or the commands run on the server itself)
nothing is checked.
"""

from __future__ import annotations

from typing import Protocol

from app.audit_trail import AuditTrail
from domain.accounts import Grant, Role, Share, User
from domain.records import Workspace


class ForbiddenError(PermissionError):
    """The user may see this but not do that; the message says what they may do instead."""


class SignInError(PermissionError):
    """Signing in failed; the message says so without saying which part was wrong."""


def missing(chat_id: int) -> LookupError:
    """The sentence of a workspace that does not exist, which one the user may not see answers too."""
    return LookupError(f"There is no workspace with id {chat_id}.")


VIEWER_REFUSED = "Your role is viewer: you may read the workspaces shared with you, but not ask, approve or change."
READ_ONLY = "Workspace {name!r} is shared with you to read only; ask its owner to share it with you as editor."
NOT_OWNER = "Only the owner of workspace {name!r} or an admin may {what} it."
ADMINS_ONLY = "Only an admin may {what}."


REMOVED = "Your account no longer exists; ask an admin (python main.py users add) and sign in again."


def _present(role: Role | None) -> Role:
    """The role of a user who still exists; SignInError for one removed while signed in."""
    if role is None:
        raise SignInError(REMOVED)
    return role


class AccessRecords(Protocol):
    """What the check reads of the store: the workspace, and the user's grants."""

    def get_chat(self, chat_id: int) -> Workspace | None: ...
    def access_to(self, chat_id: int, user_id: int) -> tuple[Role | None, Grant | None]: ...
    def accessible(self, user_id: int) -> tuple[Role | None, dict[int, Grant]]: ...
    def user_by_id(self, user_id: int) -> User | None: ...
    def shares_of(self, chat_id: int) -> list[Share]: ...


class Access:
    """One user's rights, asked of the store at each check (a share made meanwhile counts at once)."""

    def __init__(self, store: AccessRecords, user: User | None, audit: AuditTrail) -> None:
        self._store = store
        self.user = user
        self._audit = audit

    @property
    def checks(self) -> bool:
        """Whether anything is checked (False: AUTH=none, or the server's owner)."""
        return self.user is not None

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    @property
    def role(self) -> Role:
        """The user's role as the store has it now (a role changed meanwhile counts at once); SignInError when
        the user was removed."""
        if self.user is None:
            return "admin"
        current = self._store.user_by_id(self.user.user_id)
        return _present(current.role if current is not None else None)

    def of(self, chat_id: int) -> Grant | None:
        """What the user may do in `chat_id`: owner (admins are owners of all), editor, viewer, or None."""
        if self.user is None:
            return "owner"
        role, found = self._store.access_to(chat_id, self.user.user_id)
        if _present(role) == "admin":
            return "owner"
        if found is not None and role == "viewer":
            return "viewer"  # a viewer reads even what they own or were shared as editor
        return found

    def visible(self) -> dict[int, Grant] | None:
        """Every workspace the user may see (None: all of them)."""
        if self.user is None:
            return None
        role, found = self._store.accessible(self.user.user_id)
        if _present(role) == "admin":
            return None
        return {chat_id: "viewer" for chat_id in found} if role == "viewer" else found

    def read(self, chat_id: int) -> Workspace:
        """The workspace, if the user may see it; else the sentence of a missing one (and a denied record)."""
        chat = self._store.get_chat(chat_id)
        if chat is None:
            raise missing(chat_id)
        if self.of(chat_id) is None:
            self.denied("read", chat_id, chat.chat_name)
            raise missing(chat_id)
        return chat

    def can_read(self, chat_id: int) -> bool:
        return self.of(chat_id) is not None

    def change(self, chat_id: int, what: str = "change") -> Workspace:
        """The workspace, if the user may change it (ask, approve, rename…); Forbidden when they may only read."""
        chat = self.read(chat_id)
        if self.of(chat_id) in ("owner", "editor"):
            return chat
        self.denied(what, chat_id, chat.chat_name)
        raise ForbiddenError(VIEWER_REFUSED if self.role == "viewer" else READ_ONLY.format(name=chat.chat_name))

    def own(self, chat_id: int, what: str) -> Workspace:
        """The workspace, if the user owns it or is an admin (sharing, deleting)."""
        chat = self.read(chat_id)
        if self.of(chat_id) == "owner":
            return chat
        self.denied(what, chat_id, chat.chat_name)
        if self.role == "viewer":
            raise ForbiddenError(VIEWER_REFUSED)
        raise ForbiddenError(NOT_OWNER.format(name=chat.chat_name, what=what))

    def create(self) -> None:
        """Forbidden for a viewer, who makes no workspace."""
        if self.role == "viewer":
            self.denied("create a workspace")
            raise ForbiddenError(VIEWER_REFUSED)

    def admin(self, what: str) -> None:
        """Forbidden unless the user is an admin (users, the audit trail, backups)."""
        if not self.is_admin:
            self.denied(what)
            raise ForbiddenError(ADMINS_ONLY.format(what=what))

    def denied(self, what: str, chat_id: int | None = None, workspace_name: str | None = None) -> None:
        """Record a refused attempt."""
        self._audit.record("denied", chat_id, what, workspace_name)
