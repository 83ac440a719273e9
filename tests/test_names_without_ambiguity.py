"""Names that cannot be mistaken: a workspace named by a number that is another's id, a user name that passes for
another's, a name that drives the admin's terminal or forges a line of the audit trail. On SQLite and PostgreSQL,
through the real CLI."""

from __future__ import annotations

import json

from store import ChatHistoryDB
from tests.test_accounts_cli import PASSWORD, cli


def test_a_number_that_is_one_workspaces_id_and_anothers_name_is_refused_until_said_which(store_target: str) -> None:
    for name in ("ann", "bob", "vic"):
        assert cli(store_target, "users", "add", name, "--role", "engineer", stdin=f"{PASSWORD}\n").returncode == 0
    store = ChatHistoryDB(store_target)
    ann, bob = (store.get_user(name).user_id for name in ("ann", "bob"))
    for number in range(15):
        store.create_chat(f"Ann's {number + 1}", owner=ann)  # ann's workspace 15 is "Ann's 15"
    confidential = store.create_chat("15", owner=bob)  # bob's, called "15"
    ambiguous = cli(store_target, "share", "15", "vic", "--as", "viewer")
    assert ambiguous.returncode == 2, ambiguous.stderr
    assert ambiguous.stderr == (
        f"'15' could be any of 2 workspaces (#15 \"Ann's 15\", #{confidential} '15'); say which with --id 15 or "
        "with --name NAME.\n"
    ), ambiguous.stderr
    assert store.shares_of(15) == [] and store.shares_of(confidential) == [], "nothing shared on a guess"

    by_id = cli(store_target, "share", "--id", "14", "vic", "--as", "viewer")
    assert by_id.returncode == 0 and by_id.stdout == 'Shared "Ann\'s 14" with vic as viewer.\n', by_id.stderr
    by_name = cli(store_target, "unshare", "--name", "Ann's 14", "vic")
    assert by_name.returncode == 0 and "no longer shared with vic" in by_name.stdout, by_name.stderr
    twice = store.create_chat("Tower", owner=ann), store.create_chat("Tower", owner=bob)
    named_twice = cli(store_target, "share", "--name", "Tower", "--everyone")
    assert named_twice.returncode == 2 and f"#{twice[1]} 'Tower', #{twice[0]} 'Tower'" in named_twice.stderr
    assert "say which with --id" in named_twice.stderr
    audit = cli(store_target, "audit", "--workspace", "Tower")
    assert audit.returncode == 2 and "with --workspace-id" in audit.stderr, audit.stderr
    assert cli(store_target, "audit", "--workspace-id", str(twice[0])).returncode == 0
    assert all(store.shares_of(chat) == [] for chat in twice)
    store.close()


def test_a_user_name_in_two_scripts_or_like_anothers_is_refused(store_target: str) -> None:
    assert cli(store_target, "users", "add", "admin", "--role", "admin", stdin=f"{PASSWORD}\n").returncode == 0
    refused = {
        "\u0430dmin": "'\u0430dmin' mixes letters of several scripts; write a user name in one script.",  # Cyrillic а
        "ADM1N": "'ADM1N' looks like the name of the user 'admin'; choose a name that does not.",
        "\uff41\uff44\uff4d\uff49\uff4e": "looks like the name of the user 'admin'",  # fullwidth
        "adrnin": "looks like the name of the user 'admin'",  # rn for m
    }
    for name, said in refused.items():
        added = cli(store_target, "users", "add", name, "--role", "admin", stdin=f"{PASSWORD}\n")
        assert added.returncode == 2 and said in added.stderr, (name, added.stderr)
    for name in ("ann.smith", "Müller", "田中たろう", "\u0430\u043d\u043d\u0430"):  # one script each (Cyrillic анна)
        added = cli(store_target, "users", "add", name, "--role", "engineer", stdin=f"{PASSWORD}\n")
        assert added.returncode == 0, (name, added.stderr)
    listed = cli(store_target, "users", "list").stdout
    assert listed.count("\n") == 5 and "\u0430dmin" not in listed


def test_the_audit_trail_writes_out_what_would_drive_the_terminal_or_forge_a_line(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    hostile = "Tower\x1b]0;owned\x07\x1b[2J\u202egnp.exe\n42\t2026-01-01 00:00:00\tann\tshare\x9b31m"
    chat = store.create_chat(hostile)
    store.append_audit("(server)", "workspace created", chat, hostile, f"detail {hostile}")
    store.close()
    listed = cli(store_target, "audit")
    assert listed.returncode == 0
    lines = listed.stdout.splitlines()
    assert len(lines) == 1, "one record, one line"
    for raw in ("\x1b", "\x07", "\u202e", "\x9b", "\t2026-01-01"):
        assert raw not in lines[0].split("\t", 4)[-1], repr(raw)
    assert "Tower\\x1b]0;owned\\x07\\x1b[2J[U+202E]gnp.exe\\n42\\t2026" in lines[0]
    as_json = cli(store_target, "audit", "--json").stdout
    assert as_json.count("\n") == 1 and not any(raw in as_json for raw in ("\x1b", "\u202e", "\x9b", "\x07"))
    assert json.loads(as_json)["workspace_name"] == hostile, "the JSON reads back as written"
