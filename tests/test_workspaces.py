"""The workspace rules both faces share, with a real SQLite file and the fake Ollama."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent import AIAgent
from core.workspaces import DEFAULT_WORKSPACE_NAME, Workspaces
from history import ChatHistoryDB
from tests.fake_ollama import FakeOllama, Reply, is_summary_request


@pytest.fixture
def spaces(fake_ollama: FakeOllama, tmp_path: Path) -> Workspaces:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system prompt")
    return Workspaces(ChatHistoryDB(tmp_path / "h.sqlite"), agent)


async def ask(spaces: Workspaces, text: str) -> int:
    events = [event async for event in spaces.agent.stream(text)]
    return spaces.record_turn(text, events[-1])


async def test_first_message_creates_and_names_the_workspace(spaces: Workspaces, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("Use a 2 x 2 m footing."), Reply.text("Yes."))
    question = "Size a pad footing for 800 kN on 200 kPa soil, column 400 x 400 mm, C25/30 concrete please"
    await ask(spaces, question)
    await ask(spaces, "Is that enough?")
    chat = spaces.current
    assert chat is not None and chat.chat_name == question[:64]
    assert spaces.db.load_history(chat.chat_id)[1] == ("Is that enough?", "Yes.")


async def test_named_workspace_keeps_its_name(spaces: Workspaces, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("ok"))
    spaces.create("Tower A")
    await ask(spaces, "first question")
    assert spaces.current.chat_name == "Tower A"


async def test_failed_turn_is_saved_and_marked(spaces: Workspaces, fake_ollama: FakeOllama) -> None:
    spaces.create()
    fake_ollama.script(Reply.http_error(500, "model requires more system memory"))
    await ask(spaces, "my question")
    (turn,) = spaces.db.get_turns(spaces.current_id)
    assert (turn.user, turn.assistant, turn.status) == ("my question", "", "error")
    assert "more system memory" in turn.error


async def test_switch_summarises_only_new_turns_then_loads_the_target(
    spaces: Workspaces, fake_ollama: FakeOllama
) -> None:
    tower = spaces.create("Tower A").chat_id
    fake_ollama.script(Reply.text("45 m."), Reply.text("- Tower A is 45 m tall."))
    await ask(spaces, "How tall is tower A?")
    bridge = spaces.db.create_chat("Bridge")
    outcome = await spaces.switch(bridge)
    assert outcome.summarised and outcome.error is None
    assert spaces.db.get_context_summary(tower) == "- Tower A is 45 m tall."
    summary_request = fake_ollama.chat_requests[-1]
    assert is_summary_request(summary_request) and "How tall is tower A?" in summary_request["messages"][-1]["content"]
    requests_before = len(fake_ollama.chat_requests)
    assert not (await spaces.switch(tower)).summarised, "Bridge had no turns"
    assert not (await spaces.switch(bridge)).summarised, "Tower A's summary covers its turns"
    assert len(fake_ollama.chat_requests) == requests_before
    await spaces.switch(tower)
    fake_ollama.script(Reply.text("Noted."))
    await ask(spaces, "And its footing?")
    system = fake_ollama.chat_requests[-1]["messages"][0]["content"]
    assert "[Context Summary]: - Tower A is 45 m tall." in system


async def test_second_summary_builds_on_the_first(spaces: Workspaces, fake_ollama: FakeOllama) -> None:
    tower = spaces.create("Tower A").chat_id
    other = spaces.db.create_chat("Other")
    fake_ollama.script(Reply.text("a1"), Reply.text("S1"), Reply.text("a2"), Reply.text("S2"))
    await ask(spaces, "q1")
    await spaces.switch(other)
    await spaces.switch(tower)
    await ask(spaces, "q2")
    await spaces.switch(other)
    prompt = fake_ollama.chat_requests[-1]["messages"][-1]["content"]
    assert "S1" in prompt and "q2" in prompt and "q1" not in prompt
    assert spaces.db.get_context_summary(tower) == "S2"


async def test_summary_failure_keeps_the_old_summary_and_still_switches(
    spaces: Workspaces, fake_ollama: FakeOllama
) -> None:
    tower = spaces.create("Tower A").chat_id
    spaces.db.set_context_summary(tower, "old summary")
    fake_ollama.script(Reply.text("answer"), Reply.http_error(500, "model crashed"))
    await ask(spaces, "new question")
    bridge = spaces.db.create_chat("Bridge")
    outcome = await spaces.switch(bridge)
    assert outcome.error is not None and outcome.error.code == "PROVIDER_ERROR"
    assert spaces.current_id == bridge
    assert spaces.db.get_context_summary(tower) == "old summary"
    assert spaces.db.count_unsummarised_turns(tower) == 1


async def test_start_new_and_delete(spaces: Workspaces, fake_ollama: FakeOllama) -> None:
    chat, outcome = await spaces.start_new("")
    assert chat.chat_name == DEFAULT_WORKSPACE_NAME and not outcome.summarised
    spaces.delete(chat.chat_id)
    assert spaces.current_id is None and spaces.agent.history == []
