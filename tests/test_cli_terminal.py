"""The CLI on a terminal (a pseudo-terminal around the real `python main.py`) and off one (pipes):
the wait before the first word, tool calls in progress, and what is left on the screen."""

from __future__ import annotations

from fakes.ollama import FakeOllama, Pause, Reply
from fakes.replies import chunk, final
from tests.cli_helpers import Screen, run_cli, run_in_terminal


def slow_answer(text: str, seconds: float) -> Reply:
    return Reply([Pause(seconds), chunk(content=text), final("stop", 42, 3)])


def test_on_a_terminal_a_spinner_counts_the_seconds_then_gives_way_to_the_answer(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(slow_answer("The answer.", 1.4))
    code, output = run_in_terminal("--once", "hi", "--server", fake_ollama.url)
    assert code == 0, output
    assert "qwen3:4b is thinking… 0 s" in output and "qwen3:4b is thinking… 1 s" in output
    assert output.count("\r\x1b[2K") > 5, "redrawn in place, several times a second"
    assert Screen(output).text == "The answer.", "the spinner leaves no trace"


def test_on_a_terminal_a_tool_call_in_progress_is_one_line_until_its_result(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 144})), slow_answer("It is 12.", 0.5))
    code, output = run_in_terminal("--once", "sqrt 144?", "--server", fake_ollama.url, columns=60)
    assert code == 0, output
    assert "running sqrt(x=144)" in output
    assert Screen(output, columns=60).text == "→ sqrt(x=144) = 12.0\nIt is 12."


def test_the_spinner_never_wraps_a_narrow_terminal(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(slow_answer("Done.", 0.5))
    model = "a-model-with-a-rather-long-name:latest"
    fake_ollama.models.append(model)
    code, output = run_in_terminal("--once", "hi", "--server", fake_ollama.url, "--model", model, columns=30)
    assert code == 0, output
    drawn = [part.split("\x1b[0m")[0] for part in output.split("\r\x1b[2K\x1b[2m")[1:]]
    assert drawn and all(len(line) < 30 and line.endswith(" 0 s") for line in drawn), drawn


def test_off_a_terminal_a_long_wait_is_one_plain_line(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(slow_answer("The answer.", 1.6))
    result = run_cli("--once", "hi", "--server", fake_ollama.url)
    assert (result.returncode, result.stdout) == (0, "The answer.\n")
    assert result.stderr == "qwen3:4b is thinking…\n", "no animation, no carriage return, no escape sequence"


def test_off_a_terminal_a_quick_answer_adds_nothing(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("Quick."))
    result = run_cli("--once", "hi", "--server", fake_ollama.url)
    assert (result.returncode, result.stdout, result.stderr) == (0, "Quick.\n", "")
