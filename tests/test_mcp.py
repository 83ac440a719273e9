"""MCP tools: a stdio server written with the official SDK is discovered, its tools called as SERVER__tool
with consent (autoApprove, or the user at the prompt), refused without it, and a crash is one sentence."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from fakes.ollama import FakeOllama, Reply
from tests.cli_helpers import run_cli

SERVER = Path(__file__).with_name("mcp_office_server.py")


def config(folder: Path, **extra: Any) -> dict[str, str]:
    servers = {"office": {"command": sys.executable, "args": [str(SERVER)], "autoApprove": ["lookup", "crash"]}}
    servers.update(extra)
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
