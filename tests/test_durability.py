"""The store under abuse: processes killed mid-write, writers racing, a held lock, hostile text, its file deleted."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from store import HistoryError
from store.sqlite_connection import LONGEST_PAUSE
from tests.cli_helpers import run_cli
from tests.waiting import wait_for_wait

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
LOST = "was deleted or replaced while the app was running"
WRITER = """
import sys
sys.path.insert(0, sys.argv[1])
from domain.records import ToolCall
from history import ChatHistoryDB

db = ChatHistoryDB(sys.argv[2])
chat, tag, limit = int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
for i in range(limit):
    db.add_to_history(chat, f"{tag}-q{i}", f"{tag}-a{i}" + "x" * 2000,
                      tool_calls=[ToolCall(name="sqrt", arguments={"x": i}, output=str(i))])
    print(i, flush=True)  # acknowledged: the turn is committed
"""


def start_writer(path: Path, chat: int, tag: str, limit: int = 1_000_000) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(ROOT), str(path), str(chat), tag, str(limit)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_no_acknowledged_turn_is_lost_when_the_writer_is_killed(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite"
    chat = ChatHistoryDB(path).create_chat("crash test")
    acknowledged: dict[str, int] = {}
    rng = random.Random(7)
    for round_number in range(20):
        tag = f"r{round_number}"
        writer = start_writer(path, chat, tag)
        assert writer.stdout is not None
        wanted = rng.randint(1, 40)
        for _ in range(wanted):
            line = writer.stdout.readline()
            assert line, writer.stderr.read() if writer.stderr else ""
        time.sleep(rng.random() * 0.02)  # kill it somewhere in the middle of the next write
        writer.send_signal(signal.SIGKILL)
        remaining, _ = writer.communicate()
        acknowledged[tag] = wanted + len(remaining.split())
    store = ChatHistoryDB(path)
    turns = store.get_turns(chat)
    stored: dict[str, set[int]] = {}
    for turn in turns:
        tag, index = turn.user.split("-q")
        assert turn.assistant.startswith(f"{tag}-a{index}"), "question and answer are saved together"
        assert [c.output for c in turn.tool_calls] == [index], "a turn's tool calls are saved with it"
        stored.setdefault(tag, set()).add(int(index))
    for tag, count in acknowledged.items():
        assert set(range(count)) <= stored.get(tag, set()), f"{tag}: an acknowledged turn was lost"
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_two_writers_and_a_held_write_lock_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite"
    store = ChatHistoryDB(path)
    chat = store.create_chat("shared")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    writers = [start_writer(path, chat, tag, limit=300) for tag in ("web", "cli")]
    for writer in writers:  # each is blocked on the held lock, in SQLite's busy handler
        wait_for_wait(writer.pid, "hrtimer_nanosleep")
    holder.execute("COMMIT")
    results = [writer.communicate(timeout=120) for writer in writers]
    assert [writer.returncode for writer in writers] == [0, 0], [err for _, err in results]
    assert not any("locked" in err for _, err in results)
    assert store.count_turns(chat) == 600
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_write_lock_held_past_the_busy_timeout_is_one_sentence_and_the_store_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write waits for another program's write lock in short steps, up to the busy timeout; past it, one sentence,
    and once the lock is free the next write goes through (and reads never waited)."""
    monkeypatch.setattr("store.sqlite_connection.BUSY_TIMEOUT_SECONDS", 0.5)
    path = tmp_path / "history.sqlite"
    store = ChatHistoryDB(path)
    chat = store.create_chat("shared")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    pauses: list[float] = []
    sleep = time.sleep

    def noted(seconds: float) -> None:
        pauses.append(seconds)
        sleep(seconds)

    monkeypatch.setattr(time, "sleep", noted)
    with pytest.raises(HistoryError, match="stayed busy .*another program is writing to it"):
        store.rename_chat(chat, "renamed")
    assert len(pauses) > 20 and max(pauses) <= LONGEST_PAUSE, "tried again in short steps, not SQLite's long sleeps"
    assert store.get_chat(chat).chat_name == "shared"
    holder.execute("COMMIT")
    store.rename_chat(chat, "renamed")
    assert store.get_chat(chat).chat_name == "renamed"
    timeout = store._db.execute("PRAGMA busy_timeout").fetchone()[0]  # type: ignore[attr-defined]  # noqa: SLF001
    assert timeout == 500, "reads wait for a busy file as long as before"


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ('it\'s "quoted" text', '"quoted"'),
        ("100% of the load", "100%"),
        ("beam_b1 is fine", "beam_b1"),
        ('NEAR(beam column) OR "x*"', "NEAR(beam"),
        ("🏗️ béton armé ✓", "béton"),
        ("nul\x00inside", "nul"),
        ("x" * 1_000_000 + " needle", "needle"),
    ],
)
def test_hostile_text_is_stored_and_found_exactly(tmp_path: Path, text: str, query: str) -> None:
    store = ChatHistoryDB(tmp_path / "history.sqlite")
    chat = store.create_chat("w")
    store.create_chat("other")
    store.add_to_history(chat, text, f"answer to {text[:20]}")
    assert store.load_history(chat)[0][0] == text
    assert [hit.chat_id for hit in store.search_chats(query)] == [chat]


