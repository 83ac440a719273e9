"""Where the chat history is, read as the settings read it (`app.configuration.settings`: the command's flag, the
environment, `.env`, the defaults, in that order, with the same checks and the same sentences), without the rest of the
settings or their validation: for `python main.py verify`, which only looks a file up in the chat history and so loads
nothing else (the settings' validation alone costs it more than the lookup)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from store.postgres_url import parse_postgres_url, redact_url

DATABASE_URL_ALLOWED = "empty (SQLite at CHAT_HISTORY_DB_PATH) or postgresql://USER:PASSWORD@HOST:PORT/DB"
DEFAULT_HISTORY = Path("chat_history.sqlite")
KEYS = ("CHAT_HISTORY_DB_PATH", "DATABASE_URL")


class SettingsError(ValueError):
    """A setting has a value the application cannot use."""


@dataclass(frozen=True)
class HistoryPlace:
    """The chat history a command opens (`target`), said in words, whether anything chose it (`.env`, the
    environment or a flag; else it is the default file in the current folder) and whether it exists already."""

    target: str | Path
    described: str
    configured: bool
    exists: bool


def read_env_file(env_file: Path | None) -> dict[str, str]:
    if env_file is None or not env_file.is_file():
        return {}
    from dotenv import dotenv_values  # only paid for when a .env exists

    return {key: value for key, value in dotenv_values(env_file).items() if value is not None}


def history_place(env_file: Path | None, db: str | None, environ: Mapping[str, str] | None = None) -> HistoryPlace:
    """The chat history `load_settings` would name with `--db` = `db` (which wins over DATABASE_URL as over
    CHAT_HISTORY_DB_PATH); SettingsError says what is wrong with DATABASE_URL. A file's place is checked with
    `check_history_file`, as the settings' `check_paths` checks it, before it is opened."""
    environ = os.environ if environ is None else environ
    from_file = read_env_file(env_file)
    raw = {key: value for source in (from_file, environ) for key, value in source.items() if key in KEYS}
    if db is not None:
        raw["CHAT_HISTORY_DB_PATH"] = db
    if db:
        raw["DATABASE_URL"] = ""
    url = raw.get("DATABASE_URL", "").strip()
    if url:
        try:
            parse_postgres_url(url)
        except ValueError:
            shown = redact_url(raw["DATABASE_URL"])[:80]  # a password is never shown
            raise SettingsError(
                f"Setting DATABASE_URL has the value {shown!r}, which is not allowed: use {DATABASE_URL_ALLOWED}."
            ) from None
        return HistoryPlace(url, f"the PostgreSQL database {redact_url(url)}", True, True)
    path = Path(raw.get("CHAT_HISTORY_DB_PATH", str(DEFAULT_HISTORY)).strip()).expanduser()
    named = any(environ.get(key) for key in KEYS) or any(from_file.get(key) for key in KEYS) or bool(db)
    return HistoryPlace(path, f"the chat history file {path.absolute()}", named, path.absolute().exists())


def check_history_file(history: Path) -> None:
    """Refuse a chat history that is a folder, or in a folder that does not exist (a mistyped path would make
    folders and an empty history)."""
    if history.is_dir():
        raise SettingsError(f"CHAT_HISTORY_DB_PATH {history} is a folder; name a file in it.")
    if not history.absolute().parent.is_dir():
        raise SettingsError(
            f"CHAT_HISTORY_DB_PATH (or --db) {history} is in a folder that does not exist; "
            "check the path, or create the folder first."
        )
