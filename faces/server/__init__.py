"""`python main.py serve`: the protocol server (NDJSON over TCP) on the same application service as the faces."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from faces import skip_httpx_cli  # noqa: F401 - first, before `app` imports httpx

# isort: split
from app import Application, SettingsError, load_settings
from faces.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from faces.opening import start_or_exit
from faces.server.limits import (
    IDLE_SECONDS,
    LINE_SECONDS,
    MAX_CONNECTIONS,
    MAX_PER_ADDRESS,
    Limits,
    quiet_accept_errors,
    raise_open_files_limit,
)
from faces.server.server import ProtocolServer

DEFAULT_PORT = 60100


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="main.py serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default: {DEFAULT_PORT}; 0: any)")
    parser.add_argument("--token", help="every request must carry this in its token field")
    parser.add_argument("--http-port", type=int, help="also serve the protocol and the OpenAI-compatible chat API here")
    parser.add_argument("--env-file", help="settings file, which must exist (default: .env, if there is one)")
    parser.add_argument("--server", help="Ollama's URL (default: ENDPOINT)")
    parser.add_argument("--model", help="the model (default: MODEL)")
    parser.add_argument("--db", help="the chat history file (default: CHAT_HISTORY_DB_PATH)")
    bounds = parser.add_argument_group("limits (TCP and HTTP together)")
    bounds.add_argument("--max-connections", type=_positive(int), default=MAX_CONNECTIONS,
                        help=f"connections open at once (default: {MAX_CONNECTIONS})")  # fmt: skip
    bounds.add_argument("--max-connections-per-address", type=_positive(int), default=MAX_PER_ADDRESS,
                        help=f"connections open at once from one address (default: {MAX_PER_ADDRESS})")  # fmt: skip
    bounds.add_argument("--idle-seconds", type=_positive(float), default=IDLE_SECONDS,
                        help=f"close a connection idle this long (default: {IDLE_SECONDS:g})")  # fmt: skip
    bounds.add_argument("--line-seconds", type=_positive(float), default=LINE_SECONDS,
                        help=f"close a connection whose request is not whole this long after its first byte "
                             f"(default: {LINE_SECONDS:g})")  # fmt: skip
    return parser.parse_args(argv)


def _positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not more than 0")
        return value

    return parse


def limits_of(args: argparse.Namespace) -> Limits:
    return Limits(
        max_connections=int(args.max_connections),
        max_per_address=int(args.max_connections_per_address),
        idle_seconds=float(args.idle_seconds),
        line_seconds=float(args.line_seconds),
    )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def main(argv: list[str], stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = parse_args(argv)
    refusal = _refusal(_accounts_on(args), args)  # before anything is opened
    if refusal is not None:
        stderr.write(f"{refusal}\n")
        return EXIT_USAGE
    service = start_or_exit(args.env_file, args.model, args.server, args.db, stderr)
    if isinstance(service, int):
        return service
    for problem in service.agents.problems:  # a bad agent file is left out, and said so
        stderr.write(f"Agent file skipped: {problem}\n")
    try:
        return asyncio.run(_serve(service, args, stdout, stderr))
    finally:
        service.close()


def _accounts_on(args: argparse.Namespace) -> bool:
    """Whether the settings say AUTH=accounts (a bad setting is said when the application is opened)."""
    try:
        return load_settings(env_file=Path(args.env_file or ".env"), overrides={}).auth == "accounts"
    except SettingsError:
        return False


def _trusted_proxies(args: argparse.Namespace) -> str:
    """TRUSTED_PROXIES: the reverse proxies whose X-Forwarded-For names a client (empty: none)."""
    try:
        return load_settings(env_file=Path(args.env_file or ".env"), overrides={}).trusted_proxies
    except SettingsError:
        return ""


def _refusal(accounts_on: bool, args: argparse.Namespace) -> str | None:
    """Why the server may not start as asked: without accounts, another address needs --token; with accounts,
    each user's API key is the token, so --token is not taken."""
    if accounts_on:
        if args.token:
            return (
                "With AUTH=accounts each request's token is its user's API key (python main.py users key NAME); "
                "leave out --token."
            )
        return None
    if not is_loopback(args.host) and not args.token:
        return (
            f"Refusing to listen on {args.host} without --token: anyone who can reach it could use the model and "
            "read the workspaces. Give --token, or listen on 127.0.0.1."
        )
    return None


async def _serve(service: Application, args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    raise_open_files_limit()
    quiet_accept_errors(asyncio.get_running_loop())
    server = ProtocolServer(service, args.token, limits_of(args), _trusted_proxies(args))
    try:
        host, port = await server.start(args.host, args.port)
    except OSError as error:
        stderr.write(f"Cannot listen on {args.host}:{args.port}: {error.strerror}.\n")
        return EXIT_FAILED
    http = None
    if args.http_port is not None:
        from faces.server.http import serve_http

        try:
            http, _ = await serve_http(server, args.host, args.http_port)
        except (OSError, SystemExit) as error:
            stderr.write(f"Cannot serve HTTP on {args.host}:{args.http_port} ({error}).\n")
            await server.shutdown()
            return EXIT_FAILED
    service.documents.follow()
    service.webhooks.keep_delivering()  # what any process on the store left pending, too
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopping.set)
    if http is not None:
        bound = http.servers[0].sockets[0].getsockname()
        stdout.write(f"HTTP on {bound[0]}:{bound[1]}\n")
    stdout.write(f"Listening on {host}:{port}\n")
    stdout.flush()
    await stopping.wait()
    stdout.write("Stopping: finishing the turns in flight…\n")
    stdout.flush()
    if http is not None:
        http.should_exit = True
    await server.shutdown()
    return EXIT_OK
