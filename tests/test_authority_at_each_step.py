"""Authority asked at each step, not once: a role lowered mid-turn stops the turn's next tool call, and a terminal's
prompt ends at its next request, in one sentence, once its user is removed, its key revoked, or the user's password
or role changed. On SQLite and PostgreSQL, through the real service and the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import Application
from fakes.ollama import FakeOllama, wait_until
from fakes.replies import Reply
from store import ChatHistoryDB
from tests.agent_helpers import completed
from tests.cli_helpers import MAIN
from tests.test_accounts_app import owner, user  # noqa: F401 - the fixture
from tests.test_accounts_cli import PASSWORD, cli, where


async def test_a_role_lowered_mid_turn_stops_the_turns_next_tool_call(
    owner: Application,  # noqa: F811
    fake_ollama: FakeOllama,
    tmp_path: Path,
) -> None:
    ann = user(owner, "ann")
    chat_id = ann.workspaces.create("Site notes").chat_id
    asked: list[dict] = []

    def demoted_while_the_model_answers(body: dict) -> Reply:
        asked.append(body)
        if len(asked) == 1:
            owner.accounts.set_role("ann", "viewer")  # an admin lowers ann's role as the model answers
            return Reply.tool_calls(("unit_convert", {"value": 3, "from_unit": "m", "to_unit": "mm"}))
        return Reply.text("Done.")

    fake_ollama.responder = demoted_while_the_model_answers
    events = [event async for event in ann.turns.ask("3 m in mm?", chat_id)]
    [call] = completed(events).tool_calls
    assert call.error is not None and call.output.startswith("Error: unit_convert was not run: Your role is viewer")
    assert "3000" not in call.output
    told = [m["content"] for m in asked[1]["messages"] if m["role"] == "tool"]
    assert told and "was not run" in told[0], "the model is told, and answers without it"
    refused = [r for r in owner.audit.records(chat_id=chat_id) if r.action == "denied"]
    assert [(r.user_name, r.detail) for r in refused] == [("ann", "run a tool in")]


@pytest.mark.parametrize("change", ["removed", "key revoked", "password reset", "role changed"])
def test_a_terminal_prompt_ends_at_its_next_request_in_one_sentence(
    store_target: str, fake_ollama: FakeOllama, change: str, isolated: Path
) -> None:
    for name, role in (("ann", "engineer"), ("ada", "admin")):
        assert cli(store_target, "users", "add", name, "--role", role, stdin=f"{PASSWORD}\n").returncode == 0
    key = cli(store_target, "users", "key", "ann").stdout.strip()
    fake_ollama.script(Reply.text("A 6 m span."), Reply.text("Never asked."))
    env = {**os.environ, **where(store_target), "AUTH": "accounts", "ENDPOINT": fake_ollama.url, "EMBED_MODEL": ""}
    prompt = subprocess.Popen(
        [sys.executable, str(MAIN), "--user", "ann", "--plain"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**env, "API_KEY": key},
    )  # fmt: skip
    assert prompt.stdin is not None
    prompt.stdin.write("What span?\n")
    prompt.stdin.flush()
    store = ChatHistoryDB(store_target)
    try:
        assert wait_until(lambda: sum(store.count_turns(c.chat_id) for c in store.recent_chats()) == 1, timeout=60)
    finally:
        store.close()
    command = {
        "removed": ("users", "remove", "ann"),
        "key revoked": ("users", "revoke-keys", "ann"),
        "password reset": ("users", "password", "ann"),
        "role changed": ("users", "role", "ann", "viewer"),
    }[change]
    assert cli(store_target, *command, stdin=f"{PASSWORD} anew\n").returncode == 0
    out, err = prompt.communicate("And now?\n/list\n", timeout=60)
    assert prompt.returncode == 1, (out, err)
    assert "Traceback" not in out + err and "Never asked." not in out, (out, err)
    said = {
        "removed": "You were signed out (here or elsewhere, or your password or role changed); sign in again.",
        "key revoked": "The API key is missing, wrong or revoked; ask an admin for a new one.",
        "password reset": "You were signed out",
        "role changed": "You were signed out",
    }[change]
    assert f"{said}" in out and out.rstrip().endswith("Run python main.py again to go on."), out
    assert len(fake_ollama.chat_requests) == 1, "nothing asked after the change"
