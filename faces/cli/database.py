"""`python main.py db upgrade` and `python main.py db copy --from SOURCE --to TARGET`: the chat history as a whole.

`upgrade` applies the pending schema migrations to the history the settings name (start-up applies them
too); `copy` moves every workspace from one history into another, empty one: from laptops' SQLite files
to the office's PostgreSQL, or from the server back to a SQLite file. Either side left out is the history
the settings name (DATABASE_URL from the environment or `.env`), and `env:NAME` reads a URL from the
environment, so that no password need stand on the command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from app import HistoryError, SettingsError
from app.database import configured, copy, from_environment, password_written, upgrade
from faces.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE

EVERY_ROWS = 100_000  # a progress line at least this often


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="main.py db", description="The chat history as a whole.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{upgrade,copy}")
    up = commands.add_parser("upgrade", help="apply the pending schema migrations (start-up applies them too)")
    up.add_argument("--db", help="chat history file (overrides CHAT_HISTORY_DB_PATH and DATABASE_URL)")
    up.add_argument("--env-file", help="settings file, which must exist (default: .env, if there is one)")
    copying = commands.add_parser(
        "copy",
        help="copy every workspace into another, empty chat history",
        epilog="A side left out is the chat history the settings name (DATABASE_URL, from the environment or the "
        "settings file, else CHAT_HISTORY_DB_PATH). A password written on the command line can be read by every "
        "user of this computer in the process list: keep it in DATABASE_URL or write env:NAME.",
    )
    where = (
        "sqlite:///relative/path, sqlite:////absolute/path, a file path, postgresql://USER:PASSWORD@HOST:PORT/DB, "
        "or env:NAME for the URL in the environment variable NAME (default: the settings' chat history)"
    )
    copying.add_argument("--from", dest="source", metavar="SOURCE", help=where)
    copying.add_argument("--to", dest="target", metavar="TARGET", help=where)
    copying.add_argument("--env-file", help="settings file, which must exist (default: .env, if there is one)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = parse_args(argv)
    if args.env_file is not None and not Path(args.env_file).is_file():
        stderr.write(f"The settings file {args.env_file} does not exist; name an existing file with --env-file.\n")
        return EXIT_USAGE
    try:
        if args.command == "upgrade":
            said = upgrade(configured(Path(args.env_file or ".env"), args.db))
        else:
            source, target = _sides(args, stderr)
            said = copy(source, target, _progress(stderr))
    except (SettingsError, ValueError) as error:
        stderr.write(f"{error}\n")
        return EXIT_USAGE
    except (HistoryError, FileExistsError) as error:
        stderr.write(f"{error}\n")
        return EXIT_FAILED
    stdout.write(f"{said}\n")
    return EXIT_OK


def _sides(args: argparse.Namespace, stderr: TextIO) -> tuple[str, str]:
    """The two histories of a copy: as written, from the environment (`env:NAME`), or the settings' own; a
    warning for a password written on the command line. ValueError when both sides are left out."""
    if args.source is None and args.target is None:
        raise ValueError("Name at least one side of the copy with --from or --to (the other is the settings' history).")
    for flag, written in (("--from", args.source), ("--to", args.target)):
        if written is not None and password_written(written):
            stderr.write(
                f"The password given with {flag} can be read by every user of this computer in the process list; "
                "keep the URL in DATABASE_URL (in the environment or .env) or in a variable named with env:NAME.\n"
            )
    settings = Path(args.env_file or ".env")
    source = from_environment(args.source) if args.source is not None else str(configured(settings, None))
    target = from_environment(args.target) if args.target is not None else str(configured(settings, None))
    return source, target


def _progress(stderr: TextIO) -> Callable[[str, int, int], None]:
    """A line on standard error as each table is copied (a million turns take minutes)."""
    shown: dict[str, int] = {}

    def say(table: str, done: int, total: int) -> None:
        if done == total or done - shown.get(table, 0) >= EVERY_ROWS:
            shown[table] = done
            stderr.write(f"Copying {table}: {done:,} of {total:,} rows…\n")
            stderr.flush()

    return say
