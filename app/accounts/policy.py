"""The access policy: who may see and do what in each workspace, for every face and every path to the data.

Who may see which workspace is decided in the store's queries (`store.visibility`): lists, searches and lookups
take the acting user (`Access.viewer`) and read only what that user may see, and one statement tells what they
may do in one workspace (`WorkspaceAccess`, from `domain.accounts.effective_grant`). This module holds the rest of
the policy, what each grant allows, and each use case of the application asks it once, at its top, before it
acts:

- `read` (any grant): open, read, export, report, download a package;
- `change` (owner or editor): ask, approve or reject a file edit, rename, set project details, sign off;
- `own` (owner, or an admin): share, delete, clear the history;
- `create` (not a viewer): make a workspace, upload a document;
- `admin`: users, keys, the audit trail, backups.

Roles: an `admin` may do everything; an `engineer` changes what they own or were shared as editor; a `viewer`
reads what is shared with them and changes nothing. A workspace the user may not see answers exactly as a
missing one does (`LookupError`, the same sentence, after the same statement); one they may see but not change
answers `ForbiddenError`. Every refused attempt goes into the audit trail. With no user (AUTH=none, or the
commands run on the server itself) nothing is checked, and the same calls simply read the workspace.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.accounts.audit_trail import AuditTrail
from domain.accounts import Grant, Role, User, WorkspaceAccess
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
REMOVED = "Your account no longer exists; ask an admin to add you again, then sign in."
MOST_WORKSPACES = 1000
TOO_MANY = {
    False: "One user may own at most {most:,} workspaces (MAX_WORKSPACES_PER_USER); delete some you no longer need.",
    True: "One user may share at most {most:,} workspaces with everyone (MAX_WORKSPACES_PER_USER); unshare some.",
}

CHANGES: frozenset[Grant] = frozenset({"owner", "editor"})


@dataclass(frozen=True)
class Allowed:
    """What the user may do now, in one workspace and besides, so that a face offers only that (the use cases
    ask the policy again when they act)."""

    read: bool  # open, export, download the package
    change: bool  # ask, rename, approve an edit, sign off, set project details, choose the agent
    own: bool  # share, delete, clear the history
    create: bool  # make a workspace, upload a document
    admin: bool  # users, keys, the audit trail, backups


EVERYTHING = Allowed(read=True, change=True, own=True, create=True, admin=True)


class AccessRecords(Protocol):
    """What the policy reads of the store: one workspace as one user may use it, and a user's role."""

    def get_chat(self, chat_id: int) -> Workspace | None: ...
    def workspace_access(self, chat_id: int, viewer: int) -> WorkspaceAccess: ...
    def user_by_id(self, user_id: int) -> User | None: ...
    def owned_counts(self, user_id: int) -> tuple[int, int]: ...


