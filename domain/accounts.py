"""The records of accounts: users and their roles, workspace shares, and the audit trail's records."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from domain.records import Workspace

Role = Literal["admin", "engineer", "viewer"]
ShareRole = Literal["viewer", "editor"]
Grant = Literal["owner", "editor", "viewer"]  # what a user may do in a workspace, the most first
ROLES: tuple[Role, ...] = ("admin", "engineer", "viewer")
SHARE_ROLES: tuple[ShareRole, ...] = ("viewer", "editor")
EVERYONE = 0  # the user id a share to everyone in the office is kept under


def effective_grant(role: Role | None, owns: bool, shared: ShareRole | None) -> Grant | None:
    """What a user may do in a workspace, from their role as it is now (None: removed), whether they own it and how
    it is shared with them (or with everyone): the access policy's one rule of grants. Admins own every workspace;
    a viewer reads at most, whatever they own or were shared; others have what they own or were shared."""
    if role is None:
        return None
    if role == "admin":
        return "owner"
    found: Grant | None = "owner" if owns else shared
    if found is None:
        return None
    return "viewer" if role == "viewer" else found


class WorkspaceAccess(BaseModel, frozen=True):
    """A workspace (None: there is none with that id) as one user may use it: their role now and their grant."""

    workspace: Workspace | None
    role: Role | None  # None: the user was removed
    grant: Grant | None  # None: they may not see it


class User(BaseModel, frozen=True):
    """A local account: its name, role and e-mail (for single sign-on), and the name it goes by; never its
    password."""

    user_id: int
    name: str
    role: Role
    email: str | None = None
    created_at: str = ""
    display_name: str | None = None

    @property
    def shown_as(self) -> str:
        """What packages and the audit trail call the user: their display name, else their user name."""
        return self.display_name or self.name


class UserOverview(BaseModel, frozen=True):
    """A user as admins look after them: the account, its last sign-in and how many API keys are in use."""

    user: User
    last_sign_in_at: str | None = None
    keys: int = 0


class Share(BaseModel, frozen=True):
    """A workspace shared with a user (`user_id` EVERYONE and `user_name` None: everyone in the office)."""

    chat_id: int
    user_id: int
    user_name: str | None
    role: ShareRole


class AuditRecord(BaseModel, frozen=True):
    """One record of the audit trail; `hash` is the SHA-256 of its fields and `prev_hash`, the previous one's."""

    record_id: int
    at: str
    user_name: str
    action: str
    chat_id: int | None = None
    workspace_name: str | None = None
    detail: str = ""
    prev_hash: str
    hash: str


class ChainCheck(BaseModel, frozen=True):
    """What checking the audit trail's chain found: intact, or the first record that does not hold (and why, in
    words). `checked_from` is the record the walk started after (0: the first; else the last one an earlier check
    found intact, whose hash is checked again)."""

    intact: bool
    records: int
    broken_id: int | None = None
    reason: str = ""
    checked_from: int = 0

    @property
    def said(self) -> str:
        """The finding in one sentence."""
        if self.intact:
            return f"The audit trail is intact: {self.records} records."
        where = f" at record {self.broken_id}" if self.broken_id is not None else ""
        return f"The audit trail is broken{where}: {self.reason}."
