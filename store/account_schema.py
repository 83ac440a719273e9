"""The tables of accounts and the audit trail, in SQLite's terms; `store.postgres_schema` translates the types."""

from __future__ import annotations

ACCOUNT_TABLES = (
    """CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('admin', 'engineer', 'viewer')),
        email TEXT,
        password_hash TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL)""",
    "CREATE UNIQUE INDEX users_by_name ON users (lower(name))",
    "CREATE UNIQUE INDEX users_by_email ON users (lower(email))",
    """CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT)""",
    "CREATE INDEX api_keys_by_user ON api_keys (user_id)",
    """CREATE TABLE workspace_owners (
        chat_id INTEGER PRIMARY KEY REFERENCES chats(chat_id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE)""",
    "CREATE INDEX workspace_owners_by_user ON workspace_owners (user_id)",
    """CREATE TABLE shares (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL REFERENCES chats(chat_id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'editor')),
        UNIQUE (chat_id, user_id))""",
    "CREATE INDEX shares_by_user ON shares (user_id)",
    """CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        user_name TEXT NOT NULL,
        action TEXT NOT NULL,
        chat_id INTEGER,
        workspace_name TEXT,
        detail TEXT NOT NULL DEFAULT '',
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL)""",
    "CREATE INDEX audit_by_chat ON audit (chat_id)",
    """CREATE TABLE audit_head (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last_id INTEGER NOT NULL,
        hash TEXT NOT NULL)""",
    "INSERT INTO audit_head (id, last_id, hash) VALUES (1, 0, '" + "0" * 64 + "')",
)