class Access:
    """One user's rights, asked of the store at each check (a share or a role changed meanwhile counts at once)."""

    def __init__(
        self, store: AccessRecords, user: User | None, audit: AuditTrail, most_workspaces: int = MOST_WORKSPACES
    ) -> None:
        self._store = store
        self.user = user
        self._audit = audit
        self._most = most_workspaces  # MAX_WORKSPACES_PER_USER: owned, and of them shared with everyone

    @property
    def checks(self) -> bool:
        """Whether anything is checked (False: AUTH=none, or the server's owner)."""
        return self.user is not None

    @property
    def viewer(self) -> int | None:
        """The user id the store's lists and searches are filtered for (None: nothing is filtered)."""
        return self.user.user_id if self.user is not None else None

    @property
    def role(self) -> Role:
        """The user's role as the store has it now; SignInError when the user was removed."""
        if self.user is None:
            return "admin"
        current = self._store.user_by_id(self.user.user_id)
        if current is None:
            raise SignInError(REMOVED)
        return current.role

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    def of(self, chat_id: int) -> WorkspaceAccess:
        """The workspace and what the user may do in it, in one statement."""
        if self.user is None:
            workspace = self._store.get_chat(chat_id)
            return WorkspaceAccess(workspace=workspace, role="admin", grant="owner" if workspace else None)
        found = self._store.workspace_access(chat_id, self.user.user_id)
        if found.role is None:
            raise SignInError(REMOVED)
        return found

    def allowed(self, chat_id: int | None = None) -> Allowed:
        """What the user may do now in `chat_id` (None: no workspace) and besides, in one statement."""
        if self.user is None:
            return EVERYTHING
        if chat_id is None:
            now = self.role
            return Allowed(False, False, False, now != "viewer", now == "admin")
        found = self.of(chat_id)  # its role is the user's now (a removed user raised SignInError)
        return Allowed(
            read=found.grant is not None,
            change=found.grant in CHANGES,
            own=found.grant == "owner",
            create=found.role != "viewer",
            admin=found.role == "admin",
        )

    def grant(self, chat_id: int) -> Grant | None:
        """What the user may do in the workspace (None: nothing, or there is none), for a face to offer only that."""
        return self.of(chat_id).grant

    def visible(self, chat_id: int) -> Workspace | None:
        """The workspace if the user may see it, else None (as for one that does not exist); nothing recorded."""
        found = self.of(chat_id)
        return found.workspace if found.grant is not None else None

    def sees(self, chat_id: int) -> bool:
        """Whether the user may see the workspace (always, with nothing checked: no statement then)."""
        return self.user is None or self.visible(chat_id) is not None

    def read(self, chat_id: int, what: str = "read") -> Workspace:
        """The workspace, if the user may see it; else the sentence of a missing one, and a refused record (the
        same statement and the same record whether it exists or not)."""
        return self._checked(self.of(chat_id), chat_id, what)

    def change(self, chat_id: int, what: str = "change") -> Workspace:
        """The workspace, if the user may change it (ask, approve, rename…); Forbidden when they may only read."""
        found = self.of(chat_id)
        chat = self._checked(found, chat_id, what)
        if found.grant in CHANGES:
            return chat
        self.denied(what, chat_id, chat.chat_name)
        raise ForbiddenError(VIEWER_REFUSED if found.role == "viewer" else READ_ONLY.format(name=chat.chat_name))

    def still(self, chat_id: int, what: str) -> str | None:
        """None while the user may still change the workspace (asked again before each tool call of a turn), else
        the sentence why not, the attempt recorded: a role lowered or a share withdrawn mid-turn counts at once."""
        if self.user is None:
            return None
        try:
            self.change(chat_id, what)
        except (ForbiddenError, LookupError, SignInError) as refused:
            return str(refused.args[0]) if refused.args else str(refused)
        return None

    def own(self, chat_id: int, what: str) -> Workspace:
        """The workspace, if the user owns it or is an admin (sharing, deleting, clearing)."""
        found = self.of(chat_id)
        chat = self._checked(found, chat_id, what)
        if found.grant == "owner":
            return chat
        self.denied(what, chat_id, chat.chat_name)
        if found.role == "viewer":
            raise ForbiddenError(VIEWER_REFUSED)
        raise ForbiddenError(NOT_OWNER.format(name=chat.chat_name, what=what))

    def create(self, what: str = "create a workspace") -> None:
        """Forbidden for a viewer, who makes no workspace and uploads nothing."""
        if self.role == "viewer":
            self.denied(what)
            raise ForbiddenError(VIEWER_REFUSED)

    def room_for(self, owner: int | None, everyone: bool = False) -> None:
        """Forbidden once user `owner` owns MAX_WORKSPACES_PER_USER workspaces (`everyone`: has shared that many
        with everyone), so that one user's volume never crowds out the others' lists (None: nobody's, no limit)."""
        if owner is None:
            return
        owned, shared = self._store.owned_counts(owner)
        if (shared if everyone else owned) >= self._most:
            what = "shared with everyone" if everyone else "owned"
            self.denied(f"exceed {self._most:,} workspaces {what}")
            raise ForbiddenError(TOO_MANY[everyone].format(most=self._most))

    def admin(self, what: str) -> None:
        """Forbidden unless the user is an admin (users, the audit trail, backups)."""
        if not self.is_admin:
            self.denied(what)
            raise ForbiddenError(ADMINS_ONLY.format(what=what))

    def denied(self, what: str, chat_id: int | None = None, workspace_name: str | None = None) -> None:
        """Record a refused attempt."""
        self._audit.record("denied", chat_id, what, workspace_name or "")

    def _checked(self, found: WorkspaceAccess, chat_id: int, what: str) -> Workspace:
        if found.workspace is not None and found.grant is not None:
            return found.workspace
        self.denied(what, chat_id)  # alike for a missing workspace and one the user may not see
        raise missing(chat_id)
