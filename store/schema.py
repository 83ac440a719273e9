"""The SQLite chat history's schema: ordered migrations, each a small function, versioned by `PRAGMA user_version`.

Only the store uses this module (`store.sqlite_connection`); it runs every migration above a
file's version inside one `BEGIN IMMEDIATE` transaction each. The first 14 are frozen history (files made by
them exist); every later one is a change declared once in `store.changes` from the tables of `store.tables`,
which PostgreSQL's schema (`store.postgres_schema`) makes the same way.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from store.account_schema import ACCOUNT_TABLES
from store.changes import migrations
from store.sql import timestamp

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "timestamp"]


def create_seed_tables(db: sqlite3.Connection) -> None:
    """Version 1: the first version's two tables, exactly as it created them."""
    db.execute(
        """CREATE TABLE IF NOT EXISTS chats (
            chat_id INTEGER PRIMARY KEY AUTOINCREMENT,
            chat_name TEXT NOT NULL,
            created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
            context_summary TEXT DEFAULT NULL,
            context_updated_at TIMESTAMP DEFAULT NULL)"""
    )
    db.execute(
        """CREATE TABLE IF NOT EXISTS history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            chat_id INTEGER NOT NULL,
            user TEXT NOT NULL,
            assistant TEXT NOT NULL,
            FOREIGN KEY(chat_id) REFERENCES chats(chat_id) ON DELETE CASCADE)"""
    )


def add_audit_trail(db: sqlite3.Connection) -> None:
    """Version 2: per-turn time, usage and status; tool calls; exact activity order."""
    for statement in (
        "ALTER TABLE chats ADD COLUMN last_active_at TEXT",
        "ALTER TABLE chats ADD COLUMN activity_seq INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE chats ADD COLUMN summary_turn_id INTEGER",
        "ALTER TABLE history ADD COLUMN created_at TEXT",
        "ALTER TABLE history ADD COLUMN status TEXT NOT NULL DEFAULT 'complete'",
        "ALTER TABLE history ADD COLUMN model TEXT",
        "ALTER TABLE history ADD COLUMN prompt_tokens INTEGER",
        "ALTER TABLE history ADD COLUMN completion_tokens INTEGER",
        "ALTER TABLE history ADD COLUMN duration_ms REAL",
        "ALTER TABLE history ADD COLUMN error TEXT",
        """CREATE TABLE tool_calls (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            turn_id INTEGER NOT NULL REFERENCES history(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            arguments TEXT NOT NULL,
            output TEXT NOT NULL,
            error TEXT,
            duration_ms REAL NOT NULL DEFAULT 0,
            UNIQUE (turn_id, position))""",
        "CREATE INDEX history_by_chat ON history(chat_id, id)",
        "CREATE INDEX chats_by_activity ON chats(activity_seq)",
    ):
        db.execute(statement)
    # Files from the first version: a summary covered every turn (it was rebuilt on each
    # switch), and workspaces are ordered by their latest turn.
    db.execute(
        """UPDATE chats SET last_active_at = created_at,
               summary_turn_id = CASE WHEN context_summary IS NULL THEN NULL
                   ELSE (SELECT MAX(id) FROM history WHERE history.chat_id = chats.chat_id) END"""
    )
    latest = db.execute(
        """SELECT chat_id FROM chats
           ORDER BY COALESCE((SELECT MAX(id) FROM history WHERE history.chat_id = chats.chat_id), 0), chat_id"""
    ).fetchall()
    db.executemany(
        "UPDATE chats SET activity_seq = ? WHERE chat_id = ?",
        [(sequence, chat_id) for sequence, (chat_id,) in enumerate(latest, start=1)],
    )


