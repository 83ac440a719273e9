"""Every Ollama fault through both faces: one clear sentence, the message kept, the next message works.

Each case scripts the fake server (or leaves a port closed), asks once through
the CLI (`--once`, a real subprocess) and once through the web app (AppTest),
then checks the stored turn and that a second question, with the fault gone,
is answered.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fakes.ollama import Drop, FakeOllama, Hang, Raw, Reply, free_port
from fakes.replies import chunk, final
from history import ChatHistoryDB
from tests.cli_helpers import NAMED_STORE
from tools.registry import MAX_OUTPUT_CHARS

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Fault:
    name: str
    replies: list[Reply]
    sentence: str  # a part of the one sentence the user must see
    partial: str = ""  # the text that must be kept
    status: str = "error"
    prepare: Callable[[FakeOllama], None] = lambda fake: None
    env: dict[str, str] = field(default_factory=dict)


def malformed_arguments() -> Reply:
    call = {"function": {"name": "sqrt", "arguments": '{"x": 144}'}}
    return Reply([chunk(content="Let me work it out. "), chunk(tool_calls=[call]), final("stop", 1, 1)])


FAULTS = [
    Fault("model not pulled", [], "ollama pull qwen3:4b", prepare=lambda fake: fake.models.clear()),
    Fault(
        "out of memory",
        [Reply.http_error(500, "model requires more system memory (5.5 GiB) than is available")],
        "more system memory",
    ),
    Fault("a hang", [Reply([Hang(30)])], "did not answer within 1 s", env={"REQUEST_TIMEOUT": "1"}),
    Fault(
        "an error line mid-stream",
        [Reply.then("Half an answer", Raw('{"error": "CUDA error"}'))],
        "reported an error while answering: CUDA error",
        partial="Half an answer",
    ),
    Fault(
        "a garbage line mid-stream",
        [Reply.then("Half an answer", Raw("<html>proxy error</html>"))],
        "cannot read",
        partial="Half an answer",
    ),
    Fault("the connection dropped", [Reply.then("Half an answer", Drop())], "broke off", partial="Half an answer"),
    Fault(
        "tool arguments as a JSON string", [malformed_arguments()], "malformed tool call", partial="Let me work it out."
    ),
]


def unescaped(markdown: str) -> str:
    """Text as shown: the web app escapes Markdown characters in messages."""
    return re.sub(r"\\(.)", r"\1", markdown)


def db(folder: Path) -> ChatHistoryDB:
    return ChatHistoryDB(folder / "chat_history.sqlite")


def cli(server: str, question: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--server", server, "--once", question],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **NAMED_STORE, **env},
    )


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_cli(fault: Fault, fake_ollama: FakeOllama, isolated: Path) -> None:
    fault.prepare(fake_ollama)
    fake_ollama.script(*fault.replies)
    failed = cli(fake_ollama.url, "First question", fault.env)
    assert failed.returncode == 1
    said = [line for line in failed.stderr.strip().splitlines() if not line.endswith("is thinking…")]
    assert len(said) == 1 and fault.sentence in said[0], "one sentence (after the one waiting line, if any)"
    fake_ollama.models[:] = ["qwen3:4b"]
    fake_ollama.script(Reply.text("Second answer."))
    assert cli(fake_ollama.url, "Second question", fault.env).stdout == "Second answer.\n"
    first, second = db(isolated).get_turns(1)
    assert (first.user, first.assistant, first.status) == ("First question", fault.partial, fault.status)
    assert fault.sentence in (first.error or "")
    assert (second.assistant, second.status) == ("Second answer.", "complete")


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_web_app(fault: Fault, fake_ollama: FakeOllama, isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    for key, value in fault.env.items():
        monkeypatch.setenv(key, value)
    fault.prepare(fake_ollama)
    fake_ollama.script(*fault.replies)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30).run()
    app.chat_input(key="question").set_value("First question").run()
    assert not app.exception
    assert any(fault.sentence in unescaped(error.value) for error in app.error)
    fake_ollama.models[:] = ["qwen3:4b"]
    fake_ollama.script(Reply.text("Second answer."))
    app.chat_input(key="question").set_value("Second question").run()
    first, second = db(isolated).get_turns(1)
    assert (first.user, first.assistant, first.status) == ("First question", fault.partial, fault.status)
    assert (second.assistant, second.status) == ("Second answer.", "complete")


def test_server_down_then_started(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    failed = cli(url, "First question", {})
    assert failed.returncode == 1 and failed.stderr.startswith(f"Cannot reach Ollama at {url}")
    monkeypatch.setenv("ENDPOINT", url)
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30).run()
    app.chat_input(key="question").set_value("Web question").run()
    assert any("Cannot reach Ollama" in unescaped(error.value) for error in app.error)
    with FakeOllama(port=port) as fake:
        fake.script(Reply.text("Now it works."), Reply.text("Here too."))
        assert cli(url, "Again", {}).stdout == "Now it works.\n"
        app.chat_input(key="question").set_value("Web again").run()
    turns = db(isolated).get_turns(1)
    assert [(t.user, t.status) for t in turns] == [
        ("First question", "error"),
        ("Web question", "error"),
        ("Again", "complete"),
        ("Web again", "complete"),
    ]


def test_a_model_that_calls_tools_forever_is_stopped(fake_ollama: FakeOllama, isolated: Path) -> None:
    counter = iter(range(1, 1000))
    fake_ollama.responder = lambda body: (
        Reply.tool_calls(("add", {"a": next(counter), "b": 1})) if body.get("tools") else Reply.text("Stopping here.")
    )
    result = cli(fake_ollama.url, "Loop", {"MAX_TOOL_ROUNDS": "3"})
    assert result.returncode == 0 and result.stdout == "Stopping here.\n"
    (turn,) = db(isolated).get_turns(1)
    assert len(turn.tool_calls) == 3 and len(fake_ollama.chat_requests) == 4


def test_long_tool_output_is_cut_with_a_note(fake_ollama: FakeOllama, isolated: Path) -> None:
    folder = isolated / "workspace" / "drawings"
    folder.mkdir(parents=True)
    for number in range(300):  # a folder listing of about 60,000 characters
        (folder / f"{number:03d}-{'general-arrangement-level-' * 7}.pdf").touch()
    fake_ollama.script(Reply.tool_calls(("list_files", {"path": "drawings"})), Reply.text("Many drawings."))
    assert cli(fake_ollama.url, "Which drawings are there?", {"NUM_CTX": "16384"}).returncode == 0
    (tool_message,) = [m for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "tool"]
    shown, note = tool_message["content"].rsplit("\n", 1)
    assert len(shown) == MAX_OUTPUT_CHARS and shown.startswith("drawings/ (300 entries)")
    assert note.startswith(f"[output cut: showing the first {MAX_OUTPUT_CHARS:,} of ") and "characters]" in note
    (turn,) = db(isolated).get_turns(1)
    assert turn.tool_calls[0].output == tool_message["content"], "the record holds what the model saw"


def test_an_unknown_tool_and_a_tool_call_in_the_text_both_end_in_an_answer(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.script(
        Reply.tool_calls(("cube_root", {"x": 27})),
        Reply.text('{"name": "power", "arguments": {"base": 27, "exponent": 0.3333333333333333}}'),
        Reply.text("About 3."),
    )
    result = cli(fake_ollama.url, "Cube root of 27?", {})
    assert result.returncode == 0 and result.stdout == "About 3.\n"
    (turn,) = db(isolated).get_turns(1)
    assert [c.name for c in turn.tool_calls] == ["cube_root", "power"] and turn.tool_calls[0].error
