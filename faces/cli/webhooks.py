"""`python main.py webhooks`: the webhook deliveries, the newest first, one line each: when the event happened, the
event, the full URL, the number of attempts, the last status (an HTTP code, or the error) and where it stands.

    2026-05-01 09:30:12  turn.completed  http://jira.office.local/hook  attempts 3  last 200  delivered

Secrets never appear: a delivery keeps only its body, and the hooks' secrets stay in WEBHOOKS_CONFIG.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from faces import skip_httpx_cli  # noqa: F401 - first, before `app` imports httpx

# isort: split
from app import HistoryError
from app.presentation.formatting import shown_name
from domain.webhooks import WebhookDelivery
from faces.exit_codes import EXIT_FAILED, EXIT_OK
from faces.opening import start_or_exit

LISTED = 100


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="main.py webhooks", description="List the webhook deliveries, newest first.")
    parser.add_argument("--limit", type=int, default=LISTED, help=f"at most this many (default: {LISTED}; 0: all)")
    parser.add_argument("--db", help="chat history file (overrides CHAT_HISTORY_DB_PATH and DATABASE_URL)")
    parser.add_argument("--env-file", help="settings file, which must exist (default: .env, if there is one)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = parse_args(sys.argv[2:] if argv is None else argv)
    service = start_or_exit(args.env_file, None, None, args.db, stderr)
    if isinstance(service, int):
        return service
    try:
        deliveries = service.webhooks.deliveries(args.limit if args.limit > 0 else None)
    except HistoryError as error:
        stderr.write(f"{error}\n")
        return EXIT_FAILED
    finally:
        service.close()
    for delivery in deliveries:
        stdout.write(f"{line(delivery)}\n")
    return EXIT_OK


def line(delivery: WebhookDelivery) -> str:
    """One delivery on one line (a URL or an error with a line break in it is written with escapes)."""
    status = shown_name(delivery.last_status) if delivery.last_status else "—"
    return (
        f"{delivery.created_at[:19]}  {delivery.event}  {shown_name(delivery.url)}  attempts {delivery.attempts}  "
        f"last {status}  {delivery.state}"
    )