def add_full_text_search(db: sqlite3.Connection) -> None:
    """Version 3: an FTS5 index over every turn's text, kept in step by triggers."""
    for statement in (
        """CREATE VIRTUAL TABLE history_fts USING fts5(
               user, assistant, content='history', content_rowid='id',
               tokenize='unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER history_fts_insert AFTER INSERT ON history BEGIN
               INSERT INTO history_fts(rowid, user, assistant) VALUES (new.id, new.user, new.assistant);
           END""",
        """CREATE TRIGGER history_fts_delete AFTER DELETE ON history BEGIN
               INSERT INTO history_fts(history_fts, rowid, user, assistant)
               VALUES ('delete', old.id, old.user, old.assistant);
           END""",
        """CREATE TRIGGER history_fts_update AFTER UPDATE OF user, assistant ON history BEGIN
               INSERT INTO history_fts(history_fts, rowid, user, assistant)
               VALUES ('delete', old.id, old.user, old.assistant);
               INSERT INTO history_fts(rowid, user, assistant) VALUES (new.id, new.user, new.assistant);
           END""",
        "INSERT INTO history_fts(history_fts) VALUES ('rebuild')",
    ):
        db.execute(statement)


def add_calculation_data(db: sqlite3.Connection) -> None:
    """Version 4: a calculation's full result (precise values, formula, diagram) beside its tool call."""
    db.execute("ALTER TABLE tool_calls ADD COLUMN data TEXT")


def add_file_edits(db: sqlite3.Connection) -> None:
    """Version 5: file edits the model asked for, with the bytes before (for undo) and after."""
    db.execute(
        """CREATE TABLE file_edits (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            chat_id INTEGER NOT NULL REFERENCES chats(chat_id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            before BLOB,
            after BLOB NOT NULL,
            status TEXT NOT NULL,
            created_at TEXT NOT NULL,
            decided_at TEXT)"""
    )
    db.execute("CREATE INDEX file_edits_by_chat ON file_edits(chat_id, id)")


def add_thinking(db: sqlite3.Connection) -> None:
    """Version 6: a thinking model's reasoning, kept apart from the answer."""
    db.execute("ALTER TABLE history ADD COLUMN thinking TEXT")


def search_by_workspace(db: sqlite3.Connection) -> None:
    """Version 7: the full-text index knows each turn's workspace, and the words it holds are listed.

    A search then asks each workspace for its newest matching turn (FTS5 joins the
    workspace's postings with the words' in the index, whatever their sizes), and
    expands a typed prefix into whole indexed words instead of FTS5's prefix
    queries, which merge every matching posting first. The index is rebuilt once
    here (about half a minute for a million turns).
    """
    for statement in (
        "DROP TRIGGER history_fts_insert",
        "DROP TRIGGER history_fts_delete",
        "DROP TRIGGER history_fts_update",
        "DROP TABLE history_fts",
        "ALTER TABLE history ADD COLUMN workspace TEXT GENERATED ALWAYS AS ('w' || chat_id) VIRTUAL",
        """CREATE VIRTUAL TABLE turn_search USING fts5(
               user, assistant, workspace, content='history', content_rowid='id',
               tokenize='unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER turn_search_insert AFTER INSERT ON history BEGIN
               INSERT INTO turn_search(rowid, user, assistant, workspace)
               VALUES (new.id, new.user, new.assistant, new.workspace);
           END""",
        """CREATE TRIGGER turn_search_delete AFTER DELETE ON history BEGIN
               INSERT INTO turn_search(turn_search, rowid, user, assistant, workspace)
               VALUES ('delete', old.id, old.user, old.assistant, old.workspace);
           END""",
        """CREATE TRIGGER turn_search_update AFTER UPDATE OF user, assistant, chat_id ON history BEGIN
               INSERT INTO turn_search(turn_search, rowid, user, assistant, workspace)
               VALUES ('delete', old.id, old.user, old.assistant, old.workspace);
               INSERT INTO turn_search(rowid, user, assistant, workspace)
               VALUES (new.id, new.user, new.assistant, new.workspace);
           END""",
        "INSERT INTO turn_search(turn_search) VALUES ('rebuild')",
        "CREATE TABLE search_terms (term TEXT PRIMARY KEY) WITHOUT ROWID",
        "CREATE VIRTUAL TABLE temp.indexed_terms USING fts5vocab(main, turn_search, 'row')",
        "INSERT INTO search_terms (term) SELECT term FROM temp.indexed_terms",
        "DROP TABLE temp.indexed_terms",
    ):
        db.execute(statement)


