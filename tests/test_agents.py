"""Agents: a Markdown file with YAML frontmatter limits the tools the model is sent and may run, adds its
prompt, and is remembered by its workspace; a bad file is reported, never a crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from agent import AIAgent
from app.agents import load_agents
from app.application import Application
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.cli_helpers import run_cli
from tests.protocol_client import running_server

BEAM_ONLY = """---
name: beam-only
description: Simple beams, nothing else.
tools: [beam_analysis]
temperature: 0.2
tags: [test]
---
Always answer in SI units and name the beam table you used.
"""


def test_an_agent_limits_the_tools_and_adds_its_prompt(fake_ollama: FakeOllama, isolated: Path) -> None:
    folder = isolated / "my-agents"
    folder.mkdir()
    (folder / "beam-only.md").write_text(BEAM_ONLY)
    agents = load_agents(folder)
    assert agents.problems == [] and set(agents.profiles) >= {"assistant", "steel-designer", "beam-only"}
    spaces = Application(
        ChatHistoryDB(isolated / "chat_history.sqlite"), AIAgent("qwen3:4b", fake_ollama.url, "Base."), agents=agents
    )
    chat = spaces.workspaces.create("Beams").chat_id
    spaces.agents.choose(chat, "beam-only")
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 4})), Reply.text("I can only do beams."))

    async def ask() -> list[Any]:
        return [event async for event in spaces.turns.ask("Square root of 4?", chat)]

    import asyncio

    events = asyncio.run(ask())
    request = fake_ollama.chat_requests[0]
    assert [tool["function"]["name"] for tool in request["tools"]] == ["beam_analysis"]
    assert request["messages"][0]["content"].startswith("Base.\n\nAlways answer in SI units")
    assert request["options"]["temperature"] == 0.2
    refused = [e.call for e in events if getattr(e, "call", None)]
    assert refused and refused[0].error and "no tool named 'sqrt'" in refused[0].error
    assert spaces.agents.of(chat) == "beam-only"


def test_bad_agent_files_are_reported_with_their_names_and_lines(isolated: Path) -> None:
    folder = isolated / "agents"
    folder.mkdir()
    (folder / "broken-yaml.md").write_text("---\nname: x\ntools: [a, b\n---\nbody")
    (folder / "no-description.md").write_text("---\nname: quiet\n---\nbody")
    (folder / "unknown-tool.md").write_text("---\nname: odd\ndescription: d\ntools: [teleport]\n---\n")
    (folder / "no-frontmatter.md").write_text("Just text.")
    problems = load_agents(folder).problems
    assert any("broken-yaml.md, line" in p and "not valid YAML" in p for p in problems)
    assert any("no-description.md: description: Field required" in p for p in problems)
    assert any("unknown-tool.md: tools: no tool named teleport" in p for p in problems)
    assert any("no-frontmatter.md, line 1" in p for p in problems)
    assert len(problems) == 4


def test_a_deeply_nested_agent_file_is_skipped_and_named_by_the_cli_and_the_server(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    """Nesting that makes the YAML reader recurse past Python's limit once ended both with a traceback."""
    (isolated / "mine").mkdir()
    (isolated / "mine" / "deep.md").write_text(f"---\nname: deep\ndescription: d\ntags: {'[' * 50_000}\n---\n")
    (isolated / "mine" / "deeper.md").write_text(f"---\nname: deeper\ndescription: {'{a: ' * 50_000}\n---\n")
    env = {"AGENTS_DIR": str(isolated / "mine")}
    fake_ollama.responder = lambda body: Reply.text("Still here.")
    result = run_cli("--once", "hi", "--server", fake_ollama.url, env=env)
    assert result.returncode == 0 and "Still here." in result.stdout, result.stderr
    assert "Traceback" not in result.stderr
    for name in ("deep.md", "deeper.md"):
        assert f"Agent file skipped: {isolated / 'mine' / name}: the frontmatter is nested too deeply" in result.stderr
    with running_server(fake_ollama.url, isolated, env=env) as server:
        assert server.connect().request({"id": "l", "type": "list-sessions"})[0]["type"] == "sessions"
        assert f"Agent file skipped: {isolated / 'mine' / 'deep.md'}: the frontmatter" in server.stderr()


def test_the_cli_picks_lists_and_refuses_agents(fake_ollama: FakeOllama, isolated: Path) -> None:
    (isolated / "mine").mkdir()
    (isolated / "mine" / "bad.md").write_text("---\nname: [\n---\n")
    env = {"AGENTS_DIR": str(isolated / "mine")}
    result = run_cli("--server", fake_ollama.url, "--agent", "steel-designer", stdin="/agent\n", env=env)
    assert result.returncode == 0, result.stderr
    assert "* steel-designer" in result.stdout and "  document-researcher" in result.stdout
    assert "Agent file skipped:" in result.stderr and "bad.md, line" in result.stderr
    refused = run_cli("--server", fake_ollama.url, "--agent", "astronaut", stdin="")
    assert refused.returncode == 2 and "There is no agent 'astronaut'" in refused.stderr


def test_the_protocol_servers_agent_id_chooses_the_agent(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("Checked."))
    fake_ollama.responder = lambda body: Reply.text("Summary.")
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        done = client.request({"id": "s", "type": "dispatch", "agentID": "steel-designer", "content": "W18x50?"})[-1]
        listed = client.request({"id": "l", "type": "list-sessions", "agentID": "steel-designer"})[0]["sessions"]
    offered = [tool["function"]["name"] for tool in fake_ollama.chat_requests[0]["tools"]]
    assert "steel_beam_check" in offered and "read_file" not in offered and "search_documents" not in offered
    assert "You are a steel designer's assistant" in fake_ollama.chat_requests[0]["messages"][0]["content"]
    assert [s["sessionID"] for s in listed] == [done["sessionID"]]


def test_the_web_app_picks_the_workspaces_agent(app: AppTest, isolated: Path) -> None:
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    chat = db.create_chat("Bridge")
    db.add_to_history(chat, "Hello", "Hi.")
    app.run()
    picker = app.selectbox(key=f"agent-{chat}")
    assert picker.value == "assistant" and "steel-designer" in picker.options
    picker.select("steel-designer").run()
    assert ChatHistoryDB(isolated / "chat_history.sqlite").get_chat(chat).agent == "steel-designer"
