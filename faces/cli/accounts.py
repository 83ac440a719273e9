"""`python main.py users …`, `share …`, `unshare …` and `audit …`: accounts, shares and the audit trail, run on
the server by whoever can open the database, as its owner, with no sign-in.

    python main.py users add NAME --role admin|engineer|viewer [--email E]
    python main.py users list | remove NAME | role NAME ROLE | password NAME | key NAME | revoke-keys NAME
    python main.py share WORKSPACE USER --as viewer|editor      python main.py share WORKSPACE --everyone
    (WORKSPACE is a name or an id; --id N or --name NAME instead says which, when a name is also an id)
    python main.py unshare WORKSPACE USER                       python main.py unshare WORKSPACE --everyone
    python main.py audit [--user NAME] [--workspace NAME|ID] [--since ISO-8601] [--json]
    python main.py audit verify

A password is read from standard input when it is not a terminal (its first line), else asked twice
without echo. `users key` prints the new key alone on one line of standard output, once.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from typing import TextIO

from faces import skip_httpx_cli  # noqa: F401 - first, before `app` imports httpx

# isort: split
from app import AmbiguousWorkspaceError, Application, HistoryError, record_as_json
from app.presentation.formatting import JSON_SAFE, shown_name
from app.workspaces.naming import By
from domain.accounts import AuditRecord
from domain.records import Workspace
from faces.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from faces.opening import start_or_exit

_COMMON = argparse.ArgumentParser(add_help=False)
_COMMON.add_argument("--db", help="chat history file (overrides CHAT_HISTORY_DB_PATH and DATABASE_URL)")
_COMMON.add_argument("--env-file", help="settings file, which must exist (default: .env, if there is one)")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="main.py", description="Users, shares and the audit trail (as the server).")
    commands = parser.add_subparsers(dest="command", required=True)
    _users(commands.add_parser("users", help="add, list, remove users; roles, passwords and API keys"))
    share = commands.add_parser("share", parents=[_COMMON], help="share a workspace with a user, or everyone to read")
    _workspace_named(share)
    share.add_argument("user", metavar="USER", nargs="?", help="the user to share it with")
    share.add_argument("--as", dest="role", choices=("viewer", "editor"), help="what the user may do in it")
    share.add_argument("--everyone", action="store_true", help="share with everyone in the office, to read")
    unshare = commands.add_parser(
        "unshare", parents=[_COMMON], help="stop sharing a workspace with a user (or with everyone)"
    )
    _workspace_named(unshare)
    unshare.add_argument("user", metavar="USER", nargs="?", help="the user to stop sharing it with")
    unshare.add_argument("--everyone", action="store_true", help="stop sharing it with everyone")
    audit = commands.add_parser("audit", parents=[_COMMON], help="list the audit trail, or `audit verify` its chain")
    audit.add_argument("verify", nargs="?", choices=("verify",), help="check that no record was changed or removed")
    audit.add_argument("--user", help="only this user's records")
    audit.add_argument("--workspace", help="only this workspace's records (name or id)")
    audit.add_argument("--workspace-id", type=int, metavar="N", help="only the records of the workspace with id N")
    audit.add_argument("--workspace-name", metavar="NAME", help="only the records of the workspace called NAME")
    audit.add_argument("--since", help="only records from this time on (ISO-8601: 2026-05-01 or 2026-05-01T09:30)")
    audit.add_argument("--json", action="store_true", help="one JSON object per line")
    return parser.parse_args(argv)


def _workspace_named(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", metavar="WORKSPACE", nargs="?", help="the workspace's name or id")
    by = parser.add_mutually_exclusive_group()
    by.add_argument("--id", type=int, metavar="N", help="the workspace with id N (then WORKSPACE is left out)")
    by.add_argument("--name", metavar="NAME", help="the workspace called NAME (then WORKSPACE is left out)")


def _named_workspace(service: Application, args: argparse.Namespace) -> Workspace:
    """The workspace WORKSPACE, `--id` or `--name` names; a text that names several is refused in a sentence
    saying how to name one."""
    if args.id is not None or args.name is not None:
        if args.user is None:  # `share --id 15 vic`: the one word left is the user
            args.user, args.workspace = args.workspace, None
        text = str(args.id) if args.id is not None else str(args.name)
        by: By | None = "id" if args.id is not None else "name"
    elif args.workspace is None:
        raise ValueError(f"Name the workspace: python main.py {args.command} WORKSPACE USER, or --id N or --name NAME.")
    else:
        text, by = args.workspace, None
    try:
        return service.sharing.workspace(text, by)
    except AmbiguousWorkspaceError as several:
        raise ValueError(several.sentence(f"with --id {several.found[0].chat_id}", "with --name NAME")) from None


def _users(parser: argparse.ArgumentParser) -> None:
    users = parser.add_subparsers(dest="action", required=True)
    add = users.add_parser(
        "add", parents=[_COMMON], help="add a user (the password from standard input, or asked twice)"
    )
    add.add_argument("name", metavar="NAME")
    add.add_argument("--role", required=True, choices=("admin", "engineer", "viewer"))
    add.add_argument("--email", help="the e-mail single sign-on knows the user by")
    users.add_parser("list", parents=[_COMMON], help="every user with their role")
    for action, what in (
        ("remove", "remove a user (their workspaces stay, without an owner)"),
        ("password", "set a user's password (from standard input, or asked twice)"),
        ("key", "issue an API key, printed once"),
        ("revoke-keys", "revoke every API key of a user"),
    ):
        users.add_parser(action, parents=[_COMMON], help=what).add_argument("name", metavar="NAME")
    role = users.add_parser("role", parents=[_COMMON], help="change a user's role")
    role.add_argument("name", metavar="NAME")
    role.add_argument("role", metavar="ROLE", choices=("admin", "engineer", "viewer"))


def main(argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = parse_args(sys.argv[1:] if argv is None else argv)
    service = start_or_exit(args.env_file, None, None, args.db, stderr, existing=True)
    if isinstance(service, int):
        return service
    try:
        return _run(service, args, stdout, stderr)
    except (LookupError, ValueError) as error:
        stderr.write(f"{_sentence(error)}\n")
        return EXIT_USAGE
    except (HistoryError, PermissionError) as error:
        stderr.write(f"{_sentence(error)}\n")
        return EXIT_FAILED
    except (EOFError, KeyboardInterrupt):
        stderr.write("\nNothing was changed.\n")
        return EXIT_FAILED
    except BrokenPipeError:  # the reader of standard output has gone (`| head`)
        return EXIT_FAILED
    finally:
        service.close()


def _sentence(error: Exception) -> str:
    return str(error.args[0]) if isinstance(error, LookupError) and error.args else str(error)


def _run(service: Application, args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if args.command == "users":
        return _run_users(service, args, stdout)
    if args.command in ("share", "unshare"):
        return _run_share(service, args, stdout, stderr)
    if args.verify:
        return _verify(service, stdout, stderr)
    return _list_audit(service, args, stdout)


def _run_users(service: Application, args: argparse.Namespace, stdout: TextIO) -> int:
    accounts = service.accounts
    if args.action == "add":
        user = accounts.add(args.name, args.role, read_password(), args.email)
        stdout.write(f"Added {user.name} as {user.role}.\n")
    elif args.action == "list":
        for user in accounts.users():
            stdout.write(f"{user.name}\t{user.role}\t{user.email or ''}\n")
    elif args.action == "remove":
        accounts.remove(args.name)
        stdout.write(f"Removed {args.name}; their keys no longer sign in, their workspaces stay for admins.\n")
    elif args.action == "role":
        stdout.write(f"{accounts.set_role(args.name, args.role).name} is now {args.role}.\n")
    elif args.action == "password":
        accounts.user(args.name)  # a missing user is said before the password is asked
        accounts.set_password(args.name, read_password())
        stdout.write(f"Set the password of {args.name}.\n")
    elif args.action == "key":
        stdout.write(f"{accounts.issue_key(args.name)}\n")
    else:
        count = accounts.revoke_keys(args.name)
        stdout.write(f"Revoked {count} key{'s' * (count != 1)} of {args.name}.\n")
    return EXIT_OK


def read_password(stdin: TextIO | None = None) -> str:
    """The first line of standard input when it is not a terminal; else asked twice, without echo."""
    stdin = stdin or sys.stdin
    if not stdin.isatty():
        return stdin.readline().rstrip("\r\n")
    first = getpass.getpass("Password: ")
    if getpass.getpass("The same password again: ") != first:
        raise ValueError("The two passwords differ; nothing was changed.")
    return first


def _run_share(service: Application, args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    chat = _named_workspace(service, args)
    if args.everyone == bool(args.user):
        stderr.write(f"Name a user, or give --everyone: python main.py {args.command} WORKSPACE USER.\n")
        return EXIT_USAGE
    if args.command == "unshare":
        removed = service.sharing.unshare(chat.chat_id, None if args.everyone else args.user)
        who = "everyone" if args.everyone else args.user
        stdout.write(
            f"{chat.chat_name!r} is no longer shared with {who}.\n"
            if removed
            else f"{chat.chat_name!r} was not shared with {who}.\n"
        )
        return EXIT_OK
    if args.everyone:
        service.sharing.share_with_everyone(chat.chat_id)
        stdout.write(f"Shared {chat.chat_name!r} with everyone, to read.\n")
        return EXIT_OK
    if args.role is None:
        stderr.write("Say how to share it: --as viewer or --as editor.\n")
        return EXIT_USAGE
    share = service.sharing.share(chat.chat_id, args.user, args.role)
    stdout.write(f"Shared {chat.chat_name!r} with {share.user_name} as {share.role}.\n")
    return EXIT_OK


def _verify(service: Application, stdout: TextIO, stderr: TextIO) -> int:
    check = service.audit.verify()
    (stdout if check.intact else stderr).write(f"{check.said}\n")
    return EXIT_OK if check.intact else EXIT_FAILED


def _list_audit(service: Application, args: argparse.Namespace, stdout: TextIO) -> int:
    chat_id = _audited_workspace(service, args)
    for record in service.audit.records(args.user, chat_id, args.since):
        stdout.write(_json_line(record) if args.json else _line(record))
    return EXIT_OK


def _audited_workspace(service: Application, args: argparse.Namespace) -> int | None:
    written: list[tuple[object, By | None]] = [
        (args.workspace, None), (args.workspace_id, "id"), (args.workspace_name, "name"),
    ]  # fmt: skip
    given = [(str(text), by) for text, by in written if text is not None]
    if not given:
        return None
    if len(given) > 1:
        raise ValueError("Name the workspace once: --workspace, --workspace-id or --workspace-name.")
    try:
        return service.sharing.workspace(*given[0]).chat_id
    except AmbiguousWorkspaceError as several:
        raise ValueError(
            several.sentence(f"with --workspace-id {several.found[0].chat_id}", "with --workspace-name NAME")
        ) from None


def _line(record: AuditRecord) -> str:
    """One record on one line, every name and detail with its controls written out: a workspace's name can neither
    drive the terminal nor forge a line of the trail."""
    where = f" [{shown_name(record.workspace_name or '')} #{record.chat_id}]" if record.chat_id is not None else ""
    detail = f": {shown_name(record.detail)}" if record.detail else ""
    return f"{record.record_id}\t{record.at[:19]}\t{shown_name(record.user_name)}\t{record.action}{where}{detail}\n"


def _json_line(record: AuditRecord) -> str:
    return json.dumps(record_as_json(record), ensure_ascii=False).translate(JSON_SAFE) + "\n"
