"""The summaries an application and its siblings queue (as the protocol server's workspaces and the web app's tabs
do) are written by one worker, one after another, on one connection to Ollama; each sees only its own."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent import AIAgent
from app import Application
from fakes.ollama import FakeOllama, Hang, Reply, is_summary_request, wait_until
from history import ChatHistoryDB

QUESTIONS = ("How tall is tower A?", "Span of the bridge?", "Depth of the car park?")


@pytest.fixture
def root(fake_ollama: FakeOllama, tmp_path: Path) -> Application:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system prompt")
    return Application(ChatHistoryDB(tmp_path / "h.sqlite"), agent)


@pytest.fixture
def writers() -> Callable[[], list[threading.Thread]]:
    """The summary workers alive now that were not before the test (other tests' may still wait for more)."""
    before = set(_writers())
    return lambda: [thread for thread in _writers() if thread not in before]


def _writers() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "summary-writer" and thread.is_alive()]


async def workspace_with_a_turn(service: Application, question: str) -> int:
    chat_id = service.workspaces.create(question).chat_id
    async for _ in service.turns.ask(question, chat_id):
        pass
    return chat_id


def summary_ports(fake: FakeOllama) -> list[int]:
    """The client port (the connection) of each summary request the fake received."""
    return [
        port for (_, _, body), port in zip(fake.requests, fake.ports, strict=True) if body and is_summary_request(body)
    ]


def about(body: dict[str, Any], question: str) -> bool:
    return is_summary_request(body) and any(question in str(message.get("content")) for message in body["messages"])


async def test_siblings_summaries_are_written_one_after_another_by_one_worker_on_one_connection(
    root: Application, fake_ollama: FakeOllama, writers: Callable[[], list[threading.Thread]]
) -> None:
    fake_ollama.responder = lambda body: Reply.text("- written" if is_summary_request(body) else "An answer.")
    views = [root.sibling(can_ask=False) for _ in QUESTIONS]
    chats = [await workspace_with_a_turn(view, question) for view, question in zip(views, QUESTIONS, strict=True)]
    for view, chat_id in zip(views, chats, strict=True):
        assert view.workspaces.leave(chat_id)
    for view, chat_id in zip(views, chats, strict=True):
        assert view.summaries.wait(30)
        assert [
            (outcome.left and outcome.left.chat_id, outcome.summarised) for outcome in view.summaries.finished()
        ] == [(chat_id, True)], "each view is told of its own summary, and only of it"
        assert view.workspaces.read(chat_id).context_summary == "- written"
    ports = summary_ports(fake_ollama)
    assert len(ports) == len(QUESTIONS) and len(set(ports)) == 1, "one connection: one summary at a time"
    assert len(writers()) == 1, "the worker waits for more, with its loop and connection"

    root.close()
    assert writers() == [], "closing the application that made the worker ends it"


async def test_waiting_for_ones_summaries_ends_when_they_are_written_and_skipping_leaves_the_others(
    root: Application, fake_ollama: FakeOllama, writers: Callable[[], list[threading.Thread]]
) -> None:
    tower, bridge, park = (root.sibling(can_ask=False) for _ in QUESTIONS)
    fake_ollama.responder = lambda body: (
        Reply.then("- tower", Hang(60)) if about(body, QUESTIONS[0]) else Reply.text("- written")
    )
    chats = {
        view: await workspace_with_a_turn(view, q) for view, q in zip((tower, bridge, park), QUESTIONS, strict=True)
    }
    assert all(view.workspaces.leave(chat_id) for view, chat_id in chats.items())
    assert wait_until(lambda: fake_ollama.hanging == 1, timeout=30), "the tower's summary is being written"
    assert [[chat.chat_id for chat in view.summaries.pending()] for view in chats] == [
        [chat] for chat in chats.values()
    ]

    assert [chat.chat_id for chat in bridge.summaries.skip()] == [chats[bridge]], "only the bridge's own"
    assert [chat.chat_id for chat in park.summaries.pending()] == [chats[park]]
    assert [chat.chat_id for chat in tower.summaries.pending()] == [chats[tower]]
    assert [chat.chat_id for chat in tower.summaries.skip()] == [chats[tower]]
    assert all(view.summaries.wait(30) for view in chats)
    assert writers(), "waiting ends with the summaries, not with the worker"
    assert [view.workspaces.read(chat_id).context_summary for view, chat_id in chats.items()] == [
        None,  # given up while it was written
        None,  # given up before it was begun
        "- written",
    ]

    assert bridge.workspaces.leave(chats[bridge]), "left again, it is written by the same worker"
    assert bridge.summaries.wait(30)
    assert bridge.workspaces.read(chats[bridge]).context_summary == "- written"
    assert len(writers()) == 1
    tower.close()
    assert len(writers()) == 1, "a sibling closing gives up its own summaries; the worker is the application's"
    root.close()
    assert writers() == []
