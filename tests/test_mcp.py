"""MCP tools: a stdio server written with the official SDK is discovered, its tools called as SERVER__tool
with consent (autoApprove, or the user at the prompt), refused without it, and a crash is one sentence."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from fakes.ollama import FakeOllama, Reply, wait_until
from tests.cli_helpers import run_cli
from tests.conftest import ROOT
from tests.protocol_client import running_server

pytestmark = pytest.mark.slow

SERVER = Path(__file__).with_name("mcp_office_server.py")


def config(folder: Path, env: dict[str, str] | None = None, **extra: Any) -> dict[str, str]:
    office = {"command": sys.executable, "args": [str(SERVER)], "autoApprove": ["lookup", "crash"], "env": env or {}}
    servers = {"office": office, **extra}
    path = folder / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    return {"MCP_CONFIG": str(path)}


def tool_results(fake: FakeOllama) -> list[str]:
    return [m["content"] for m in fake.chat_requests[-1]["messages"] if m["role"] == "tool"]


def test_a_servers_tools_are_offered_and_an_approved_one_runs(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.tool_calls(("office__lookup", {"designation": "W18X50"})), Reply.text("Approved."))
    result = run_cli("--once", "Is W18X50 in the office table?", "--server", fake_ollama.url, env=config(isolated))
    assert result.returncode == 0, result.stderr
    offered = {tool["function"]["name"]: tool for tool in fake_ollama.chat_requests[0]["tools"]}
    assert {"office__lookup", "office__price", "office__crash"} <= set(offered)
    assert offered["office__lookup"]["function"]["parameters"]["required"] == ["designation"]
    assert tool_results(fake_ollama) == ["W18X50: approved for office use (office table rev. 7)"]


def test_a_tool_outside_auto_approve_is_refused_with_nobody_to_ask(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.tool_calls(("office__price", {"designation": "W18X50"})), Reply.text("Refused."))
    result = run_cli("--once", "Price of W18X50?", "--server", fake_ollama.url, env=config(isolated))
    assert result.returncode == 0, result.stderr
    (refusal,) = tool_results(fake_ollama)
    assert "office__price needs your approval" in refusal and 'add "price" to autoApprove of office' in refusal


def test_the_prompt_asks_and_the_answer_decides(fake_ollama: FakeOllama, isolated: Path) -> None:
    price = Reply.tool_calls(("office__price", {"designation": "W18X50"}))
    fake_ollama.script(price, Reply.text("81.50."), price, Reply.text("Not allowed."))
    typed = "Price of W18X50?\ny\nAnd again?\nn\n"
    result = run_cli("--server", fake_ollama.url, stdin=typed, env=config(isolated))
    assert result.stdout.count("Allow office__price(designation='W18X50')? [y/N]") == 2
    first, second = [
        [m["content"] for m in r["messages"] if m["role"] == "tool"] for r in fake_ollama.chat_requests[1::2]
    ]
    assert first[-1] == "W18X50: 81.50 GBP/m" and "needs your approval" in second[-1]


def test_a_crash_mid_call_and_a_server_that_does_not_start_are_one_sentence_each(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    broken = {"command": str(isolated / "no-such-program")}
    fake_ollama.script(Reply.tool_calls(("office__crash", {})), Reply.text("The server is gone; going on."))
    result = run_cli("--once", "Crash it", "--server", fake_ollama.url, env=config(isolated, broken=broken))
    assert result.returncode == 0, result.stderr
    assert "The server is gone; going on." in result.stdout
    (crashed,) = tool_results(fake_ollama)
    assert crashed.startswith("Error: office__crash failed:") and "stopped" in crashed
    assert not any(t["function"]["name"].startswith("broken__") for t in fake_ollama.chat_requests[0]["tools"])


def test_the_web_app_allows_a_tool_from_its_panel(
    app: AppTest, fake_ollama: FakeOllama, isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in config(isolated).items():
        monkeypatch.setenv(key, value)
    price = Reply.tool_calls(("office__price", {"designation": "W18X50"}))
    fake_ollama.script(price, Reply.text("Refused."), price, Reply.text("81.50 GBP/m."))
    app.run()
    app.chat_input(key="question").set_value("Price of W18X50?").run()
    assert "needs your approval" in tool_results(fake_ollama)[-1]
    app.checkbox(key="allow-office__price").check().run()
    app.chat_input(key="question").set_value("Price of W18X50, now?").run()
    assert tool_results(fake_ollama)[-1] == "W18X50: 81.50 GBP/m"
    captions = [c.value.replace("\\", "") for c in app.sidebar.caption]
    assert any("office__lookup · approved in MCP_CONFIG" in c for c in captions)


def test_a_deeply_nested_mcp_config_is_one_sentence_for_the_cli_and_the_server(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    """JSON nested past Python's recursion limit once ended both with a RecursionError traceback."""
    (isolated / "mcp.json").write_text('{"mcpServers": ' + "[" * 100_000 + "]" * 100_000 + "}")
    env = {"MCP_CONFIG": str(isolated / "mcp.json")}
    for command in (["--once", "hi"], ["serve", "--port", "0"]):
        result = run_cli(*command, "--server", fake_ollama.url, env=env)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert result.stderr == f"MCP_CONFIG {isolated / 'mcp.json'}: the JSON is nested too deeply to be read\n"


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def marked(marker: str) -> list[int]:
    """The live processes whose environment holds OFFICE_MARK=marker (MCP servers of one test)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and f"OFFICE_MARK={marker}".encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return [pid for pid in found if alive(pid)]


def stubborn_pids(pid_file: Path) -> list[int]:
    return [int(line) for line in pid_file.read_text().split()] if pid_file.exists() else []


def test_servers_that_will_not_stop_are_stopped_with_the_app(fake_ollama: FakeOllama, isolated: Path) -> None:
    """A server that ignores SIGTERM, outlives its standard input and has a child doing the same once
    outlived the CLI, the protocol server and the web app, holding their standard error open."""
    pid_file = isolated / "stubborn.pids"
    env = config(isolated, env={"OFFICE_STUBBORN": str(pid_file)})
    lookup = Reply.tool_calls(("office__lookup", {"designation": "W18X50"}))
    fake_ollama.script(lookup, Reply.text("Approved."))
    result = run_cli("--once", "Is W18X50 approved?", "--server", fake_ollama.url, env=env)  # waits for stderr's end
    assert result.returncode == 0 and "Approved." in result.stdout, result.stderr
    assert len(stubborn_pids(pid_file)) == 2 and not any(alive(pid) for pid in stubborn_pids(pid_file))
    pid_file.unlink()
    fake_ollama.script(lookup, Reply.text("Approved."))
    fake_ollama.responder = lambda body: Reply.text("Summary.")
    with running_server(fake_ollama.url, isolated, env=env) as server:
        done = server.connect().request({"type": "dispatch", "agentID": "assistant", "id": "d", "content": "W18X50?"})
        assert done[-1]["content"] == "Approved."
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0
    assert len(stubborn_pids(pid_file)) == 2 and not any(alive(pid) for pid in stubborn_pids(pid_file))
    pid_file.unlink()
    listing = (
        "from pathlib import Path; from app import McpPool, start; "
        "start(Path('.env'), {}, McpPool()).outside_tools.names()"
    )
    ended = subprocess.run(  # as the web app ends: nothing calls close, the interpreter just exits
        [sys.executable, "-c", listing], capture_output=True, text=True, timeout=30, cwd=isolated,
        env={**os.environ, **env, "PYTHONPATH": str(ROOT), "EMBED_MODEL": ""},
    )  # fmt: skip
    assert ended.returncode == 0, ended.stderr
    assert len(stubborn_pids(pid_file)) == 2 and not any(alive(pid) for pid in stubborn_pids(pid_file))


def test_the_web_apps_tabs_share_one_set_of_servers_stopped_when_idle(
    fake_ollama: FakeOllama, isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every page load once started servers of its own that lived until Streamlit ended (10 reloads: 20)."""
    marker = uuid.uuid4().hex
    for key, value in {**config(isolated, env={"OFFICE_MARK": marker}), "MCP_IDLE_SECONDS": "10"}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    price, lookup = (Reply.tool_calls((f"office__{t}", {"designation": "W18X50"})) for t in ("price", "lookup"))
    fake_ollama.script(price, Reply.text("81.50."), price, Reply.text("Refused."), lookup, Reply.text("Approved."))
    tabs = [AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30) for _ in range(5)]
    for tab in tabs:
        tab.run()
    assert len(marked(marker)) == 1, "five page loads, one server"
    tabs[0].checkbox(key="allow-office__price").check().run()
    tabs[0].chat_input(key="question").set_value("Price of W18X50?").run()
    assert tool_results(fake_ollama)[-1] == "W18X50: 81.50 GBP/m"
    tabs[1].chat_input(key="question").set_value("Price of W18X50?").run()  # another tab: its own consent
    assert "needs your approval" in tool_results(fake_ollama)[-1]
    assert wait_until(lambda: not marked(marker), timeout=90), "stopped after MCP_IDLE_SECONDS without a call"
    tabs[2].chat_input(key="question").set_value("Is W18X50 approved?").run()  # started again by the call
    assert tool_results(fake_ollama)[-1] == "W18X50: approved for office use (office table rev. 7)"
    assert len(marked(marker)) == 1
