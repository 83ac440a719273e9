"""Hooks: a pre-tool hook can block a call (its stderr is the reason), a post-tool hook receives the result;
commands are argument lists, never shell strings; a bad HOOKS_CONFIG is one sentence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fakes.ollama import FakeOllama, Reply
from tests.cli_helpers import MAIN, run_cli

BLOCK = (
    "import sys, json; call = json.load(sys.stdin); "
    "print('Checks need the chief engineer', file=sys.stderr); sys.exit(3)"
)
LOG = "import sys; open('calc-log.jsonl', 'a').write(sys.stdin.read() + '\\n')"


def hooks_file(folder: Path) -> Path:
    config = {
        "pre-tool": [{"match": "steel_beam_check", "command": [sys.executable, "-c", BLOCK]}],
        "post-tool": [{"match": "*", "command": [sys.executable, "-c", LOG]}],
    }
    path = folder / "hooks.json"
    path.write_text(json.dumps(config))
    return path


def test_a_pre_tool_hook_blocks_and_a_post_tool_hook_receives_the_result(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    check = (
        "steel_beam_check",
        {"designation": "W18x50", "span": "35 ft", "dead_load": "0.45 kip/ft", "live_load": "0.75 kip/ft"},
    )
    fake_ollama.script(Reply.tool_calls(check, ("sqrt", {"x": 144})), Reply.text("Blocked; 12."))
    result = run_cli("--once", "Check it", "--server", fake_ollama.url, env={"HOOKS_CONFIG": str(hooks_file(isolated))})
    assert result.returncode == 0, result.stderr
    tool_messages = [m["content"] for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "tool"]
    assert tool_messages[0] == "Error: blocked by a hook: Checks need the chief engineer"
    assert tool_messages[1] == "12.0"
    (logged,) = [json.loads(line) for line in (isolated / "calc-log.jsonl").read_text().splitlines()]
    assert logged == {"tool": "sqrt", "arguments": {"x": 144}, "output": "12.0", "error": None}


def test_a_bad_hooks_file_is_one_sentence(fake_ollama: FakeOllama, isolated: Path) -> None:
    (isolated / "hooks.json").write_text('{"pre-tool": [{"match": "*", "command": "rm -rf /"}]}')
    result = run_cli("--once", "hi", "--server", fake_ollama.url, env={"HOOKS_CONFIG": str(isolated / "hooks.json")})
    assert result.returncode == 2
    assert "HOOKS_CONFIG" in result.stderr and "pre-tool.0.command" in result.stderr
    (isolated / "hooks.json").write_text("{not json")
    result = run_cli("--once", "hi", "--server", fake_ollama.url, env={"HOOKS_CONFIG": str(isolated / "hooks.json")})
    assert result.returncode == 2 and "line 1: not valid JSON" in result.stderr


def test_a_deeply_nested_hooks_file_is_one_sentence_for_the_cli_and_the_server(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    """JSON nested past Python's recursion limit once ended both with a RecursionError traceback."""
    (isolated / "hooks.json").write_text("[" * 100_000 + "]" * 100_000)
    env = {"HOOKS_CONFIG": str(isolated / "hooks.json")}
    for command in (["--once", "hi"], ["serve", "--port", "0"]):
        result = run_cli(*command, "--server", fake_ollama.url, env=env)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert result.stderr == f"HOOKS_CONFIG {isolated / 'hooks.json'}: the JSON is nested too deeply to be read\n"


FLOOD = """
import subprocess, sys, time

left = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
open("left-behind.pid", "w").write(str(left.pid))
chunk = b"x" * (1 << 20)
for _ in range(150):
    sys.stdout.buffer.write(chunk)
    sys.stderr.buffer.write(chunk)
sys.stdout.flush(); sys.stderr.flush()
time.sleep(600)
"""
PEAK = (  # runs a command; then its largest process's peak memory (KiB) on the last line of standard error
    "import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(code)"
)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


@pytest.mark.slow
def test_a_hook_that_floods_and_hangs_costs_little_memory_and_leaves_nothing_running(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    """300 MB of output once took the CLI to 650 MB, and what the hook started outlived its time limit."""
    (isolated / "flood.py").write_text(FLOOD)
    config = {"pre-tool": [{"match": "sqrt", "command": [sys.executable, "flood.py"]}]}
    (isolated / "hooks.json").write_text(json.dumps(config))
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 144})), Reply.text("Blocked."))
    command = [sys.executable, "-c", PEAK, sys.executable, str(MAIN), "--once", "sqrt 144", "--server", fake_ollama.url]
    env = {**os.environ, "HOOKS_CONFIG": str(isolated / "hooks.json")}
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    refusal = [m["content"] for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "tool"]
    assert refusal == [f"Error: blocked by a hook: the hook {sys.executable} took longer than 10 s"]
    peak_mb = int(result.stderr.splitlines()[-1]) // 1024
    assert peak_mb < 200, f"the CLI peaked at {peak_mb} MB"
    assert not alive(int((isolated / "left-behind.pid").read_text())), "the hook's own child was stopped with it"
