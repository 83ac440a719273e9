"""The CLI through its real entry point (`python main.py` in a subprocess) against the fake Ollama."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.presentation.formatting import BIDI_CONTROLS
from fakes.ollama import FakeOllama, Hang, Reply, is_summary_request
from history import ChatHistoryDB
from tests.cli_helpers import MAIN, interrupt_after_line, interrupt_while_waiting, run_cli


def test_a_full_session(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(
        Reply.tool_calls(("sqrt", {"x": 2025})),
        Reply.text("The square root of 2025 is 45."),
        Reply.text("- Tower A: sqrt(2025) = 45 computed."),
    )
    script = (
        "/new Bridge\n/new Tower A\nWhat is the square root of 2025?\n"
        "/switch Bridge\n/list\n/switch Tower A\n/summary\n/exit\n"
    )
    result = run_cli("--server", fake_ollama.url, stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Started workspace 1: Bridge" in out and "Started workspace 2: Tower A" in out
    assert "→ sqrt(x=2025) = 45.0" in out and "The square root of 2025 is 45." in out
    assert "Updating the summary of Tower A in the background." in out and "Updated the summary of Tower A." in out
    assert "Switched to Bridge (0 turns)." in out
    assert out.index("2  Tower A") < out.index("1  Bridge"), "/list: the workspace with the latest turn first"
    assert "Switched to Tower A (1 turn" in out
    assert "- Tower A: sqrt(2025) = 45 computed." in out
    assert len(fake_ollama.chat_requests) == 3, "only leaving Tower A, which had a new turn, asks for a summary"
    summary_request = fake_ollama.chat_requests[2]
    assert is_summary_request(summary_request) and "What is the square root of 2025?" in str(summary_request)
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    tower = db.find_chat("Tower A")
    assert db.get_context_summary(tower.chat_id) == "- Tower A: sqrt(2025) = 45 computed."
    (turn,) = db.get_turns(tower.chat_id)
    assert turn.assistant == "The square root of 2025 is 45." and turn.tool_calls[0].output == "45.0"


def test_once_without_a_server_fails_fast_with_one_sentence(isolated: Path) -> None:
    started = time.monotonic()
    result = run_cli("--once", "What is 2 + 2?", "--server", "http://127.0.0.1:9")
    assert time.monotonic() - started < 30, "a refused connection is said at once, not retried"
    assert result.returncode == 1 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert lines == [
        "Cannot reach Ollama at http://127.0.0.1:9 — is `ollama serve` running? Start it and send your message again."
    ]
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    (turn,) = db.get_turns(db.list_chats()[0][0])
    assert (turn.user, turn.status) == ("What is 2 + 2?", "error"), "the question is kept"


def test_once_prints_only_the_answer_on_stdout(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("multiply", {"a": 12, "b": 4.5})), Reply.text("54 kN·m."))
    result = run_cli("--once", "12 * 4.5?", "--server", fake_ollama.url, "--workspace", "Tower A")
    assert result.returncode == 0 and result.stdout == "54 kN·m.\n"
    assert "→ multiply(a=12, b=4.5) = 54.0" in result.stderr


def test_once_reads_the_question_from_stdin(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("Four."))
    result = run_cli("--once", env={"ENDPOINT": fake_ollama.url}, stdin="What is 2 + 2?\n")
    assert (result.returncode, result.stdout) == (0, "Four.\n")
    assert fake_ollama.chat_requests[0]["messages"][-1]["content"] == "What is 2 + 2?"


def test_settings_come_from_the_env_file(fake_ollama: FakeOllama, isolated: Path) -> None:
    (isolated / ".env").write_text(f"ENDPOINT={fake_ollama.url}\nMODEL=qwen3:4b\nNUM_CTX=16384\n")
    fake_ollama.script(Reply.text("ok"))
    assert run_cli("--once", "hi").returncode == 0
    assert fake_ollama.chat_requests[0]["options"]["num_ctx"] == 16384


def test_bad_setting_is_one_sentence_and_exit_2() -> None:
    result = run_cli("--once", "hi", env={"NUM_CTX": "lots"})
    assert result.returncode == 2
    assert result.stderr.strip().startswith("Setting NUM_CTX has the value 'lots'")


def test_corrupt_database_is_reported_and_left_alone(isolated: Path) -> None:
    (isolated / "chat_history.sqlite").write_text("not a database")
    result = run_cli("--once", "hi")
    assert result.returncode == 1 and "left untouched" in result.stderr
    assert (isolated / "chat_history.sqlite").read_text() == "not a database"


def test_delete_asks_first(fake_ollama: FakeOllama, isolated: Path) -> None:
    script = "/new Scratch\n/new Keep\n/delete Scratch\nn\n/delete Scratch\ny\n/list\n/quit\n"
    result = run_cli("--server", fake_ollama.url, stdin=script)
    assert "Nothing deleted." in result.stdout and "Deleted Scratch." in result.stdout
    assert [c[1] for c in ChatHistoryDB(isolated / "chat_history.sqlite").list_chats()] == ["Keep"]


def test_unknown_command_and_help(fake_ollama: FakeOllama) -> None:
    result = run_cli("--server", fake_ollama.url, stdin="/frobnicate\n/help\n/tools\n")
    assert "Unknown command /frobnicate" in result.stdout and "/switch NAME|ID" in result.stdout
    assert "read_file" in result.stdout and result.returncode == 0, "Ctrl-D (end of input) leaves cleanly"


def test_models_command_lists_the_server_models(fake_ollama: FakeOllama) -> None:
    fake_ollama.models = ["qwen3:4b", "llama3.2:3b"]
    result = run_cli("--server", fake_ollama.url, stdin="/models\n/model llama3.2:3b\n/model nope:1b\n/model\n")
    assert "* qwen3:4b" in result.stdout and "  llama3.2:3b" in result.stdout
    assert "Using llama3.2:3b." in result.stdout and "`ollama pull nope:1b` fetches a missing one" in result.stdout
    assert "so llama3.2:3b stays in use." in result.stdout and "Using llama3.2:3b; /models" in result.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery to a child differs on Windows")
def test_ctrl_c_stops_the_reply_not_the_program(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.then("The first half of a long answer", Hang(20)), Reply.text("Still here."))
    out, err, code = interrupt_while_waiting(fake_ollama, "Explain load paths\n", 1, "and then?\n/exit\n")
    assert code == 0, err
    assert "[stopped]" in out and "Still here." in out
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    first, second = db.get_turns(db.list_chats()[0][0])
    assert (first.status, first.assistant) == ("stopped", "The first half of a long answer")
    assert (second.status, second.assistant) == ("complete", "Still here.")


def test_start_up_does_not_import_the_heavy_libraries(isolated: Path) -> None:
    code = (
        "import sys, main; from app import open_application, load_settings; "
        "service = open_application(load_settings(env_file=None)); "
        "print(sorted({'sympy', 'pint', 'streamlit', 'rich', 'pygments', 'markdown_it'} & set(sys.modules)))"
    )
    env = {**os.environ, "PYTHONPATH": str(MAIN.parent)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=isolated, env=env, timeout=30
    )
    assert result.stdout.strip() == "[]", result.stderr


def test_control_characters_from_the_model_do_not_reach_the_terminal(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("Safe\x1b[2J\x1b]0;pwned\x07 text"))
    result = run_cli("--once", "hi", "--server", fake_ollama.url)
    assert result.stdout == "Safe[2J]0;pwned text\n"


TROJAN_SOURCE = "if role != 'user\u202e \u2066// admins only\u2069 \u2066':"  # reads as a comment, is not one


def test_bidi_controls_from_the_model_are_written_out_not_obeyed(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text(f"Use {TROJAN_SOURCE} here."))
    result = run_cli("--once", "hi", "--server", fake_ollama.url)
    assert not any(control in result.stdout for control in BIDI_CONTROLS)
    assert "'user[U+202E] [U+2066]// admins only[U+2069] [U+2066]':" in result.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery to a child differs on Windows")
def test_a_switch_does_not_wait_for_the_summary_and_ctrl_c_skips_it_at_the_end(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    """The summary of the workspace left is written in the background; leaving waits for it unless told not to."""
    fake_ollama.responder = lambda body: (
        Reply([Hang(30)]) if is_summary_request(body) else Reply.text(f"Answer to {body['messages'][-1]['content']}.")
    )
    typed = "/new A\nquestion\n/new B\nquestion in B\n/exit\n"
    out, err, code = interrupt_after_line(fake_ollama, typed, "Finishing the summary", "futex")  # for the summary
    assert code == 0, err
    assert "Answer to question in B." in out, "a question asked while the summary is written is answered at once"
    assert "Finishing the summary of A, B… (Ctrl-C skips it)" in out, "leaving the CLI leaves B too"
    assert "Skipped the summary of A, B" in out
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    a, b = db.find_chat("A"), db.find_chat("B")
    assert [t.user for t in db.get_turns(b.chat_id)] == ["question in B"]
    assert db.get_context_summary(a.chat_id) is None and db.count_unsummarised_turns(a.chat_id) == 1


@pytest.mark.parametrize("log_file", ["chat_history.sqlite", "chat_history.sqlite-wal", "./chat_history.sqlite-shm"])
def test_a_log_file_on_the_history_is_refused_before_anything_is_written(isolated: Path, log_file: str) -> None:
    """A log handler appending to the database (or its log) would corrupt it; refuse the setting instead."""
    ChatHistoryDB(isolated / "chat_history.sqlite").create_chat("kept")
    result = run_cli("--once", "hi", env={"LOG_FILE": log_file})
    assert result.returncode == 2 and "LOG_FILE" in result.stderr and "chat history" in result.stderr
    assert ChatHistoryDB(isolated / "chat_history.sqlite").list_chats()[0][1] == "kept"


def test_backup_copies_every_workspace_and_report_never_overwrites_the_history(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.script(Reply.text("Noted."))
    result = run_cli(
        "--server",
        fake_ollama.url,
        stdin="A question\n/backup copy.sqlite\n/backup copy.sqlite\n/backup nowhere/sub/b.sqlite\n"
        "/report chat_history.sqlite\n/export chat_history.sqlite-wal\n/export tower.md\n/exit\n",
    )
    assert "Copied every workspace into copy.sqlite." in result.stdout
    assert "Wrote the workspace to tower.md." in result.stdout
    assert (isolated / "tower.md").read_text(encoding="utf-8").startswith("# A question")
    assert result.stdout.count("is a file of the chat history itself") == 2
    assert "copy.sqlite already exists" in result.stdout
    assert "The backup cannot be written to nowhere/sub/b.sqlite" in result.stdout and result.returncode == 0
    assert "is a file of the chat history itself" in result.stdout
    assert ChatHistoryDB(isolated / "copy.sqlite").load_history(1) == [("A question", "Noted.")]
    assert ChatHistoryDB(isolated / "chat_history.sqlite").load_history(1) == [("A question", "Noted.")]
