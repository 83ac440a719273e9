"""The records of accounts: users and their roles, workspace shares, and the audit trail's records."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

Role = Literal["admin", "engineer", "viewer"]
ShareRole = Literal["viewer", "editor"]
Grant = Literal["owner", "editor", "viewer"]  # what a user may do in a workspace, the most first
ROLES: tuple[Role, ...] = ("admin", "engineer", "viewer")
SHARE_ROLES: tuple[ShareRole, ...] = ("viewer", "editor")
EVERYONE = 0  # the user id a share to everyone in the office is kept under


class User(BaseModel, frozen=True):
    """A local account: its name, role and e-mail (for single sign-on); never its password."""

    user_id: int
    name: str
    role: Role
    email: str | None = None
    created_at: str = ""


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
    """What checking the audit trail's chain found: intact, or the first record that does not hold."""

    intact: bool
    records: int
    broken_id: int | None = None
    reason: str = ""
