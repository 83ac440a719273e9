"""Opening the application service for a terminal face (the CLI, the protocol server): the settings,
the `.env` file and the face's flags, or the exit code and the one sentence that say why not."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from app import HistoryError, HistoryPlace, SettingsError, check_history_file, history_place
from faces.exit_codes import EXIT_FAILED, EXIT_USAGE

if TYPE_CHECKING:
    from app import Application

NOTHING_CHOSE = "there is no .env here, and neither DATABASE_URL nor CHAT_HISTORY_DB_PATH is set"


def start_or_exit(
    env_file: str | None,
    model: str | None,
    server: str | None,
    db: str | None,
    stderr: TextIO,
    existing: bool = False,
) -> Application | int:
    """The service, or EXIT_USAGE for a bad setting and EXIT_FAILED for a chat history that cannot be opened.

    `env_file` None reads `.env` if there is one; a file named with `--env-file` must exist. When nothing chose the
    chat history (no `.env`, no setting, no flag), the command says which it uses; with `existing` (the server's
    own commands: users, shares, the audit trail) it refuses to make a new one instead of writing into it.
    """
    from app import start, store_choice

    if not _settings_file_exists(env_file, stderr):
        return EXIT_USAGE
    # --db names a SQLite file, which then wins over DATABASE_URL as over CHAT_HISTORY_DB_PATH
    overrides = {"model": model, "endpoint": server, "chat_history_db_path": db, "database_url": "" if db else None}
    try:
        choice = store_choice(Path(env_file or ".env"), overrides)
        if _refused(choice.described, choice.configured, choice.exists, existing, stderr):
            return EXIT_USAGE
        return start(Path(env_file or ".env"), overrides)
    except SettingsError as error:
        stderr.write(f"{error}\n")
        return EXIT_USAGE
    except HistoryError as error:
        stderr.write(f"{error}\n")
        return EXIT_FAILED


def existing_history_or_exit(env_file: str | None, db: str | None, stderr: TextIO) -> HistoryPlace | int:
    """The chat history an existing one of the server's own commands reads (`verify`), named as `start_or_exit`
    names it and said or refused the same way, without opening the rest of the application; or EXIT_USAGE."""
    if not _settings_file_exists(env_file, stderr):
        return EXIT_USAGE
    try:
        place = history_place(Path(env_file or ".env"), db)
        if _refused(place.described, place.configured, place.exists, True, stderr):
            return EXIT_USAGE
        if isinstance(place.target, Path):
            check_history_file(place.target)
        return place
    except SettingsError as error:
        stderr.write(f"{error}\n")
        return EXIT_USAGE


def _settings_file_exists(env_file: str | None, stderr: TextIO) -> bool:
    if env_file is not None and not Path(env_file).is_file():
        stderr.write(f"The settings file {env_file} does not exist; name an existing file with --env-file.\n")
        return False
    return True


def _refused(described: str, configured: bool, exists: bool, existing: bool, stderr: TextIO) -> bool:
    """Say which chat history is used when nothing chose it; refuse (True) to make a new one for `existing`."""
    if not configured and existing and not exists:
        stderr.write(
            f"There is no chat history here to use: {NOTHING_CHOSE}, and {described} does not exist. "
            "Run the command in the folder of the server's .env, or give --env-file, --db or DATABASE_URL; "
            "nothing was created.\n"
        )
        return True
    if not configured and (existing or not exists):  # the chat says so when it makes one
        made = "Using" if exists else "Made a new chat history:"
        stderr.write(f"{made} {described} ({NOTHING_CHOSE}).\n")
    return False
