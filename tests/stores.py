"""Looking into a store over a connection of the test's own, whichever the backend."""

from __future__ import annotations

import sqlite3
from typing import Any

from store import is_postgres_url


def raw_rows(target: str, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows `sql` (with `?` placeholders) reads from the store at `target`, as a new connection sees them."""
    if is_postgres_url(target):
        import psycopg

        with psycopg.connect(target) as connection:
            return [tuple(row) for row in connection.execute(sql.replace("?", "%s"), parameters).fetchall()]
    raw = sqlite3.connect(target)
    try:
        return raw.execute(sql, parameters).fetchall()
    finally:
        raw.close()


def raw_write(target: str, sql: str, parameters: tuple[Any, ...] = ()) -> None:
    """Run `sql` (with `?` placeholders) on the store at `target` over a connection of the test's own, and commit:
    what someone with the database's file or password could do behind the application's back."""
    if is_postgres_url(target):
        import psycopg

        with psycopg.connect(target) as connection:
            connection.execute(sql.replace("?", "%s"), parameters)
        return
    raw = sqlite3.connect(target)
    try:
        with raw:
            raw.execute(sql, parameters)
    finally:
        raw.close()