def add_document_index(db: sqlite3.Connection) -> None:
    """Version 8: the workspace folder's documents, their passages (FTS5, Porter stemming) and embeddings."""
    for statement in (
        """CREATE TABLE documents (
            path TEXT PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            status TEXT NOT NULL,
            note TEXT NOT NULL DEFAULT '',
            passages INTEGER NOT NULL DEFAULT 0,
            indexed_at TEXT)""",
        """CREATE TABLE passages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            path TEXT NOT NULL REFERENCES documents(path) ON DELETE CASCADE,
            page INTEGER,
            location TEXT NOT NULL,
            text TEXT NOT NULL,
            embedding BLOB,
            embedding_model TEXT)""",
        "CREATE INDEX passages_by_path ON passages(path)",
        """CREATE VIRTUAL TABLE passage_search USING fts5(
               text, location, content='passages', content_rowid='id',
               tokenize='porter unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER passage_search_insert AFTER INSERT ON passages BEGIN
               INSERT INTO passage_search(rowid, text, location) VALUES (new.id, new.text, new.location);
           END""",
        """CREATE TRIGGER passage_search_delete AFTER DELETE ON passages BEGIN
               INSERT INTO passage_search(passage_search, rowid, text, location)
               VALUES ('delete', old.id, old.text, old.location);
           END""",
    ):
        db.execute(statement)


def add_memory(db: sqlite3.Connection) -> None:
    """Version 9: what the assistant remembers about the user across workspaces, searchable."""
    for statement in (
        """CREATE TABLE memories (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            text TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL)""",
        """CREATE VIRTUAL TABLE memory_search USING fts5(
               text, content='memories', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')""",
        """CREATE TRIGGER memory_search_insert AFTER INSERT ON memories BEGIN
               INSERT INTO memory_search(rowid, text) VALUES (new.id, new.text);
           END""",
        """CREATE TRIGGER memory_search_delete AFTER DELETE ON memories BEGIN
               INSERT INTO memory_search(memory_search, rowid, text) VALUES ('delete', old.id, old.text);
           END""",
        """CREATE TRIGGER memory_search_update AFTER UPDATE OF text ON memories BEGIN
               INSERT INTO memory_search(memory_search, rowid, text) VALUES ('delete', old.id, old.text);
               INSERT INTO memory_search(rowid, text) VALUES (new.id, new.text);
           END""",
    ):
        db.execute(statement)


def add_workspace_agent(db: sqlite3.Connection) -> None:
    """Version 10: the agent each workspace works with."""
    db.execute("ALTER TABLE chats ADD COLUMN agent TEXT")


def add_calculation_packages(db: sqlite3.Connection) -> None:
    """Version 11: who asked each turn, each workspace's project details, and the package revisions signed off.

    A revision is stored once checked; approval adds its PDF's bytes and SHA-256 (indexed, so that a file sent
    back can be recognised). The workspace's name, the project details and the calculations are kept as the
    revision printed them.
    """
    for statement in (
        "ALTER TABLE history ADD COLUMN asked_by TEXT",
        """CREATE TABLE project_details (
            chat_id INTEGER PRIMARY KEY REFERENCES chats(chat_id) ON DELETE CASCADE,
            project_name TEXT NOT NULL DEFAULT '',
            project_number TEXT NOT NULL DEFAULT '',
            client TEXT NOT NULL DEFAULT '',
            description TEXT NOT NULL DEFAULT '',
            updated_at TEXT NOT NULL)""",
        """CREATE TABLE package_revisions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            chat_id INTEGER NOT NULL REFERENCES chats(chat_id) ON DELETE CASCADE,
            letter TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('checked', 'approved')),
            workspace_name TEXT NOT NULL,
            records_digest TEXT NOT NULL,
            details TEXT NOT NULL,
            sheets TEXT NOT NULL,
            checked_by TEXT NOT NULL,
            checked_at TEXT NOT NULL,
            checked_note TEXT NOT NULL DEFAULT '',
            approved_by TEXT,
            approved_at TEXT,
            approved_note TEXT NOT NULL DEFAULT '',
            pdf BLOB,
            sha256 TEXT,
            UNIQUE (chat_id, letter))""",
        "CREATE INDEX package_revisions_by_sha256 ON package_revisions(sha256) WHERE sha256 IS NOT NULL",
    ):
        db.execute(statement)