@pytest.mark.parametrize("how", ["deleted", "replaced", "log deleted"])
def test_a_history_file_gone_from_under_the_store_refuses_every_later_write(tmp_path: Path, how: str) -> None:
    """Written into a deleted file, a turn would vanish when the app stops: it is refused, never acknowledged."""
    path = tmp_path / "history.sqlite"
    store = ChatHistoryDB(path)
    chat = store.create_chat("Tower")
    store.add_to_history(chat, "kept", "answer")
    if how == "deleted":
        path.unlink()
    elif how == "replaced":
        ChatHistoryDB(tmp_path / "other.sqlite").close()
        os.replace(tmp_path / "other.sqlite", path)
    else:  # what another process does once it believes itself alone (after this one's locks were dropped)
        path.with_name(path.name + "-wal").unlink()
    for question in ("first after", "second after"):
        with pytest.raises(HistoryError, match=LOST):
            store.add_to_history(chat, question, "not durable")
    with pytest.raises(HistoryError, match=LOST):
        store.create_chat("Another")
    assert [turn.user for turn in store.get_turns(chat)] == ["kept"], "what it holds stays readable"


def deleting_the_history_on(question: str, path: Path, answer: str = "Answered.") -> Callable[[dict[str, Any]], Reply]:
    """A fake model that deletes the history file while it answers `question` (as a user might in a file manager)."""

    def respond(body: dict[str, Any]) -> Reply:
        if body["messages"][-1]["content"] == question and path.exists():
            path.unlink()
        return Reply.text(answer)

    return respond


def test_the_cli_says_the_history_file_is_gone_and_keeps_running(fake_ollama: FakeOllama, isolated: Path) -> None:
    path = isolated / "history.sqlite"
    fake_ollama.responder = deleting_the_history_on("second question", path)
    typed = "first question\nsecond question\nthird question\n/list\n/exit\n"
    result = run_cli("--server", fake_ollama.url, "--db", str(path), "--plain", stdin=typed)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(LOST) == 2, result.stdout  # the second answer is not saved, the third not asked
    assert len(fake_ollama.chat_requests) == 2
    assert "restart the app" in result.stdout
    assert "first question" in result.stdout.split(LOST)[-1], "/list still works after"
    once = run_cli("--server", fake_ollama.url, "--db", str(path), "--once", "second question")
    assert once.returncode == 1 and LOST in once.stderr, once.stderr


def test_the_web_app_says_the_history_file_is_gone_and_keeps_running(
    app: AppTest, fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.responder = deleting_the_history_on("second question", isolated / "chat_history.sqlite")
    app.run()
    app.chat_input(key="question").set_value("first question").run()
    app.chat_input(key="question").set_value("second question").run()
    assert any(LOST in error.value for error in app.error), [error.value for error in app.error]
    assert not app.exception
    app.chat_input(key="question").set_value("third question").run()
    assert any(LOST in error.value for error in app.error) and not app.exception
    assert len(fake_ollama.chat_requests) == 2, "the third question is refused before the model is asked"
