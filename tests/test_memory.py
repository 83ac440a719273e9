"""The user's memory: kept in the store, seen by every workspace's prompt, managed by tools and faces."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from agent import AIAgent
from app.application import Application
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.cli_helpers import run_cli

FACT = "Works in SI units and designs to Eurocode 3"


def service(fake: FakeOllama, folder: Path) -> Application:
    return Application(ChatHistoryDB(folder / "chat_history.sqlite"), AIAgent("qwen3:4b", fake.url, "system"))


async def ask(spaces: Application, question: str, chat_id: int) -> None:
    async for _ in spaces.turns.ask(question, chat_id):
        pass


async def test_a_memory_added_in_one_workspace_is_in_another_workspaces_prompt(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    fake_ollama.script(
        Reply.tool_calls(("memory_add", {"text": FACT})), Reply.text("Noted."), Reply.text("Using SI units.")
    )
    first, second = spaces.workspaces.create("Bridge").chat_id, spaces.workspaces.create("Warehouse").chat_id
    await ask(spaces, "Remember that I work in SI units and design to Eurocode 3.", first)
    await ask(spaces, "Which units should you use?", second)
    system = fake_ollama.chat_requests[-1]["messages"][0]
    assert system["role"] == "system" and f"- {FACT}" in system["content"]
    assert [m.text for m in spaces.memory.all()] == [FACT]


def test_the_memory_tools_search_and_remove(store_target: str) -> None:
    from app.memory import MemoryBook
    from tools import ToolContext, run_tool

    book = MemoryBook(ChatHistoryDB(store_target))
    context = ToolContext(memory=book)
    added = run_tool("memory_add", {"text": FACT}, context)
    run_tool("memory_add", {"text": "The engineer's name is Ada"}, context)
    found = run_tool("memory_search", {"query": "which design code"}, context)
    assert '"text": "Works in SI units and designs to Eurocode 3"' in found.output and added.error is None
    assert run_tool("memory_remove", {"memory_id": 1}, context).error is None
    assert [m.text for m in book.all()] == ["The engineer's name is Ada"]
    missing = run_tool("memory_remove", {"memory_id": 99}, context)
    assert missing.error and "there is no memory 99" in missing.error
    assert run_tool("memory_add", {"text": "  "}, context).error


def test_many_memories_bring_the_relevant_and_the_newest(store_target: str) -> None:
    from app.memory import MemoryBook

    book = MemoryBook(ChatHistoryDB(store_target))
    book.add("Timber is graded to C24 in this office")
    for n in range(30):
        book.add(f"Project {n} uses the standard drawing border")
    chosen = book.for_prompt("What timber grade do we use?")
    assert (
        "Timber is graded to C24 in this office" in chosen and "Project 29 uses the standard drawing border" in chosen
    )
    assert len(chosen) < 31


def test_the_cli_lists_adds_and_forgets(fake_ollama: FakeOllama) -> None:
    result = run_cli("--server", fake_ollama.url, stdin=f"/memory add {FACT}\n/memory\n/memory remove 1\n/memory\n")
    assert "Remembered (#1) for every workspace." in result.stdout
    assert f"#1  {FACT}" in result.stdout and "Forgot memory #1." in result.stdout
    assert "Nothing remembered yet" in result.stdout


def test_the_web_panel_edits_and_deletes(app: AppTest, isolated: Path) -> None:
    ChatHistoryDB(isolated / "chat_history.sqlite").add_memory(FACT)
    app.run()
    field = app.text_input(key="memory-1")
    assert field.value == FACT
    field.set_value("Works in SI units, Eurocodes").run()
    assert [m.text for m in ChatHistoryDB(isolated / "chat_history.sqlite").memories()] == [
        "Works in SI units, Eurocodes"
    ]
    app.button(key="forget-1").click().run()
    assert ChatHistoryDB(isolated / "chat_history.sqlite").memories() == []


def test_the_web_panel_adds_and_keeps_its_label(app: AppTest, isolated: Path) -> None:
    """The panel's label stays the same as facts come and go: a new label would close the panel after Add."""
    app.run()
    labels = [e.label for e in app.sidebar.expander if "Memory" in e.label]
    app.text_input(key="memory-new").set_value(f"  {FACT} ")
    app.button(key="FormSubmitter:memory-add-Add").click().run()
    assert not app.exception
    assert [m.text for m in ChatHistoryDB(isolated / "chat_history.sqlite").memories()] == [FACT]
    assert app.text_input(key="memory-1").value == FACT
    assert [e.label for e in app.sidebar.expander if "Memory" in e.label] == labels == ["Memory"]
