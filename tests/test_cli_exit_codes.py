"""The exit codes docs/command-line.md lists, one test per row, through the real `main.py` and the fake Ollama."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from fakes.ollama import Drop, FakeOllama, Gate, Hang, Pause, Reply, free_port, wait_until
from fakes.replies import chunk, final
from history import ChatHistoryDB
from tests.cli_helpers import MAIN, interrupt_while_waiting, run_cli
from tests.waiting import wait_for_output, wait_for_stdin_read

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 130, 143
needs_sigint = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery to a child differs on Windows")


def test_0_when_the_answer_arrives(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("Four."))
    result = run_cli("--once", "What is 2 + 2?", "--server", fake_ollama.url)
    assert (result.returncode, result.stdout) == (EXIT_OK, "Four.\n")


@pytest.mark.parametrize("leave", ["/exit\n", "/quit\n", ""], ids=["exit", "quit", "ctrl-d"])
def test_0_when_leaving_the_prompt_even_after_a_failed_turn(fake_ollama: FakeOllama, leave: str) -> None:
    fake_ollama.script(Reply.http_error(500, "boom"))
    result = run_cli("--server", fake_ollama.url, stdin=f"A question\n{leave}")
    assert result.returncode == EXIT_OK, result.stderr
    assert "Ollama reported an error (HTTP 500): boom" in result.stdout, "the failure was said at the prompt"


def test_1_when_ollama_cannot_be_reached() -> None:
    result = run_cli("--once", "hi", "--server", f"http://127.0.0.1:{free_port()}")
    assert result.returncode == EXIT_FAILED and "Cannot reach Ollama" in result.stderr


def test_1_when_the_model_is_not_pulled(fake_ollama: FakeOllama) -> None:
    result = run_cli("--once", "hi", "--server", fake_ollama.url, "--model", "nope:1b")
    assert result.returncode == EXIT_FAILED and "ollama pull nope:1b" in result.stderr


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (Reply.http_error(500, "boom"), "Ollama reported an error (HTTP 500): boom"),
        (Reply.then("The first half", Drop()), "broke off in the middle of the answer"),
    ],
    ids=["ollama-error", "connection-dropped"],
)
def test_1_when_the_turn_fails(fake_ollama: FakeOllama, reply: Reply, said: str) -> None:
    fake_ollama.script(reply)
    result = run_cli("--once", "hi", "--server", fake_ollama.url)
    assert result.returncode == EXIT_FAILED and said in result.stderr


def test_1_when_the_model_answers_nothing(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text(""))
    result = run_cli("--once", "hi", "--server", fake_ollama.url)
    assert result.returncode == EXIT_FAILED and result.stdout == ""
    assert "qwen3:4b returned nothing" in result.stderr and "another model" in result.stderr


def test_an_empty_answer_is_said_at_the_prompt_too(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text(""), Reply.text("Here it is."))
    result = run_cli("--server", fake_ollama.url, stdin="hi\nhi again\n/exit\n")
    assert result.stdout.count("returned nothing") == 1 and "Here it is." in result.stdout


def test_1_when_the_chat_history_cannot_be_opened(isolated: Path) -> None:
    (isolated / "chat_history.sqlite").write_text("not a database")
    result = run_cli("--once", "hi")
    assert result.returncode == EXIT_FAILED and "left untouched" in result.stderr


def test_1_when_the_chat_history_cannot_store_the_turn(fake_ollama: FakeOllama, isolated: Path) -> None:
    spoilt = Gate()  # the model answers once the files are spoilt
    fake_ollama.script(Reply([spoilt, chunk(content="Answer."), final("stop", 42, 2)]))
    process = subprocess.Popen(
        [sys.executable, str(MAIN), "--once", "hi", "--server", fake_ollama.url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert wait_until(lambda: len(fake_ollama.chat_requests) == 1, timeout=15)
    for file in isolated.glob("chat_history.sqlite*"):  # spoilt while the model answers
        file.write_bytes(b"garbage!" * (file.stat().st_size // 8 + 1))
    spoilt.gate.set()
    out, err = process.communicate(timeout=30)
    assert process.returncode == EXIT_FAILED and "is not an SQLite database" in err


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["--once", "hi"], {"NUM_CTX": "lots"}, "Setting NUM_CTX has the value 'lots'"),
        (["--bogus"], {}, "unrecognized arguments: --bogus"),
        (["--once", "   "], {}, "No question given"),
    ],
    ids=["bad-setting", "bad-flag", "no-question"],
)
def test_2_for_a_bad_setting_or_usage(args: list[str], env: dict[str, str], said: str) -> None:
    result = run_cli(*args, env=env)
    assert result.returncode == EXIT_USAGE and said in result.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--env-file", "settings.env"], "The settings file settings.env does not exist"),
        (["--db", "projcts/tower/history.sqlite"], "is in a folder that does not exist"),
    ],
    ids=["missing-env-file", "mistyped-db-folder"],
)
def test_2_for_a_mistyped_path_and_nothing_is_created(isolated: Path, args: list[str], said: str) -> None:
    result = run_cli(*args, "--once", "hi")
    assert result.returncode == EXIT_USAGE and said in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, "one sentence"
    assert list(isolated.iterdir()) == [], "no folder, no empty history, no workspace folder"


def test_a_new_history_file_in_an_existing_folder_is_fine(fake_ollama: FakeOllama, isolated: Path) -> None:
    (isolated / "tower").mkdir()
    fake_ollama.script(Reply.text("Four."))
    result = run_cli("--db", "tower/history.sqlite", "--once", "2 + 2?", "--server", fake_ollama.url)
    assert result.returncode == EXIT_OK and (isolated / "tower" / "history.sqlite").is_file()


@needs_sigint
def test_130_when_ctrl_c_stops_the_answer_of_once(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.then("The first half", Hang(20)))
    out, err, code = interrupt_while_waiting(fake_ollama, "", 1, "", "--once", "Explain load paths")
    assert code == EXIT_INTERRUPTED, err
    assert out == "The first half\n" and "[stopped]" in err and "Traceback" not in err
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    (turn,) = db.get_turns(db.list_chats()[0][0])
    assert (turn.status, turn.assistant) == ("stopped", "The first half"), "what arrived is kept"


@needs_sigint
def test_130_when_ctrl_c_comes_while_once_reads_the_question(fake_ollama: FakeOllama, isolated: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, str(MAIN), "--once", "--server", fake_ollama.url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_stdin_read(process.pid)  # the history is open: it waits for the question on standard input
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=15)
    assert process.returncode == EXIT_INTERRUPTED and "Traceback" not in err
    assert fake_ollama.chat_requests == []


@needs_sigint
@pytest.mark.parametrize("mode", ["once", "prompt"])
def test_143_when_sigterm_stops_the_answer_and_what_arrived_is_kept(
    fake_ollama: FakeOllama, isolated: Path, mode: str
) -> None:
    """SIGTERM (a service manager, `docker stop`) is Ctrl-C for the answer, then the CLI ends."""
    fake_ollama.script(
        Reply([chunk(content="The first half"), Pause(30), chunk(content=" and the rest"), final("stop", 42, 9)])
    )
    once = ["--once", "Explain load paths"] if mode == "once" else []
    process = subprocess.Popen(
        [sys.executable, str(MAIN), "--server", fake_ollama.url, "--plain", *once],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stderr is not None
    if mode == "prompt":
        process.stdin.write("Explain load paths\n")
        process.stdin.flush()  # and standard input stays open: only the signal ends it
    wait_for_output(process, "The first half")
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == EXIT_TERMINATED, process.stderr.read()
    err = process.stderr.read()
    assert "Ended by SIGTERM; what had arrived of the answer is saved" in err and "Traceback" not in err
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    (turn,) = db.get_turns(db.list_chats()[0][0])
    assert (turn.status, turn.assistant) == ("stopped", "The first half"), "what arrived is kept"


@needs_sigint
@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="knowing the prompt is blocked needs Linux's /proc")
def test_143_when_sigterm_comes_at_the_prompt(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("Answered."))
    process = subprocess.Popen(
        [sys.executable, str(MAIN), "--server", fake_ollama.url, "--plain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stderr is not None
    process.stdin.write("A question\n")
    process.stdin.flush()
    pieces = wait_for_output(process, "A question >")  # answered, and the prompt waits for the next line
    # A signal that comes between Python's last look and the read is handled only when the read returns
    # (CPython's way with blocking calls): so the signal is sent once the prompt is blocked in its read.
    wait_for_stdin_read(process.pid)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == EXIT_TERMINATED, process.stderr.read()
    assert "Answered." in "".join(pieces) and "Traceback" not in process.stderr.read()
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    assert [turn.status for turn in db.get_turns(db.list_chats()[0][0])] == ["complete"]


def test_1_without_a_traceback_when_standard_output_closes_early(fake_ollama: FakeOllama) -> None:
    """`python main.py --once … | head -1`: the reader has gone; say nothing more, and exit."""
    fake_ollama.script(Reply.text("".join(f"Line {n} of a long schedule.\n" for n in range(1, 20001)), pieces=50))
    process = subprocess.Popen(  # a context room for more than the pipe holds (64 KB), so writing must fail
        [sys.executable, str(MAIN), "--once", "Schedule?", "--server", fake_ollama.url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NUM_CTX": "131072"},
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline() == "Line 1 of a long schedule.\n"
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=15) == EXIT_FAILED
    assert "Traceback" not in err and "Exception ignored" not in err, err
