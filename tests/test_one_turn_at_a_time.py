"""One turn at a time in a workspace, whichever process asks: questions sent at once from two protocol servers and a
terminal, each a process of its own on one store (a SQLite file, or PostgreSQL), never interleave. Each waits for
the answer before it (saying so: `turn-waiting` with who asks, or the terminal's one line) and is asked of the model
with that answer in its history, so the history reads as one conversation. In one process: a Stop while a
question waits ends it without asking it, and Regenerate replaces the turn that was last when it was pressed."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, aclosing
from pathlib import Path
from typing import Any

import pytest

from agent import AIAgent
from app import Application
from app.turns.workspace_line import FREE, STOPPED_WAITING
from domain.events import AgentEvent, TurnCompleted, WaitingForServer
from fakes.ollama import FakeOllama, Gate, Reply, is_summary_request, wait_until
from fakes.replies import chunk, final
from history import ChatHistoryDB
from store import is_postgres_url
from tests.protocol_client import MAIN, Client, running_server

ANSWER_SECONDS = 1.0  # each answer takes this long, so that the questions surely meet


def answer_slowly(body: dict[str, Any]) -> Reply:
    """The fake model: "Answer to <question>", taking ANSWER_SECONDS; a summary at once."""
    if is_summary_request(body):
        return Reply.text("- a bridge")
    return Reply.slow(f"Answer to {body['messages'][-1]['content']}", ANSWER_SECONDS / 4)  # four pauses


def store_env(target: str) -> dict[str, str]:
    return {"DATABASE_URL": target} if is_postgres_url(target) else {"CHAT_HISTORY_DB_PATH": target}


def dispatch(client: Client, request_id: str, chat_id: int, question: str) -> None:
    client.send({"id": request_id, "type": "dispatch", "agentID": "assistant", "sessionID": chat_id,
                 "content": question})  # fmt: skip


def asked_questions() -> list[str]:
    return ["Span of the footbridge?", "Its dead load?", "And its live load?"]


@pytest.fixture
def slow_model() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        fake.responder = answer_slowly
        yield fake


def test_questions_sent_at_once_from_three_processes_never_interleave(
    slow_model: FakeOllama, store_target: str, isolated: Path
) -> None:
    chat_id = ChatHistoryDB(store_target).create_chat("Footbridge")
    ann, bob, cara = asked_questions()
    env = store_env(store_target)
    held = Gate()  # the first answer waits until the terminal, whose process starts last, is waiting too

    def first_held(body: dict[str, Any]) -> Reply:
        if is_summary_request(body) or len(slow_model.chat_requests) > 1:
            return answer_slowly(body)
        return Reply([held, chunk(content=f"Answer to {body['messages'][-1]['content']}"), final("stop", 42, 3)])

    slow_model.responder = first_held
    with ExitStack() as servers:
        first = servers.enter_context(running_server(slow_model.url, isolated, env={**env, "ENGINEER_NAME": "Ann"}))
        second = servers.enter_context(running_server(slow_model.url, isolated, env={**env, "ENGINEER_NAME": "Bob"}))
        ann_client, bob_client = first.connect(), second.connect()
        dispatch(ann_client, "a", chat_id, ann)
        dispatch(bob_client, "b", chat_id, bob)
        assert wait_until(lambda: len(slow_model.chat_requests) == 1, 60), "one of the two is asked first"
        terminal = subprocess.Popen(
            [sys.executable, str(MAIN), "--server", slow_model.url, "--workspace", str(chat_id), "--once", cara],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=isolated,
            env={**os.environ, **env, "ENGINEER_NAME": "Cara", "EMBED_MODEL": ""},
        )  # fmt: skip
        notes: list[str] = []  # the terminal's standard error, line by line as it comes
        reading = threading.Thread(target=lambda: notes.extend(terminal.stderr or ()), daemon=True)
        reading.start()
        told = wait_until(lambda: any("is asking in this workspace" in line for line in notes), 60)
        held.gate.set()
        answer = terminal.stdout.read() if terminal.stdout else ""
        terminal.wait(120)
        reading.join(30)
        events = {"a": ann_client.until_done("a"), "b": bob_client.until_done("b")}
    err = "".join(notes)
    assert terminal.returncode == 0 and told and answer == f"Answer to {cara}\n", err
    turns = ChatHistoryDB(store_target).get_turns(chat_id)
    assert sorted(turn.user for turn in turns) == sorted([ann, bob, cara])
    assert all(turn.assistant == f"Answer to {turn.user}" for turn in turns)
    for place, turn in enumerate(turns):  # each was asked with exactly the turns before it as its history
        (request,) = [body for body in slow_model.chat_requests if body["messages"][-1]["content"] == turn.user]
        history = [message["content"] for message in request["messages"][1:-1] if message["role"] != "system"]
        assert history == [text for earlier in turns[:place] for text in (earlier.user, earlier.assistant)]
    waited = {turn.user for turn in turns[1:]}
    for request_id, question in (("a", ann), ("b", bob)):
        said = [event["message"] for event in events[request_id] if event["type"] == "turn-waiting"]
        assert bool(said) == (question in waited), (question, said)
        assert not said or (said[-1] == FREE and "is asking in this workspace" in said[0]), said
    assert ("is asking in this workspace" in err) == (cara in waited), err  # its one line


def test_a_dispatch_waits_for_a_turn_another_process_runs_and_a_cancel_ends_it_unasked(
    slow_model: FakeOllama, isolated: Path
) -> None:
    target = str(isolated / "chat_history.sqlite")
    store = ChatHistoryDB(target)
    chat_id = store.create_chat("Footbridge")
    store.begin_turn(chat_id, "Span?", "qwen3:4b", "Ann")  # Ann's question, being answered in a web process
    try:
        with running_server(slow_model.url, isolated, env=store_env(target)) as server:
            client = server.connect()
            dispatch(client, "b", chat_id, "Load?")
            started, waiting = client.read(), client.read()
            assert (started["type"], waiting["type"], waiting["position"]) == ("turn-started", "turn-waiting", 1)
            assert waiting["message"].startswith("Ann is asking in this workspace")
            client.send({"id": "c", "type": "cancel", "requestID": "b"})
            ended = client.until_done("b")[-1]
    finally:
        store.close()
    assert (ended["type"], ended["stopReason"], ended["storedTurnID"]) == ("turn-completed", "cancelled", None)
    assert slow_model.chat_requests == [] and ChatHistoryDB(target).get_turns(chat_id) == [], "never asked"


@pytest.fixture
def two_views(slow_model: FakeOllama, tmp_path: Path) -> Iterator[tuple[Application, Application]]:
    """Two applications on one SQLite file, each with its own store, as two processes have: Ann's and Bob's."""
    views = tuple(
        Application(
            ChatHistoryDB(tmp_path / "h.sqlite"), AIAgent("qwen3:4b", slow_model.url, "system prompt"), engineer=name
        )  # fmt: skip
        for name in ("Ann", "Bob")
    )
    yield views[0], views[1]
    for view in views:
        view.close()


async def collected(events: Any, into: list[AgentEvent]) -> None:
    async with aclosing(events) as stream:
        async for event in stream:
            into.append(event)


async def test_a_stop_while_waiting_ends_the_question_unasked(
    slow_model: FakeOllama, two_views: tuple[Application, Application]
) -> None:
    ann, bob = two_views
    chat_id = ann.workspaces.create("Footbridge").chat_id
    gate = Gate()
    slow_model.responder = None
    slow_model.script(Reply(steps=[gate, *Reply.text("Twelve metres.").steps]))
    ann_events: list[AgentEvent] = []
    running = asyncio.create_task(collected(ann.turns.ask("Span?", chat_id), ann_events))
    assert await asyncio.to_thread(wait_until, lambda: len(slow_model.chat_requests) == 1, 20)
    bob_events: list[AgentEvent] = []
    waiting = asyncio.create_task(collected(bob.turns.ask("Load?", chat_id), bob_events))
    assert await asyncio.to_thread(wait_until, lambda: bool(bob_events), 20)
    assert isinstance(bob_events[0], WaitingForServer) and bob_events[0].message.startswith("Ann is asking")
    bob.turns.stop()
    await asyncio.wait_for(waiting, 20)
    ended = bob_events[-1]
    assert isinstance(ended, TurnCompleted) and ended.stop_reason == "stopped" and ended.error == STOPPED_WAITING
    gate.gate.set()
    await asyncio.wait_for(running, 20)
    assert [turn.user for turn in ann.turns.of(chat_id)] == ["Span?"], "the question stopped while waiting is not asked"
    assert len(slow_model.chat_requests) == 1


async def test_regenerate_replaces_the_turn_that_was_last_when_it_was_pressed(
    slow_model: FakeOllama, two_views: tuple[Application, Application]
) -> None:
    ann, bob = two_views
    chat_id = ann.workspaces.create("Footbridge").chat_id
    await collected(ann.turns.ask("Span?", chat_id), [])
    bobs: list[AgentEvent] = []
    running = asyncio.create_task(collected(bob.turns.ask("Load?", chat_id), bobs))
    assert await asyncio.to_thread(wait_until, lambda: len(slow_model.chat_requests) == 2, 20)
    await collected(ann.turns.ask("Span?", chat_id, regenerate=True), [])  # pressed while Bob's turn ran
    await asyncio.wait_for(running, 20)
    turns = ann.turns.of(chat_id)
    assert [(turn.user, turn.status) for turn in turns] == [
        ("Span?", "superseded"), ("Load?", "complete"), ("Span?", "complete")
    ]  # fmt: skip


async def test_a_regenerate_stopped_while_it_waits_leaves_the_answer_it_would_replace(
    slow_model: FakeOllama, two_views: tuple[Application, Application]
) -> None:
    """The answer a Regenerate replaces is marked in the transaction that stores the new question, so one that never
    began (stopped in line behind a colleague's turn) leaves the workspace as it was."""
    ann, bob = two_views
    chat_id = ann.workspaces.create("Footbridge").chat_id
    await collected(ann.turns.ask("Span?", chat_id), [])
    running = asyncio.create_task(collected(bob.turns.ask("Load?", chat_id), []))
    assert await asyncio.to_thread(wait_until, lambda: len(slow_model.chat_requests) == 2, 20)
    anns: list[AgentEvent] = []
    regenerating = asyncio.create_task(collected(ann.turns.ask("Span?", chat_id, regenerate=True), anns))
    assert await asyncio.to_thread(wait_until, lambda: bool(anns), 20), "Ann's Regenerate waits in line"
    ann.turns.stop()
    await asyncio.wait_for(regenerating, 20)
    await asyncio.wait_for(running, 20)
    kept = [(turn.user, turn.status) for turn in ann.turns.of(chat_id)]
    assert kept == [("Span?", "complete"), ("Load?", "complete")]


async def cut_off_as_its_question_is_stored(
    view: Application, monkeypatch: pytest.MonkeyPatch, turn: AsyncIterator[AgentEvent]
) -> None:
    """Run `turn` and cancel it while the store is writing its question (the write held until then)."""
    storing, stored = threading.Event(), threading.Event()
    store = view._store  # noqa: SLF001 - holding the store's write mid-way is the point
    begin = store.begin_turn

    def held_begin(*args: Any, **kwargs: Any) -> int | None:
        storing.set()
        stored.wait(20)
        return begin(*args, **kwargs)

    monkeypatch.setattr(store, "begin_turn", held_begin)
    running = asyncio.create_task(collected(turn, []))
    assert await asyncio.to_thread(storing.wait, 20)
    running.cancel()
    stored.set()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(running, 20)


async def test_a_question_cut_off_while_it_is_being_stored_is_kept_and_frees_the_workspace(
    slow_model: FakeOllama, two_views: tuple[Application, Application], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The question is stored on a worker thread (the event loop serves other turns meanwhile): a client gone in
    that moment still leaves it stored, as stopped, and never a running turn nobody ends."""
    ann, bob = two_views
    chat_id = ann.workspaces.create("Footbridge").chat_id
    await cut_off_as_its_question_is_stored(ann, monkeypatch, ann.turns.ask("Span?", chat_id))
    turns = ann.turns.of(chat_id)
    assert [(turn.user, turn.status) for turn in turns] == [("Span?", "stopped")]
    events: list[AgentEvent] = []
    await asyncio.wait_for(collected(bob.turns.ask("Load?", chat_id), events), 20)
    assert not any(isinstance(event, WaitingForServer) for event in events), "no turn left running"
    assert [turn.user for turn in bob.turns.of(chat_id)] == ["Span?", "Load?"]


async def test_a_regenerate_cut_off_as_its_question_is_stored_still_replaces_the_answer(
    slow_model: FakeOllama, two_views: tuple[Application, Application], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer a Regenerate replaces is marked in the transaction that stores its question: a client gone in
    that moment leaves the new question (stopped) in place of the old answer, never both counted as current."""
    ann, _ = two_views
    chat_id = ann.workspaces.create("Footbridge").chat_id
    await collected(ann.turns.ask("Span?", chat_id), [])
    await cut_off_as_its_question_is_stored(ann, monkeypatch, ann.turns.ask("Span?", chat_id, regenerate=True))
    kept = [(turn.user, turn.status) for turn in ann.turns.of(chat_id)]
    assert kept == [("Span?", "superseded"), ("Span?", "stopped")]


async def test_a_turn_closed_as_its_wait_in_line_ends_is_kept_and_frees_the_workspace(
    slow_model: FakeOllama, two_views: tuple[Application, Application]
) -> None:
    """A face that closes the turn's events as the wait ends (a page closed, a client gone, the last `turn-waiting`
    read) has had its question stored: it is kept, as stopped, and never left running for nobody."""
    ann, bob = two_views
    chat_id = ann.workspaces.create("Footbridge").chat_id
    running = asyncio.create_task(collected(ann.turns.ask("Span?", chat_id), []))
    assert await asyncio.to_thread(wait_until, lambda: len(slow_model.chat_requests) == 1, 20)
    async with aclosing(bob.turns.ask("Load?", chat_id)) as events:
        async for event in events:
            if isinstance(event, WaitingForServer) and event.message == FREE:
                break  # closed here: the question was stored as the wait ended
    await asyncio.wait_for(running, 20)
    kept = [(turn.user, turn.status) for turn in ann.turns.of(chat_id)]
    assert kept == [("Span?", "complete"), ("Load?", "stopped")]
    assert ann._store.running_turn(chat_id) is None, "no turn left running"  # noqa: SLF001