def add_turn_counts(db: sqlite3.Connection) -> None:
    """Version 12: each workspace keeps its number of turns, so asking it reads one row, not the history.

    Triggers keep the count in the transaction that adds, deletes or moves a turn,
    whoever writes it; the upgrade counts the turns already there once.
    """
    for statement in (
        "ALTER TABLE chats ADD COLUMN turn_count INTEGER NOT NULL DEFAULT 0",
        """CREATE TRIGGER turn_count_insert AFTER INSERT ON history BEGIN
               UPDATE chats SET turn_count = turn_count + 1 WHERE chat_id = new.chat_id;
           END""",
        """CREATE TRIGGER turn_count_delete AFTER DELETE ON history BEGIN
               UPDATE chats SET turn_count = turn_count - 1 WHERE chat_id = old.chat_id;
           END""",
        """CREATE TRIGGER turn_count_move AFTER UPDATE OF chat_id ON history WHEN old.chat_id != new.chat_id BEGIN
               UPDATE chats SET turn_count = turn_count - 1 WHERE chat_id = old.chat_id;
               UPDATE chats SET turn_count = turn_count + 1 WHERE chat_id = new.chat_id;
           END""",
        "UPDATE chats SET turn_count = (SELECT COUNT(*) FROM history WHERE history.chat_id = chats.chat_id)",
    ):
        db.execute(statement)


def add_leases(db: sqlite3.Connection) -> None:
    """Version 13: claims on work that one process of several does at a time, and turns while they run.

    A claim (a workspace's summary being written, the workspace folder being indexed) and a running
    turn belong to the store that made them until `expires_at` (the database's clock, in seconds): the
    owner renews it while it works, and a claim or turn whose owner stopped renewing is free, or
    stored as stopped, for whoever notices.
    """
    for statement in (
        """CREATE TABLE claims (
            name TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            expires_at REAL NOT NULL)""",
        """CREATE TABLE running_turns (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            chat_id INTEGER NOT NULL REFERENCES chats(chat_id) ON DELETE CASCADE,
            user TEXT NOT NULL,
            model TEXT,
            asked_by TEXT,
            created_at TEXT NOT NULL,
            owner TEXT NOT NULL,
            expires_at REAL NOT NULL)""",
        "CREATE INDEX running_turns_by_expiry ON running_turns(expires_at)",
    ):
        db.execute(statement)


def add_accounts(db: sqlite3.Connection) -> None:
    """Version 14: users, their API keys, workspace owners and shares, and the audit trail with its head.

    A share's `user_id` 0 is everyone in the office. The audit trail keeps the workspace's id and name as
    they were (no foreign key: a deleted workspace's records stay), and its head is one row apart.
    """
    for statement in ACCOUNT_TABLES:
        db.execute(statement)


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    create_seed_tables,
    add_audit_trail,
    add_full_text_search,
    add_calculation_data,
    add_file_edits,
    add_thinking,
    search_by_workspace,
    add_document_index,
    add_memory,
    add_workspace_agent,
    add_calculation_packages,
    add_turn_counts,
    add_leases,
    add_accounts,
    *migrations("sqlite"),
]
SCHEMA_VERSION = len(MIGRATIONS)
