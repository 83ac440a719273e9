"""Opening the application service for a terminal face (the CLI, the protocol server): the settings,
the `.env` file and the face's flags, or the exit code and the one sentence that say why not."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from app import Application, HistoryError, SettingsError, start, store_choice
from faces.exit_codes import EXIT_FAILED, EXIT_USAGE

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
    own commands: users, shares, the audit trail, verify) it refuses to make a new one instead of writing into it.
    """
    if env_file is not None and not Path(env_file).is_file():
        stderr.write(f"The settings file {env_file} does not exist; name an existing file with --env-file.\n")
        return EXIT_USAGE
    # --db names a SQLite file, which then wins over DATABASE_URL as over CHAT_HISTORY_DB_PATH
    overrides = {"model": model, "endpoint": server, "chat_history_db_path": db, "database_url": "" if db else None}
    try:
        choice = store_choice(Path(env_file or ".env"), overrides)
        if not choice.configured and existing and not choice.exists:
            stderr.write(
                f"There is no chat history here to use: {NOTHING_CHOSE}, and {choice.described} does not exist. "
                "Run the command in the folder of the server's .env, or give --env-file, --db or DATABASE_URL; "
                "nothing was created.\n"
            )
            return EXIT_USAGE
        if not choice.configured and (existing or not choice.exists):  # the chat says so when it makes one
            made = "Using" if choice.exists else "Made a new chat history:"
            stderr.write(f"{made} {choice.described} ({NOTHING_CHOSE}).\n")
        return start(Path(env_file or ".env"), overrides)
    except SettingsError as error:
        stderr.write(f"{error}\n")
        return EXIT_USAGE
    except HistoryError as error:
        stderr.write(f"{error}\n")
        return EXIT_FAILED
