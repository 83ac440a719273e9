"""Both backends end with the tables and columns `store.tables` declares, whatever migrations made them; and the
declared definitions are what SQLite's frozen history made (a column declared otherwise would migrate differently
on a new database than on an old one)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from store import ChatHistoryDB
from store.ddl import create_table
from store.tables import TABLES

# The first version's table took its time by default; every version since writes it (and PostgreSQL has none).
SEED_DEFAULTS = {("chats", "created_at"), ("chats", "context_summary"), ("chats", "context_updated_at")}
# What each backend keeps for itself beside the declared columns (full-text words, SQLite's generated column).
BACKEND_OWN: dict[str, dict[str, set[str]]] = {
    "sqlite": {"history": {"workspace"}},
    "postgres": {"passages": {"words"}, "memories": {"words"}},
}


def _catalogue(store_target: str) -> dict[str, list[tuple[str, bool]]]:
    """Each table's columns in order, with whether each is NOT NULL, as the database itself describes them."""
    if store_target.startswith("postgresql"):
        import psycopg

        with psycopg.connect(store_target) as connection:
            rows = connection.execute(
                """SELECT table_name, column_name, is_nullable = 'NO' FROM information_schema.columns
                   WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"""
            ).fetchall()
    else:
        with sqlite3.connect(store_target) as connection:
            names = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            rows = [
                (table, column[1], bool(column[3]) or bool(column[5]))
                for table in names
                for column in connection.execute(f'PRAGMA table_xinfo("{table}")')  # noqa: S608 - the catalogue's
            ]
    found: dict[str, list[tuple[str, bool]]] = {}
    for table, column, required in rows:
        found.setdefault(str(table), []).append((str(column), bool(required)))
    return found


def test_both_backends_hold_exactly_the_declared_tables_and_columns(store_target: str) -> None:
    ChatHistoryDB(store_target).close()
    backend = "postgres" if store_target.startswith("postgresql") else "sqlite"
    found = _catalogue(store_target)
    for table in TABLES:
        assert table.name in found, f"{table.name} is declared but {backend} has no such table"
        own = BACKEND_OWN[backend].get(table.name, set())
        columns = [(name, required) for name, required in found[table.name] if name not in own]
        declared = [(column.name, column.required or column.primary) for column in table.columns]
        assert [name for name, _ in columns] == [name for name, _ in declared], (backend, table.name)
        assert columns == declared, (backend, table.name, "NOT NULL differs")


def _definitions(path: Path) -> dict[str, Any]:
    with sqlite3.connect(path) as connection:
        tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
        return {
            name: [tuple(column[1:6]) for column in connection.execute(f'PRAGMA table_info("{name}")')]  # noqa: S608
            for (name,) in tables
        }


def test_a_table_made_from_its_declaration_is_the_table_sqlite_s_history_made(tmp_path: Path) -> None:
    ChatHistoryDB(tmp_path / "history.sqlite").close()
    made = _definitions(tmp_path / "history.sqlite")
    with sqlite3.connect(tmp_path / "declared.sqlite") as connection:
        for table in TABLES:
            for statement in create_table(table, "sqlite"):
                connection.execute(statement)
    declared = _definitions(tmp_path / "declared.sqlite")
    for table in TABLES:
        kinds = {"INTEGER", "REAL", "TEXT", "BLOB", "TIMESTAMP", ""}
        assert [column[0] for column in made[table.name]] == [column[0] for column in declared[table.name]]
        for was, now in zip(made[table.name], declared[table.name], strict=True):
            required = (was[2] and not was[4], now[2] and not now[4])  # a key is NOT NULL, however it is written
            assert {was[1], now[1]} <= kinds and required[0] == required[1] and was[4] == now[4], (table.name, was, now)
            if (table.name, was[0]) not in SEED_DEFAULTS:
                assert was[3] == now[3], (table.name, was, now, "the default differs")
