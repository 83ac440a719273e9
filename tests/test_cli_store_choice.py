"""A command run where nothing names the chat history (no .env, no DATABASE_URL or CHAT_HISTORY_DB_PATH, no flag)
says which it uses, and the server's own commands never make a new one: `users add` run in the wrong folder used
to say "Added …" into a new file while the office's database never got the user."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fakes.ollama import FakeOllama, Reply
from tests.cli_helpers import MAIN

NOTHING = "there is no .env here, and neither DATABASE_URL nor CHAT_HISTORY_DB_PATH is set"


def run(folder: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    environment = {
        key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "CHAT_HISTORY_DB_PATH")
    }
    return subprocess.run(
        [sys.executable, str(MAIN), *args], cwd=folder, input=stdin, capture_output=True, text=True, timeout=60,
        env=environment,
    )  # fmt: skip


def test_the_servers_commands_refuse_to_make_a_new_history(isolated: Path) -> None:
    elsewhere = isolated / "elsewhere"
    elsewhere.mkdir()
    for command in (["users", "add", "bob", "--role", "engineer"], ["users", "list"], ["audit"], ["share", "1", "bob"]):
        refused = run(elsewhere, *command, stdin="a long enough password\n")
        assert refused.returncode == 2, (command, refused.stderr)
        assert f"There is no chat history here to use: {NOTHING}" in refused.stderr, command
        assert "nothing was created" in refused.stderr and not (elsewhere / "chat_history.sqlite").exists()
        assert refused.stdout == "", "never 'Added …'"


def test_a_history_found_in_the_folder_is_named_and_a_new_one_is_said(isolated: Path, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("Hello."))
    made = run(isolated, "--once", "hi", "--server", fake_ollama.url)
    history = isolated / "chat_history.sqlite"
    assert (
        made.returncode == 0 and f"Made a new chat history: the chat history file {history} ({NOTHING})" in made.stderr
    )
    listed = run(isolated, "users", "list")
    assert listed.returncode == 0 and f"Using the chat history file {history} ({NOTHING})." in listed.stderr
    (isolated / ".env").write_text(f"CHAT_HISTORY_DB_PATH={history}\n")
    named = run(isolated, "users", "list")
    assert named.returncode == 0 and "Using" not in named.stderr, "named by .env: nothing to say"
