"""The chat history as a whole, for `python main.py db …`: upgrading its schema, and copying it into another.

A history is named as the settings name it (DATABASE_URL, or the SQLite file at CHAT_HISTORY_DB_PATH),
or, for a copy, by a SQLite URL (`sqlite:///relative/path`, `sqlite:////absolute/path`), a plain file
path, a `postgresql://` URL, or `env:NAME` for the URL in the environment variable NAME (a password on the
command line is in the process list, for every user of the computer to read).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from app.configuration.settings import check_paths, load_settings
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

_OTHER_SCHEME = re.compile(r"[A-Za-z][\w+.-]+:/")  # `mysql://`, `postgressql:/`: a URL, never a file's name
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


def from_environment(text: str, environ: Mapping[str, str] | None = None) -> str:
    """The history `text` names: `env:NAME` is the value of the environment variable NAME; anything else is
    itself. ValueError in one sentence when the variable is not set."""
    if not text.startswith("env:"):
        return text
    name = text.removeprefix("env:")
    value = (os.environ if environ is None else environ).get(name, "").strip()
    if not value:
        raise ValueError(f"The environment variable {name} is not set; export it with the chat history's URL.")
    return value


def password_written(text: str) -> bool:
    """Whether `text`, as typed on a command line, carries a password (whatever the URL's shape)."""
    return redact_url(text) != text


def copy(source: str, target: str, progress: Progress | None = None) -> str:
    """Copy every workspace (and the memory and document index) from `source` into the empty `target`; one
    sentence saying what was copied. HistoryError, or ValueError for a source or target that cannot be, says
    in one sentence why nothing was."""
    for side in (source, target):
        if _OTHER_SCHEME.match(side) and not is_postgres_url(side) and not side.startswith("sqlite:///"):
            raise ValueError(
                f"{shown(side)} is neither a file, a sqlite:/// URL nor a postgresql:// URL; correct its beginning."
            )
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
    _record_the_copy(source, target, counts)
    return f"Copied {counts} into {where}; the counts match the source's."


def _record_the_copy(source: str, target: str, counts: str) -> None:
    """A record in each history's audit trail where it has users: the copy read every workspace of one and wrote
    them into the other."""
    for here, there, action in ((source, target, "history copied out"), (target, source, "history copied in")):
        store = ChatHistoryDB(here)
        try:
            if store.list_users():
                from app.accounts.audit_trail import SERVER_OWNER  # noqa: PLC0415 - an office's only (140 ms)

                where = "to" if action.endswith("out") else "from"
                store.append_audit(SERVER_OWNER, action, detail=f"{where} {shown(there)}: {counts}")
        finally:
            store.close()


def _same(source: str, target: str) -> bool:
    if is_postgres_url(source) or is_postgres_url(target):
        return source.strip() == target.strip()
    first, second = sqlite_path(source), sqlite_path(target)
    return first.exists() and second.exists() and first.resolve() == second.resolve()


__all__ = ["HistoryError", "copy", "upgrade"]
