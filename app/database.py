"""The chat history as a whole, for `python main.py db …`: upgrading its schema, and copying it into another.

A history is named as the settings name it (DATABASE_URL, or the SQLite file at CHAT_HISTORY_DB_PATH),
or, for a copy, by a SQLite URL (`sqlite:///relative/path`, `sqlite:////absolute/path`), a plain file
path or a `postgresql://` URL.
"""

from __future__ import annotations

from pathlib import Path

from app.settings import check_paths, load_settings
from store import (
    ChatHistoryDB,
    HistoryError,
    Progress,
    copy_history,
    copy_into_new_file,
    is_postgres_url,
    sqlite_path,
)
from store.postgres_url import redact_url

COPIED = ("chats", "history", "tool_calls", "file_edits", "memories", "package_revisions", "passages")
_NAMES = {  # each table's rows, one and many
    "chats": ("workspace", "workspaces"),
    "history": ("turn", "turns"),
    "tool_calls": ("tool call", "tool calls"),
    "file_edits": ("file edit", "file edits"),
    "memories": ("memory", "memories"),
    "package_revisions": ("package revision", "package revisions"),
    "passages": ("document passage", "document passages"),
}


def configured(env_file: Path, db: str | None) -> str | Path:
    """The chat history the settings name (`--db` first, then DATABASE_URL, then CHAT_HISTORY_DB_PATH);
    SettingsError when a setting is wrong."""
    settings = load_settings(
        env_file=env_file, overrides={"chat_history_db_path": db, "database_url": "" if db else None}
    )
    check_paths(settings)
    return settings.store_target


def upgrade(target: str | Path) -> str:
    """Bring the chat history at `target` to this version's schema (opening it does); one sentence saying so."""
    store = ChatHistoryDB(target)
    try:
        found, now, where = store.schema_found, store.schema_version, store.describe()
    finally:
        store.close()
    if found == now:
        return f"The chat history at {where} is already at schema {now}; nothing to upgrade."
    was = "a new chat history" if found == 0 else f"schema {found}"
    return f"Upgraded the chat history at {where} from {was} to schema {now}."


def shown(target: str) -> str:
    return redact_url(target)


def copy(source: str, target: str, progress: Progress | None = None) -> str:
    """Copy every workspace (and the memory and document index) from `source` into the empty `target`; one
    sentence saying what was copied. HistoryError, or ValueError for a source or target that cannot be, says
    in one sentence why nothing was."""
    if not is_postgres_url(source) and not sqlite_path(source).is_file():
        raise ValueError(f"There is no chat history at {shown(source)}; name an existing file or a postgresql:// URL.")
    if _same(source, target):
        raise ValueError("The source and the target are the same chat history; name another target.")
    reading = ChatHistoryDB(source)
    try:
        if not is_postgres_url(target) and not sqlite_path(target).exists():
            copied = copy_into_new_file(reading, sqlite_path(target), progress)
            where = str(sqlite_path(target))
        else:
            writing = ChatHistoryDB(target)
            try:
                copied, where = copy_history(reading, writing, progress), writing.describe()
            finally:
                writing.close()
    finally:
        reading.close()
    counts = ", ".join(f"{copied[table]:,} {_NAMES[table][copied[table] != 1]}" for table in COPIED)
    return f"Copied {counts} into {where}; the counts match the source's."


def _same(source: str, target: str) -> bool:
    if is_postgres_url(source) or is_postgres_url(target):
        return source.strip() == target.strip()
    first, second = sqlite_path(source), sqlite_path(target)
    return first.exists() and second.exists() and first.resolve() == second.resolve()


__all__ = ["HistoryError", "copy", "upgrade"]
