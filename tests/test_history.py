"""ChatHistoryDB on real SQLite files and real PostgreSQL databases: the seed's methods, the turns and their
counts. The store's contract runs on both backends (`store_target`); what only a SQLite file has (its schema,
its migrations, its refusals, its locks) is in `test_history_file.py`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.records import ToolCall
from history import ChatHistoryDB, HistoryError
from tests.stores import raw_rows


@pytest.fixture
def db(store_target: str) -> Iterator[ChatHistoryDB]:
    store = ChatHistoryDB(store_target)
    yield store
    store.close()


def test_seed_methods(db: ChatHistoryDB) -> None:
    alpha = db.create_chat("Project Alpha")
    beta = db.create_chat("Project Beta")
    assert [(c[0], c[1]) for c in db.list_chats()] == [(beta, "Project Beta"), (alpha, "Project Alpha")]
    db.add_to_history(alpha, "How tall?", "The building is 45 meters tall.")
    db.add_to_history(alpha, "Calculate sqrt(2025)", "45.0")
    assert db.load_history(alpha) == [
        ("How tall?", "The building is 45 meters tall."),
        ("Calculate sqrt(2025)", "45.0"),
    ]
    assert db.list_chats()[0][0] == alpha, "a new turn moves the workspace to the top"
    db.rename_chat(alpha, "Tower A")
    assert db.get_chat(alpha).chat_name == "Tower A"
    assert db.get_context_summary(alpha) is None
    db.set_context_summary(alpha, "45 m tower")
    assert db.get_context_summary(alpha) == "45 m tower"
    assert db.get_chat(alpha).context_updated_at is not None
    db.clear_history(alpha)
    assert db.load_history(alpha) == [] and db.get_chat(alpha) is not None
    db.delete_chat(beta)
    assert [c[0] for c in db.list_chats()] == [alpha]


def test_list_order_is_exact_within_the_same_second(db: ChatHistoryDB) -> None:
    ids = [db.create_chat(f"w{i}") for i in range(5)]
    for chat_id in (ids[2], ids[0], ids[4]):
        db.add_to_history(chat_id, "q", "a")
    assert [c[0] for c in db.list_chats()] == [ids[4], ids[0], ids[2], ids[3], ids[1]]
    created = [c[2] for c in db.list_chats()]
    assert all(len(stamp) == len("2026-01-01 00:00:00.000000") for stamp in created)


def test_turns_keep_usage_status_and_tool_calls_in_order(db: ChatHistoryDB) -> None:
    chat = db.create_chat("w")
    calls = [
        ToolCall(id="call_1", name="sqrt", arguments={"x": 144}, output="12.0", duration_ms=0.4),
        ToolCall(id="call_2", name="divide", arguments={"a": 1, "b": 0}, output="Error: …", error="Error: …"),
    ]
    turn_id = db.add_to_history(
        chat,
        "q",
        "partial",
        tool_calls=calls,
        status="stopped",
        model="qwen3:4b",
        prompt_tokens=120,
        completion_tokens=30,
        duration_ms=812.5,
        error=None,
    )
    (turn,) = db.get_turns(chat)
    assert turn.turn_id == turn_id and turn.status == "stopped" and turn.model == "qwen3:4b"
    assert (turn.prompt_tokens, turn.completion_tokens, turn.duration_ms) == (120, 30, 812.5)
    assert [c.model_dump() for c in turn.tool_calls] == [c.model_dump() for c in calls]


def test_delete_cascades_to_turns_and_tool_calls(db: ChatHistoryDB, store_target: str) -> None:
    chat = db.create_chat("w")
    db.add_to_history(chat, "q", "a", tool_calls=[ToolCall(name="sqrt", arguments={}, output="1")])
    db.delete_chat(chat)
    assert raw_rows(store_target, "SELECT COUNT(*) FROM history") == [(0,)]
    assert raw_rows(store_target, "SELECT COUNT(*) FROM tool_calls") == [(0,)]


def test_recent_history_and_paging(db: ChatHistoryDB) -> None:
    chat = db.create_chat("w")
    for i in range(30):
        db.add_to_history(chat, f"q{i}", f"a{i}")
    assert db.load_recent_history(chat, 3) == [("q27", "a27"), ("q28", "a28"), ("q29", "a29")]
    page = db.get_turns(chat, limit=5)
    assert [t.user for t in page] == [f"q{i}" for i in range(25, 30)]
    earlier = db.get_turns(chat, limit=5, before_turn_id=page[0].turn_id)
    assert [t.user for t in earlier] == [f"q{i}" for i in range(20, 25)]
    assert db.count_turns(chat) == 30


def counted(target: str | Path) -> dict[int, tuple[int, int]]:
    """Each workspace's kept count beside its turns counted one by one, read over a connection of the test's own."""
    rows = raw_rows(
        str(target),
        "SELECT chat_id, turn_count, (SELECT COUNT(*) FROM history WHERE history.chat_id = chats.chat_id) FROM chats",
    )
    return {chat_id: (kept, actual) for chat_id, kept, actual in rows}


def test_each_workspace_keeps_its_turn_count_through_every_change(db: ChatHistoryDB, store_target: str) -> None:
    path = store_target
    tower, bridge, empty = db.create_chat("Tower"), db.create_chat("Bridge"), db.create_chat("Empty")
    ids = [db.add_to_history(tower, f"q{i}", f"a{i}", tool_calls=[ToolCall(name="sqrt", arguments={}, output="1")])
           for i in range(7)]  # fmt: skip
    db.add_to_history(bridge, "Span?", "", status="error", error="Ollama is not running.")
    db.supersede_turn(ids[-1])
    assert counted(path) == {tower: (7, 7), bridge: (1, 1), empty: (0, 0)}
    assert [db.count_turns(chat) for chat in (tower, bridge, empty, 999)] == [7, 1, 0, 0]
    db.clear_history(tower)
    db.add_to_history(tower, "after the clear", "a")
    db.delete_chat(bridge)
    assert counted(path) == {tower: (1, 1), empty: (0, 0)}
    assert db.count_turns(tower) == 1 and db.count_turns(bridge) == 0


def test_an_upgraded_file_counts_the_turns_it_already_had(tmp_path: Path) -> None:
    from store.schema import MIGRATIONS

    path = tmp_path / "v10.sqlite"
    raw = sqlite3.connect(path)
    for migration in MIGRATIONS[:10]:
        migration(raw)
    raw.executemany("INSERT INTO chats (chat_name, created_at) VALUES (?, '2026-01-01')", [("A",), ("B",), ("C",)])
    raw.executemany("INSERT INTO history (chat_id, user, assistant) VALUES (?, 'q', 'a')", [(1,)] * 250 + [(3,)] * 4)
    raw.execute("PRAGMA user_version = 10")
    raw.commit()
    raw.close()
    store = ChatHistoryDB(path)
    assert [store.count_turns(chat) for chat in (1, 2, 3)] == [250, 0, 4]
    store.add_to_history(2, "first", "turn")
    store.close()
    assert counted(path) == {1: (250, 250), 2: (1, 1), 3: (4, 4)}


def test_unsummarised_turns_are_tracked(db: ChatHistoryDB) -> None:
    chat = db.create_chat("w")
    assert db.count_unsummarised_turns(chat) == 0 and db.turns_since_summary(chat, 10) == ([], 0)
    for i in range(5):
        db.add_to_history(chat, f"q{i}", f"a{i}")
    turns, pending = db.turns_since_summary(chat, 3)
    assert pending == 5 and [t.user for t in turns] == ["q2", "q3", "q4"]
    db.set_context_summary(chat, "summary of q0..q3", through_turn_id=turns[1].turn_id)
    assert db.count_unsummarised_turns(chat) == 1
    db.set_context_summary(chat, "edited by hand")
    assert db.count_unsummarised_turns(chat) == 0


@pytest.mark.parametrize(
    "text", ['it\'s "quoted"', "100% of _all_", 'NEAR(a b) OR "x*"', "🏗️ béton ✓", "nul\x00char", "x" * 1_000_000]
)
def test_text_is_stored_exactly(db: ChatHistoryDB, text: str) -> None:
    chat = db.create_chat(text[:64])
    db.add_to_history(chat, text, text)
    assert db.load_history(chat) == [(text, text)]
    assert db.get_chat(chat).chat_name == text[:64]


def test_find_chat_by_id_or_name(db: ChatHistoryDB) -> None:
    chat = db.create_chat("Tower A")
    assert db.find_chat(str(chat)).chat_id == chat
    assert db.find_chat("tower a").chat_id == chat
    assert db.find_chat("Bridge") is None


def test_a_turn_for_a_workspace_deleted_elsewhere_says_so(store_target: str) -> None:
    mine, other = ChatHistoryDB(store_target), ChatHistoryDB(store_target)
    chat = mine.create_chat("w")
    other.delete_chat(chat)
    with pytest.raises(HistoryError, match="no longer exists"):
        mine.add_to_history(chat, "q", "a")
    assert mine.create_chat("still works") > chat


def test_earlier_turns_are_known_without_counting_them(db: ChatHistoryDB) -> None:
    chat, other = db.create_chat("w"), db.create_chat("other")
    db.add_to_history(other, "older, elsewhere", "a")
    assert not db.has_turns_before(chat, 2**62), "no turns yet; another workspace's do not count"
    ids = [db.add_to_history(chat, f"q{i}", f"a{i}") for i in range(120)]
    window = db.get_turns(chat, limit=50)
    assert db.has_turns_before(chat, window[0].turn_id)
    assert not db.has_turns_before(chat, ids[0]), "the oldest turn has none before it"
    assert db.has_turns_before(chat, ids[1])
    db.clear_history(chat)
    assert not db.has_turns_before(chat, 2**62)
    first = db.add_to_history(chat, "after the clear", "a")
    assert not db.has_turns_before(chat, first) and db.has_turns_before(chat, first + 1)
    db.delete_chat(other)
    assert db.has_turns_before(chat, first + 1) and not db.has_turns_before(other, 2**62)


def test_a_turn_that_failed_before_any_answer_is_no_change_to_summarise(db: ChatHistoryDB) -> None:
    from agent import AIAgent
    from app.application import Application

    service = Application(db, AIAgent("qwen3:4b", "http://127.0.0.1:9", "system"))  # no model to reach
    chat = db.create_chat("w")
    assert not db.has_answered_turns(chat)
    answered = db.add_to_history(chat, "How tall?", "45 m.")
    db.set_context_summary(chat, "45 m tower", through_turn_id=answered)
    db.add_to_history(chat, "And the footing?", "", status="error", error="Ollama cannot be reached.")
    assert not service.summaries.needed(chat) and db.count_unsummarised_turns(chat) == 0
    assert db.turns_since_summary(chat, 10) == ([], 0)
    assert db.has_answered_turns(chat)
    assert db.count_turns(chat) == 2, "the failed turn stays in the record"
    partial = db.add_to_history(chat, "And the core?", "The core is", status="error", error="cut off")
    stopped = db.add_to_history(chat, "Piles?", "", status="stopped")
    turns, pending = db.turns_since_summary(chat, 10)
    assert pending == 2 and [t.turn_id for t in turns] == [partial, stopped], "an answer begun, or a stop, is content"
    assert service.summaries.needed(chat)


def test_a_workspace_of_failed_turns_only_has_no_answered_turns(store_target: str) -> None:
    import asyncio

    from agent import AIAgent
    from app.application import Application

    db = ChatHistoryDB(store_target)
    service = Application(db, AIAgent("qwen3:4b", "http://127.0.0.1:9", "system"))
    chat = db.create_chat("New workspace")
    db.add_to_history(chat, "Hello?", "", status="error", error="Ollama cannot be reached.")
    assert not db.has_answered_turns(chat) and not service.summaries.needed(chat)
    assert asyncio.run(service.summaries.refresh(chat)) is False, "no model call for nothing to summarise"
    db.close()
