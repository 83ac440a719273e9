"""`python main.py users|share|unshare|audit` and the chat CLI with `--user`, as real subprocesses, on SQLite and on
PostgreSQL."""

from __future__ import annotations

import json
import subprocess

import pytest

from fakes.ollama import FakeOllama
from fakes.replies import Reply
from store import ChatHistoryDB, is_postgres_url
from tests.cli_helpers import run_cli
from tests.stores import raw_write

PASSWORD = "a long enough password"


def where(target: str) -> dict[str, str]:
    return {"DATABASE_URL": target} if is_postgres_url(target) else {"CHAT_HISTORY_DB_PATH": target}


def cli(target: str, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, stdin=stdin, env={**where(target), **env}, timeout=120)


def test_users_keys_and_shares_from_the_command_line(store_target: str) -> None:
    for name, role in (("ann", "engineer"), ("vic", "viewer")):
        added = cli(store_target, "users", "add", name, "--role", role, stdin=f"{PASSWORD}\n")
        assert added.returncode == 0, added.stderr
    assert cli(store_target, "users", "list").stdout.splitlines() == ["ann\tengineer\t", "vic\tviewer\t"]
    key = cli(store_target, "users", "key", "ann")
    assert key.returncode == 0 and len(key.stdout.splitlines()) == 1 and key.stdout.startswith("eak_")
    store = ChatHistoryDB(store_target)
    chat_id = store.create_chat("Bridge over the Avon")
    store.close()
    shared = cli(store_target, "share", "Bridge over the Avon", "vic", "--as", "viewer")
    assert shared.returncode == 0 and "Shared 'Bridge over the Avon' with vic as viewer." in shared.stdout
    nobody = cli(store_target, "share", str(chat_id), "nobody", "--as", "editor")
    assert (
        nobody.returncode == 2
        and nobody.stderr.strip() == "'nobody' is not a user this workspace can be shared with; check the name."
    )
    assert cli(store_target, "share", str(chat_id), "--everyone").returncode == 0
    assert "no longer shared with vic" in cli(store_target, "unshare", str(chat_id), "vic").stdout
    assert cli(store_target, "users", "role", "vic", "engineer").stdout == "vic is now engineer.\n"
    assert cli(store_target, "users", "revoke-keys", "ann").stdout == "Revoked 1 key of ann.\n"
    assert cli(store_target, "users", "password", "ann", stdin="short\n").returncode == 2
    assert cli(store_target, "users", "remove", "vic").returncode == 0
    lines = [json.loads(line) for line in cli(store_target, "audit", "--json").stdout.splitlines()]
    assert [line["action"] for line in lines] == [
        "user added", "user added", "key issued", "share", "denied", "share", "unshare", "role changed",
        "key revoked", "user removed",
    ]  # fmt: skip
    assert all(PASSWORD not in line["detail"] and key.stdout.strip() not in line["detail"] for line in lines)
    listed = cli(store_target, "audit", "--workspace", "Bridge over the Avon").stdout
    assert "[Bridge over the Avon #" in listed and "share [Bridge over the Avon #1]: with vic as viewer" in listed
    assert cli(store_target, "audit", "--since", "2999-01-01").stdout == ""
    assert "not an ISO-8601 time" in cli(store_target, "audit", "--since", "yesterday").stderr


def test_audit_verify_names_the_first_tampered_record(store_target: str) -> None:
    for name in ("ann", "bob", "cy"):
        cli(store_target, "users", "add", name, "--role", "engineer", stdin=f"{PASSWORD}\n")
    intact = cli(store_target, "audit", "verify")
    assert intact.returncode == 0 and intact.stdout == "The audit trail is intact: 3 records.\n"
    raw_write(store_target, "UPDATE audit SET detail = 'bob as admin' WHERE id = 2")
    broken = cli(store_target, "audit", "verify")
    assert broken.returncode == 1
    assert broken.stderr == "The audit trail is broken at record 2: its contents do not match its hash.\n"


def test_the_chat_cli_asks_as_the_user_its_key_names(store_target: str, fake_ollama: FakeOllama) -> None:
    for name, role in (("ann", "engineer"), ("vic", "viewer")):
        cli(store_target, "users", "add", name, "--role", role, stdin=f"{PASSWORD}\n")
    ann_key = cli(store_target, "users", "key", "ann").stdout.strip()
    vic_key = cli(store_target, "users", "key", "vic").stdout.strip()
    fake_ollama.script(Reply.text("A 6 m span."))
    chat = {"AUTH": "accounts", "ENDPOINT": fake_ollama.url, "EMBED_MODEL": ""}
    anns = cli(store_target, "--user", "ann", "--once", "What span?", API_KEY=ann_key, **chat)
    assert anns.returncode == 0 and "A 6 m span." in anns.stdout, anns.stderr
    store = ChatHistoryDB(store_target)
    [workspace] = store.recent_chats()
    assert store.owner_of(workspace.chat_id) is not None and store.owner_of(workspace.chat_id).name == "ann"
    store.close()
    vics = cli(store_target, "--user", "vic", "--once", "And now?", API_KEY=vic_key, **chat)
    assert vics.returncode == 1 and "Your role is viewer" in vics.stderr
    wrong = cli(store_target, "--user", "ann", "--once", "Hi", API_KEY=vic_key, **chat)
    assert wrong.returncode == 1 and wrong.stderr == "That API key is not the key of --user; give your own.\n"
    bad = cli(store_target, "--user", "ann", "--once", "Hi", API_KEY=ann_key + "x", **chat)
    assert bad.returncode == 1 and "missing, wrong or revoked" in bad.stderr and ann_key not in bad.stderr
    nameless = cli(store_target, "--once", "Hi", **chat)
    assert nameless.returncode == 2 and "--user NAME" in nameless.stderr


@pytest.mark.parametrize("store_target", ["sqlite"], indirect=True)
def test_without_accounts_the_cli_needs_no_user(store_target: str, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("As before."))
    done = cli(store_target, "--once", "Hi", ENDPOINT=fake_ollama.url, EMBED_MODEL="")
    assert done.returncode == 0 and "As before." in done.stdout
