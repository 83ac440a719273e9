"""The chat history: every workspace, turn, tool call, summary and file edit, in SQLite or PostgreSQL.

This package owns all SQL in the product, and nothing else opens the database
file. `ChatHistoryDB` keeps the first version's methods (`create_chat`,
`list_chats`, `rename_chat`, `delete_chat`, `load_history`, `add_to_history`,
`clear_history`, `set_context_summary`, `get_context_summary`) with their
meaning, and adds what the application needs. `ChatHistoryDB(path_or_url)` opens
a SQLite file (a path, or `sqlite:///path`) or a PostgreSQL database
(`postgresql://USER:PASSWORD@HOST:PORT/DB`); both are a `ChatHistoryDB`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from store.base import HistoryError
    from store.copying import Progress, copy_history
    from store.history import ChatHistoryDB, PostgresHistoryDB, SqliteHistoryDB, copy_into_new_file
    from store.postgres_url import is_postgres_url
    from store.sqlite_connection import BUSY_TIMEOUT_SECONDS, is_store_file, sqlite_path, store_files

# Each name is imported where it lives when first asked for: opening the store for one lookup
# (`store.issued`) loads none of the parts and none of the records.
_WHERE = {
    "BUSY_TIMEOUT_SECONDS": "store.sqlite_connection",
    "ChatHistoryDB": "store.history",
    "HistoryError": "store.base",
    "PostgresHistoryDB": "store.history",
    "Progress": "store.copying",
    "SqliteHistoryDB": "store.history",
    "copy_history": "store.copying",
    "copy_into_new_file": "store.history",
    "is_postgres_url": "store.postgres_url",
    "is_store_file": "store.sqlite_connection",
    "sqlite_path": "store.sqlite_connection",
    "store_files": "store.sqlite_connection",
}

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "ChatHistoryDB",
    "HistoryError",
    "PostgresHistoryDB",
    "Progress",
    "SqliteHistoryDB",
    "copy_history",
    "copy_into_new_file",
    "is_postgres_url",
    "is_store_file",
    "sqlite_path",
    "store_files",
]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'store' has no attribute {name!r}")
    found = getattr(import_module(where), name)
    globals()[name] = found
    return found
