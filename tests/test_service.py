"""The application service both faces use, with a real SQLite file and the fake Ollama."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from contextlib import aclosing
from pathlib import Path

import pytest

from agent import AIAgent
from app import Application, SwitchOutcome
from app.workspaces.workspaces import DEFAULT_WORKSPACE_NAME
from domain.events import TextDelta, TurnCompleted
from fakes.ollama import FakeOllama, Hang, Reply, is_summary_request, wait_until
from history import ChatHistoryDB


@pytest.fixture
def db(tmp_path: Path) -> ChatHistoryDB:
    """A second handle on the service's file, for the test's own checks."""
    return ChatHistoryDB(tmp_path / "h.sqlite")


@pytest.fixture
def service(fake_ollama: FakeOllama, tmp_path: Path) -> Application:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system prompt")
    return Application(ChatHistoryDB(tmp_path / "h.sqlite"), agent)


async def switch(service: Application, target: int) -> SwitchOutcome:
    """Switch, then wait for the summary written in the background; what happened to it."""
    outcome = await service.workspaces.switch(target)
    assert await asyncio.to_thread(service.summaries.wait, 20)
    finished = service.summaries.finished()
    assert len(finished) == (1 if outcome.pending else 0)
    return finished[0] if finished else outcome


async def ask(service: Application, text: str, chat_id: int | None = None) -> TurnCompleted:
    events = [event async for event in service.turns.ask(text, chat_id)]
    assert isinstance(events[-1], TurnCompleted)
    return events[-1]


async def test_first_message_creates_and_names_the_workspace(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(Reply.text("Use a 2 x 2 m footing."), Reply.text("Yes."))
    question = "Size a pad footing for 800 kN on 200 kPa soil, column 400 x 400 mm, C25/30 concrete please"
    first = await ask(service, question)
    second = await ask(service, "Is that enough?")
    chat = service.workspaces.current
    assert chat is not None and chat.chat_name == "Size a pad footing for 800 kN on 200 kPa soil, column 400 x 400…"
    assert db.load_history(chat.chat_id)[1] == ("Is that enough?", "Yes.")
    assert [first.turn_id, second.turn_id] == [turn.turn_id for turn in db.get_turns(chat.chat_id)]


async def test_a_long_first_message_names_the_workspace_cut_at_a_word(
    service: Application, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(Reply.text("54 kN·m."))
    await ask(service, "Maximum moment and deflection of a 6 m simply supported beam under 12 kN/m?")
    assert service.workspaces.current is not None
    assert service.workspaces.current.chat_name == "Maximum moment and deflection of a 6 m simply supported beam…"


async def test_named_workspace_keeps_its_name(service: Application, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("ok"))
    service.workspaces.create("Tower A")
    await ask(service, "first question")
    assert service.workspaces.current is not None and service.workspaces.current.chat_name == "Tower A"


async def test_failed_turn_is_saved_and_marked(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    chat = service.workspaces.create()
    fake_ollama.script(Reply.http_error(500, "model requires more system memory"))
    await ask(service, "my question")
    (turn,) = db.get_turns(chat.chat_id)
    assert (turn.user, turn.assistant, turn.status) == ("my question", "", "error")
    assert turn.error is not None and "more system memory" in turn.error


async def test_a_turn_cut_off_part_way_is_stored_with_what_arrived(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    chat = service.workspaces.create("Tower A")
    fake_ollama.script(Reply.then("The first part of the answer", Hang(600)))
    async with aclosing(service.turns.ask("A long answer, please")) as events:
        async for event in events:
            if isinstance(event, TextDelta) and "first part" in event.text:
                break  # the face went away (Stop, a closed tab)
    (turn,) = db.get_turns(chat.chat_id)
    assert (turn.user, turn.status) == ("A long answer, please", "stopped")
    assert turn.assistant.startswith("The first part")


async def test_a_turn_lands_in_the_workspace_it_was_asked_in(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    tower = service.workspaces.create("Tower A").chat_id
    bridge = service.workspaces.create("Bridge").chat_id
    fake_ollama.script(Reply.text("45 m."))
    await ask(service, "How tall is the tower?", chat_id=tower)
    assert service.workspaces.current_id == bridge
    assert db.load_history(tower) == [("How tall is the tower?", "45 m.")] and db.load_history(bridge) == []


async def test_regenerate_supersedes_the_last_turn_and_hides_it_from_the_model(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    chat = service.workspaces.create("Tower A").chat_id
    fake_ollama.script(Reply.text("First try."), Reply.text("Second try."))
    await ask(service, "How tall?")
    question = service.turns.last_question(chat)
    assert question == "How tall?"
    async for _ in service.turns.ask(question, chat, regenerate=True):
        pass
    assert [turn.status for turn in db.get_turns(chat)] == ["superseded", "complete"]
    sent = [m["content"] for m in fake_ollama.chat_requests[-1]["messages"]]
    assert "First try." not in sent


async def test_switch_summarises_only_new_turns_and_the_summary_reaches_the_next_prompt(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    tower = service.workspaces.create("Tower A").chat_id
    fake_ollama.script(Reply.text("45 m."), Reply.text("- Tower A is 45 m tall."))
    await ask(service, "How tall is tower A?")
    bridge = service.workspaces.create("Bridge").chat_id
    service.workspaces.open(tower)
    outcome = await switch(service, bridge)
    assert outcome.summarised and outcome.error is None
    assert db.get_context_summary(tower) == "- Tower A is 45 m tall."
    summary_request = fake_ollama.chat_requests[-1]
    assert is_summary_request(summary_request) and "How tall is tower A?" in summary_request["messages"][-1]["content"]
    requests_before = len(fake_ollama.chat_requests)
    assert not (await switch(service, tower)).summarised, "Bridge had no turns"
    assert not (await switch(service, bridge)).summarised, "Tower A's summary covers its turns"
    assert len(fake_ollama.chat_requests) == requests_before
    await switch(service, tower)
    fake_ollama.script(Reply.text("Noted."))
    await ask(service, "And its footing?")
    system = fake_ollama.chat_requests[-1]["messages"][0]["content"]
    assert "[Context Summary]: - Tower A is 45 m tall." in system


async def test_second_summary_builds_on_the_first(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    other = service.workspaces.create("Other").chat_id
    tower = service.workspaces.create("Tower A").chat_id
    fake_ollama.script(Reply.text("a1"), Reply.text("S1"), Reply.text("a2"), Reply.text("S2"))
    await ask(service, "q1")
    await switch(service, other)
    await switch(service, tower)
    await ask(service, "q2")
    await switch(service, other)
    prompt = fake_ollama.chat_requests[-1]["messages"][-1]["content"]
    assert "S1" in prompt and "q2" in prompt and "q1" not in prompt
    assert db.get_context_summary(tower) == "S2"


async def test_summary_failure_keeps_the_old_summary_and_still_switches(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    bridge = service.workspaces.create("Bridge").chat_id
    tower = service.workspaces.create("Tower A").chat_id
    service.summaries.set(tower, "old summary")
    fake_ollama.script(Reply.text("answer"), Reply.http_error(500, "model crashed"))
    await ask(service, "new question")
    outcome = await switch(service, bridge)
    assert outcome.error is not None and outcome.error.code == "PROVIDER_ERROR"
    assert service.workspaces.current_id == bridge
    assert db.get_context_summary(tower) == "old summary"
    assert db.count_unsummarised_turns(tower) == 1


async def test_start_new_rename_and_delete(service: Application, db: ChatHistoryDB) -> None:
    older = service.workspaces.create("Older").chat_id
    chat, outcome = await service.workspaces.start_new("")
    assert chat.chat_name == DEFAULT_WORKSPACE_NAME and not outcome.summarised
    assert service.workspaces.rename(chat.chat_id, "  Tower   B ") == "Tower B"
    with pytest.raises(ValueError, match="Give the new name"):
        service.workspaces.rename(chat.chat_id, "   ")
    now_in = service.workspaces.delete(chat.chat_id)
    assert now_in is not None and now_in.chat_id == older == service.workspaces.current_id
    assert db.get_chat(chat.chat_id) is None
    assert service.workspaces.delete(older) is None and service.workspaces.current_id is None


def test_open_or_create_finds_by_name_or_id_and_creates_only_names(service: Application) -> None:
    tower = service.workspaces.open_or_create("Tower A")
    assert service.workspaces.open_or_create("tower a").chat_id == tower.chat_id
    assert service.workspaces.open_or_create(str(tower.chat_id)).chat_id == tower.chat_id
    with pytest.raises(LookupError, match="no workspace with id 99"):
        service.workspaces.open_or_create("99")


async def test_the_report_and_the_backup_never_touch_the_store_files(
    service: Application, fake_ollama: FakeOllama, tmp_path: Path
) -> None:
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 144})), Reply.text("12."))
    turn = await ask(service, "Square root of 144?")
    chat_id = service.workspaces.current_id
    assert chat_id is not None and turn.turn_id is not None
    for own in ("h.sqlite", "h.sqlite-wal", "h.sqlite-shm", "h.sqlite-journal"):
        with pytest.raises(PermissionError, match="chat history itself"):
            service.reports.write_report(chat_id, tmp_path / own)
        with pytest.raises(PermissionError, match="chat history itself"):
            service.reports.backup(tmp_path / own)
    report = service.reports.write_report(chat_id, tmp_path / "report.md").read_text(encoding="utf-8")
    assert "`sqrt`" in report and "Square root of 144?" in report
    copy = service.reports.backup(tmp_path / "backup.sqlite")
    with pytest.raises(FileExistsError):
        service.reports.backup(copy)
    restored = sqlite3.connect(copy)
    assert restored.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert restored.execute("SELECT user FROM history").fetchall() == [("Square root of 144?",)]
    assert ChatHistoryDB(copy).get_turns(chat_id)[0].tool_calls[0].output == "12.0"


def test_stop_from_another_thread_stops_a_turn_driven_one_event_at_a_time(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    """The web face resumes the stream in a new task for each event; Stop must still reach the turn."""
    from faces.web.sync_bridge import iterate_sync

    chat = service.workspaces.create("Tower A").chat_id
    fake_ollama.script(Reply.then("The first part of the answer", Hang(600)))
    events = iterate_sync(service.turns.ask("A long answer, please", chat), heartbeat=0.05)
    started = time.monotonic()
    for event in events:
        if isinstance(event, TextDelta):
            threading.Timer(0.1, service.turns.stop).start()
        if isinstance(event, TurnCompleted):
            break
    assert time.monotonic() - started < 60, "the hang (600 s) was cut short by Stop"
    (turn,) = db.get_turns(chat)
    assert (turn.status, turn.assistant) == ("stopped", "The first part of the answer")


def test_the_store_files_are_known_by_their_real_names(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    """A symlinked history path: SQLite keeps -wal and -shm beside the real file, and those are protected."""
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link.sqlite").symlink_to(real / "h.sqlite")
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system")
    linked = Application(ChatHistoryDB(tmp_path / "link.sqlite"), agent)
    chat = linked.workspaces.create("Tower").chat_id
    for own in ("h.sqlite", "h.sqlite-wal", "h.sqlite-shm"):
        assert (real / own).exists()
        with pytest.raises(PermissionError, match="chat history itself"):
            linked.reports.write_report(chat, real / own)
    assert ChatHistoryDB(real / "h.sqlite").get_chat(chat) is not None


async def test_a_switch_does_not_wait_for_the_summary_and_a_question_goes_where_it_was_asked(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    """The model takes its time over the summary of the workspace left; the user goes on meanwhile."""
    fake_ollama.responder = lambda body: (
        Reply.then("- Tower A", Hang(30)) if is_summary_request(body) else Reply.text("Answer.")
    )
    tower = service.workspaces.create("Tower A").chat_id
    await ask(service, "How tall is tower A?")
    bridge = service.workspaces.create("Bridge").chat_id
    service.workspaces.open(tower)
    outcome = await service.workspaces.switch(bridge)
    assert outcome.pending and outcome.notice == "Updating the summary of Tower A in the background."
    assert service.workspaces.current_id == bridge
    assert wait_until(lambda: any(is_summary_request(r) for r in fake_ollama.chat_requests), timeout=30)
    assert [chat.chat_id for chat in service.summaries.pending()] == [tower]
    await ask(service, "Span of the bridge?")
    assert [t.user for t in db.get_turns(bridge)] == ["Span of the bridge?"]
    assert [t.user for t in db.get_turns(tower)] == ["How tall is tower A?"]
    assert [chat.chat_id for chat in service.summaries.skip()] == [tower]
    assert await asyncio.to_thread(service.summaries.wait, 30)
    assert db.get_context_summary(tower) is None and db.count_unsummarised_turns(tower) == 1, "written next time"


async def test_new_workspace_reuses_an_empty_one(service: Application, db: ChatHistoryDB) -> None:
    first, _ = await service.workspaces.start_new()
    service.workspaces.create("Tower A")
    again, _ = await service.workspaces.start_new()
    assert again.chat_id == first.chat_id and len(db.list_chats()) == 2
    named, _ = await service.workspaces.start_new("Bridge")
    assert named.chat_id not in (first.chat_id,) and len(db.list_chats()) == 3


async def test_a_failed_turn_does_not_name_the_workspace(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(Reply.http_error(500, "model crashed"), Reply.text("A 2 x 2 m footing."))
    await ask(service, "Size the footing")
    chat = service.workspaces.current
    assert chat is not None and chat.chat_name == DEFAULT_WORKSPACE_NAME
    await ask(service, "Size the pad footing for column C3")
    assert db.get_chat(chat.chat_id).chat_name == "Size the pad footing for column C3"


async def test_only_the_first_answered_question_names_a_workspace(
    service: Application, db: ChatHistoryDB, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(Reply.text("A 2 x 2 m footing."), Reply.text("C30/37."))
    await ask(service, "Size the pad footing for column C3")
    chat = service.workspaces.current
    assert chat is not None
    service.workspaces.rename(chat.chat_id, DEFAULT_WORKSPACE_NAME)  # the user's own choice of name
    await ask(service, "Which concrete class?")
    assert db.get_chat(chat.chat_id).chat_name == DEFAULT_WORKSPACE_NAME
