"""Every table of the store, declared once: its columns, their kinds, keys, defaults, references and indexes.

Both backends are held to this declaration (`tests/test_schema_parity.py` reads each backend's catalogue and
compares), `db copy` takes its column lists from it (`store.copying`), and a change to the schema after SQLite's
14 migrations and PostgreSQL's 2 (frozen history: databases made by them exist) is declared here and in
`store.changes`, from which each backend's migration is written (`store.ddl`). Kinds are the backends' common
ground: `id` an integer primary key the database numbers, `integer`, `real`, `text`, `bytes`. Times are text in
SQLite's format on both, so records read the same from either.

What each backend keeps for itself is not declared: SQLite's full-text tables and their triggers, PostgreSQL's
`turn_search` and `tsvector` columns, and the turn-count triggers. Columns marked `derived` (a workspace's count
of turns) are made by the backend and not copied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["id", "integer", "real", "text", "bytes"]


@dataclass(frozen=True)
class Column:
    name: str
    kind: Kind
    required: bool = False  # NOT NULL
    default: str | None = None  # an SQL literal
    references: str | None = None  # "chats(chat_id)": deleted with the row it refers to
    check: str | None = None
    primary: bool = False
    derived: bool = False  # made by the backend (a trigger), not copied


@dataclass(frozen=True)
class Index:
    name: str
    columns: str  # "chat_id, id", or an expression: "lower(name)"
    where: str = ""  # a partial index's condition
    unique: bool = False


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    key: str  # what a copy reads the rows in order of, a batch at a time
    unique: tuple[str, ...] = ()  # "turn_id, position"
    indexes: tuple[Index, ...] = field(default_factory=tuple)
    copied: bool = True
    rows_at_once: int | None = None  # a copy's batch, where rows are large (pictures); None: the copy's own

    @property
    def copied_columns(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns if not column.derived)

    def column(self, name: str) -> Column:
        return next(column for column in self.columns if column.name == name)


def _id(name: str = "id") -> Column:
    return Column(name, "id", required=True, primary=True)


def _text(name: str, required: bool = False, default: str | None = None) -> Column:
    return Column(name, "text", required=required, default=default)


def _chat(references: str = "chats(chat_id)") -> Column:
    return Column("chat_id", "integer", required=True, references=references)


_NOTE = "''"

# In the order the foreign keys need (a copy writes them so).
TABLES: tuple[Table, ...] = (
    Table("chats", (
        _id("chat_id"), _text("chat_name", True), _text("created_at"), _text("context_summary"),
        _text("context_updated_at"), _text("last_active_at"), Column("activity_seq", "integer", True, "0"),
        Column("summary_turn_id", "integer"), _text("agent"),
        Column("turn_count", "integer", True, "0", derived=True),
    ), key="chat_id", indexes=(Index("chats_by_activity", "activity_seq"),)),
    Table("history", (
        _id(), _chat(), _text("user", True), _text("assistant", True), _text("created_at"),
        _text("status", True, "'complete'"), _text("model"), Column("prompt_tokens", "integer"),
        Column("completion_tokens", "integer"), Column("duration_ms", "real"), _text("error"), _text("thinking"),
        _text("asked_by"),
    ), key="id", indexes=(Index("history_by_chat", "chat_id, id"),)),
    Table("tool_calls", (
        _id(), Column("turn_id", "integer", True, references="history(id)"), Column("position", "integer", True),
        _text("name", True), _text("arguments", True), _text("output", True), _text("error"),
        Column("duration_ms", "real", True, "0"), _text("data"),
    ), key="id", unique=("turn_id, position",)),
    Table("turn_images", (
        _id(), Column("turn_id", "integer", True, references="history(id)"), Column("position", "integer", True),
        _text("media_type", True), Column("width", "integer", True), Column("height", "integer", True),
        _text("sha256", True), Column("data", "bytes", True),
    ), key="id", unique=("turn_id, position",), rows_at_once=16),
    Table("turn_embeddings", (
        Column("turn_id", "integer", True, references="history(id)", primary=True), _text("model", True),
        Column("vector", "bytes", True),
    ), key="turn_id", rows_at_once=1_000),
    Table("file_edits", (
        _id(), _chat(), _text("path", True), Column("before", "bytes"), Column("after", "bytes", True),
        _text("status", True), _text("created_at", True), _text("decided_at"), _text("proposed_by"),
    ), key="id", indexes=(Index("file_edits_by_chat", "chat_id, id"),)),
    Table("project_details", (
        Column("chat_id", "integer", True, references="chats(chat_id)", primary=True),
        _text("project_name", True, _NOTE), _text("project_number", True, _NOTE), _text("client", True, _NOTE),
        _text("description", True, _NOTE), _text("updated_at", True),
    ), key="chat_id"),
    Table("package_revisions", (
        _id(), _chat(), _text("letter", True),
        Column("status", "text", True, check="status IN ('checked', 'approved')"), _text("workspace_name", True),
        _text("records_digest", True), _text("details", True), _text("sheets", True), _text("checked_by", True),
        _text("checked_at", True), _text("checked_note", True, _NOTE), _text("approved_by"), _text("approved_at"),
        _text("approved_note", True, _NOTE), Column("pdf", "bytes"), _text("sha256"),
    ), key="id", unique=("chat_id, letter",),
       indexes=(Index("package_revisions_by_sha256", "sha256", "sha256 IS NOT NULL"),)),
    Table("memories", (_id(), _text("text", True), _text("created_at", True), _text("updated_at", True)), key="id"),
    Table("documents", (
        Column("path", "text", True, primary=True), Column("size", "integer", True),
        Column("mtime_ns", "integer", True), _text("sha256", True), _text("status", True),
        _text("note", True, _NOTE), Column("passages", "integer", True, "0"), _text("indexed_at"),
    ), key="path"),
    Table("passages", (
        _id(), Column("path", "text", True, references="documents(path)"), Column("page", "integer"),
        _text("location", True), _text("text", True), Column("embedding", "bytes"), _text("embedding_model"),
    ), key="id", indexes=(Index("passages_by_path", "path"),)),
    Table("search_terms", (Column("term", "text", True, primary=True),), key="term"),
    Table("claims", (
        Column("name", "text", True, primary=True), _text("owner", True), Column("expires_at", "real", True),
    ), key="name", copied=False),
    Table("running_turns", (
        _id(), _chat(), _text("user", True), _text("model"), _text("asked_by"), _text("created_at", True),
        _text("owner", True), Column("expires_at", "real", True), _text("server"),
    ), key="id", indexes=(Index("running_turns_by_expiry", "expires_at"),
                          Index("running_turns_one_per_workspace", "chat_id", unique=True)), copied=False),
    Table("users", (
        _id(), _text("name", True), Column("role", "text", True, check="role IN ('admin', 'engineer', 'viewer')"),
        _text("email"), _text("password_hash", True, _NOTE), _text("created_at", True), _text("display_name"),
        _text("last_sign_in_at"),
    ), key="id", indexes=(Index("users_by_name", "lower(name)", unique=True),
                          Index("users_by_email", "lower(email)", unique=True))),
    Table("api_keys", (
        _id(), Column("user_id", "integer", True, references="users(id)"), _text("key_hash", True),
        _text("created_at", True), _text("revoked_at"),
    ), key="id", indexes=(Index("api_keys_by_user", "user_id"),)),
    Table("workspace_owners", (
        Column("chat_id", "integer", True, references="chats(chat_id)", primary=True),
        Column("user_id", "integer", True, references="users(id)"),
    ), key="chat_id", indexes=(Index("workspace_owners_by_user", "user_id"),)),
    Table("shares", (
        _id(), _chat(), Column("user_id", "integer", True),
        Column("role", "text", True, check="role IN ('viewer', 'editor')"),
    ), key="id", unique=("chat_id, user_id",), indexes=(Index("shares_by_user", "user_id"),)),
    Table("audit", (
        Column("id", "integer", True, primary=True), _text("at", True), _text("user_name", True),
        _text("action", True), Column("chat_id", "integer"), _text("workspace_name"), _text("detail", True, _NOTE),
        _text("prev_hash", True), _text("hash", True),
    ), key="id", indexes=(Index("audit_by_chat", "chat_id"),)),
    Table("sign_in_sessions", (
        _id(), Column("user_id", "integer", True, references="users(id)"), _text("secret_hash", True),
        _text("created_at", True), Column("expires_at", "real", True),
    ), key="id", indexes=(Index("sign_in_sessions_by_user", "user_id"),), copied=False),
    Table("sign_in_failures", (
        Column("key", "text", True, primary=True), Column("failures", "integer", True, "0"),
        Column("wait_until", "real", True, "0"), Column("unrecorded", "integer", True, "0"),
        Column("recorded_at", "real", True, "0"),
    ), key="key", copied=False),
    Table("audit_head", (
        Column("id", "integer", True, primary=True, check="id = 1"), Column("last_id", "integer", True),
        _text("hash", True), Column("checked_id", "integer", True, "0"), _text("checked_hash", True, "''"),
    ), key="id", copied=False),
    # One event for one receiver (store.webhooks), from before its first attempt: not copied, so that a copy (a
    # backup, a move to PostgreSQL) opened by another process never sends an event a second time.
    Table("webhook_deliveries", (
        _id(), _text("event_id", True), _text("event", True), _text("url", True), Column("body", "bytes", True),
        _text("created_at", True), Column("created_seconds", "real", True), Column("attempts", "integer", True, "0"),
        _text("last_status"), Column("next_attempt_at", "real", True), _text("delivered_at"), _text("gave_up_at"),
        _text("holder"), Column("held_until", "real"),
    ), key="id", unique=("event_id, url",),
       indexes=(Index("webhook_deliveries_pending", "next_attempt_at", "delivered_at IS NULL AND gave_up_at IS NULL"),),
       copied=False),
    Table("notifications", (
        _id(), Column("user_id", "integer", True, references="users(id)"),
        Column("chat_id", "integer", references="chats(chat_id)"), _text("text", True), _text("about"),
        _text("created_at", True),
    ), key="id", indexes=(Index("notifications_by_user", "user_id, id"), Index("notifications_by_chat", "chat_id"))),
)  # fmt: skip

BY_NAME = {table.name: table for table in TABLES}
