"""The terminal face: an interactive prompt, or one question with `--once`.

    python main.py [--model M] [--server URL] [--workspace NAME|ID] [--db PATH] [--plain] [--user NAME]
    python main.py --once "question"        (or: echo "question" | python main.py --once)
    python main.py --once "what is this crack?" --image crack.jpg [--image …]

It collects input, calls the application service and renders its events.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from faces import skip_httpx_cli  # noqa: F401 - first, before `app` imports httpx

# isort: split
from pathlib import Path

from app import DEFAULT_IMAGE_QUESTION, Application, HistoryError, ImageRefusedError, read_images
from domain.events import TurnCompleted
from faces.cli.renderer import Renderer, answer_view, is_empty, load_markdown_in_background, markdown_wanted
from faces.cli.running import EventLoop, Terminated, ask, sigterm_ends_the_run
from faces.cli.signing_in import for_the_user
from faces.cli.waiting import Waiting

# docs/command-line.md's table of exit codes says what each means; tests/test_cli_exit_codes.py holds them to it.
from faces.exit_codes import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_TERMINATED, EXIT_USAGE
from faces.opening import start_or_exit

COMMANDS = """commands (each has its own --help):
  main.py serve         the NDJSON protocol server (with --http-port: HTTP and the OpenAI-compatible API)
  main.py verify FILE   whether a PDF is exactly an issued revision of a calculation package
  main.py db            upgrade a chat history's schema, or copy one into another (SQLite, PostgreSQL)
  main.py users         add, list and remove users; roles, passwords and API keys (AUTH=accounts)
  main.py share         share a workspace with a user, or with everyone to read; main.py unshare
  main.py audit         list the audit trail, or check its chain (audit verify)
  main.py webhooks      the webhook deliveries, newest first (WEBHOOKS_CONFIG)

See docs/command-line.md."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="A private engineering assistant on a local Ollama model.",
        epilog=COMMANDS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--model", help="Ollama model (overrides MODEL)")
    parser.add_argument("--server", help="Ollama URL (overrides ENDPOINT)")
    parser.add_argument("--workspace", help="workspace name or id to open (created if the name is new)")
    parser.add_argument("--agent", help="the agent to work with in this workspace (see /agent)")
    parser.add_argument("--db", help="chat history file (overrides CHAT_HISTORY_DB_PATH)")
    parser.add_argument("--env-file", help="settings file, which must exist (default: .env, if there is one)")
    parser.add_argument("--user", help="with AUTH=accounts: who you are (your API key from API_KEY, or asked)")
    parser.add_argument(
        "--plain", action="store_true", help="print answers as the model writes them, without rendering Markdown"
    )
    parser.add_argument(
        "--once",
        nargs="?",
        const="-",
        metavar="QUESTION",
        help="answer one question and exit; without QUESTION, read it from standard input",
    )
    parser.add_argument(
        "--image",
        action="append",
        default=[],
        metavar="PATH",
        help="with --once: a picture (PNG, JPEG or WebP) to ask about; repeat for several",
    )
    return parser.parse_args(argv)


def run_once(
    service: Application,
    question: str,
    stdout: TextIO,
    stderr: TextIO,
    loop: EventLoop,
    plain: bool,
    image_paths: tuple[str, ...] = (),
) -> int:
    if question == "-":
        question = sys.stdin.read()
    if not question.strip() and not image_paths:
        stderr.write("No question given: pass it after --once, or on standard input.\n")
        return EXIT_USAGE
    try:
        images = read_images([Path(path).expanduser() for path in image_paths])
    except ImageRefusedError as error:
        stderr.write(f"{error}\n")
        return EXIT_USAGE
    try:
        renderer = Renderer(
            stdout,
            stderr,
            False,
            waiting=Waiting(stderr),
            answer=answer_view(stdout, plain),
            activity=service.documents.index_wait,
        )
        completed = ask(service, question.strip() or DEFAULT_IMAGE_QUESTION, renderer, loop, images=images)
    except ImageRefusedError as error:  # the model cannot see them: nothing was sent or stored
        stderr.write(f"{error}\n")
        return EXIT_USAGE
    except (HistoryError, LookupError, PermissionError) as error:
        stderr.write(f"{error}\n")
        return EXIT_FAILED
    current = service.workspaces.current_id
    if current is not None and (pending := service.approvals.pending(current)):
        stderr.write(
            f"{len(pending)} proposed file edit(s) wait for your approval: run `python main.py` here to review them.\n"
        )
    return once_exit_code(completed)


def once_exit_code(completed: TurnCompleted | None) -> int:
    """130 when Ctrl-C stopped the answer (None: cut off before it completed), 1 when it failed or was empty."""
    if completed is None or completed.stop_reason == "stopped":
        return EXIT_INTERRUPTED
    if completed.stop_reason == "error" or is_empty(completed):
        return EXIT_FAILED
    return EXIT_OK


def open_application(args: argparse.Namespace, stderr: TextIO) -> Application | int:
    """The service the settings and flags describe, with the wanted workspace open; or an exit code."""
    opened = start_or_exit(args.env_file, args.model, args.server, args.db, stderr)
    if isinstance(opened, int):
        return opened
    service = for_the_user(opened, args.user, stderr, sys.stdin.isatty(), lasting=args.once is None)
    if isinstance(service, int):
        opened.close()
        return service
    try:
        if args.workspace:
            service.workspaces.open_or_create(args.workspace)
        else:
            service.workspaces.open_latest()
    except (HistoryError, LookupError, PermissionError) as error:
        service.close()
        stderr.write(f"{error} `python main.py` then /list shows the workspaces.\n")
        return EXIT_FAILED
    for problem in service.agents.problems:  # a bad agent file is left out, and said so
        stderr.write(f"Agent file skipped: {problem}\n")
    if args.agent:
        try:
            service.agents.choose(service.workspaces.ensure_current().chat_id, args.agent)
        except LookupError as error:
            service.close()
            stderr.write(f"{error}\n")
            return EXIT_USAGE
    return service


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = parse_args(argv)
    try:
        with sigterm_ends_the_run():
            return run(args, stdout, stderr)
    except KeyboardInterrupt:  # Ctrl-C outside an answer and outside the prompt: while starting, or reading stdin
        stderr.write("\n")
        return EXIT_INTERRUPTED
    except Terminated as ending:  # SIGTERM: an answer in progress was stopped and stored first
        kept = "; what had arrived of the answer is saved, marked as stopped" if ending.stopped_reply else ""
        stderr.write(f"\nEnded by SIGTERM{kept}.\n")
        return EXIT_TERMINATED
    except BrokenPipeError:  # the reader of standard output has gone (`| head`): nothing more to say to anyone
        silence(stdout)
        return EXIT_FAILED


def silence(stream: TextIO) -> None:
    """Point `stream` at /dev/null, so that the flush at exit does not fail a second time."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    except (OSError, ValueError):
        pass


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if args.image and args.once is None:
        stderr.write("--image goes with --once; at the prompt, type /image PATH [QUESTION].\n")
        return EXIT_USAGE
    if markdown_wanted(stdout, args.plain):
        load_markdown_in_background()
    service = open_application(args, stderr)
    if isinstance(service, int):
        return service
    loop = EventLoop()
    try:
        if args.once is not None:  # one question: the documents are read only if it searches them
            return run_once(service, args.once, stdout, stderr, loop, args.plain, tuple(args.image))
        from faces.cli.repl import Repl  # the prompt and its /commands: not loaded for one question

        service.documents.follow()  # new and changed documents are read in the background, and as they change
        return Repl(service, stdout, stderr, loop, args.plain).run()
    finally:
        loop.close(service)
