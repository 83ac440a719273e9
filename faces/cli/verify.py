"""`python main.py verify FILE.pdf`: is this PDF a calculation package issued from this chat history?

It compares the file's SHA-256 with the PDFs frozen when revisions were approved: 0 and which workspace and
revision it is, or 1 when it matches none (it was not issued here, or it was changed after it was issued). It opens
the chat history for that lookup alone (`app.verification`): no agent, tools or document index.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import TextIO

from app import HistoryError, issued_revision
from faces.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from faces.opening import existing_history_or_exit


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="main.py verify", description="Check a calculation package PDF against the revisions issued here."
    )
    parser.add_argument("file", help="the PDF to check")
    parser.add_argument("--db", help="chat history file (overrides CHAT_HISTORY_DB_PATH)")
    parser.add_argument("--env-file", help="settings file, which must exist (default: .env, if there is one)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = parse_args(argv)
    path = Path(args.file).expanduser()
    try:
        data = path.read_bytes()
    except OSError as error:
        stderr.write(f"{path} cannot be read ({error.strerror or error}); give the path of the PDF to check.\n")
        return EXIT_USAGE
    place = existing_history_or_exit(args.env_file, args.db, stderr)
    if isinstance(place, int):
        return place
    try:
        match = issued_revision(place.target, data)
    except HistoryError as error:
        stderr.write(f"{error}\n")
        return EXIT_FAILED
    digest = hashlib.sha256(data).hexdigest()
    if match is None:
        stdout.write(
            f"{path} matches no calculation package issued here (SHA-256 {digest}): it was not issued from this "
            "chat history, or it was changed after it was issued.\n"
        )
        return EXIT_FAILED
    stdout.write(
        f"{path} is revision {match.letter} of the calculation package of workspace {match.workspace_name!r}, "
        f"approved by {match.approved_by} on {match.approved_at[:16]} UTC (SHA-256 {digest}).\n"
    )
    return EXIT_OK
