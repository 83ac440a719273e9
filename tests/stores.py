"""Looking into a store over a connection of the test's own, whichever the backend."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from store import is_postgres_url

if TYPE_CHECKING:
    from history import ChatHistoryDB


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


def write_transactions(store: ChatHistoryDB) -> list[bool]:
    """From now on, each write transaction `store` opens, as whether it is flushed (True) or not: every write of the
    store goes through its `_writing`."""
    opened: list[bool] = []
    opening = store._writing  # noqa: SLF001

    def counted(flushed: bool = True) -> object:
        opened.append(flushed)
        return opening(flushed)

    store._writing = counted  # type: ignore[method-assign,assignment]  # noqa: SLF001
    return opened
