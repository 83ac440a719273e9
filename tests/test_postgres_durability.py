"""Killed mid-turn on PostgreSQL: protocol servers killed with SIGKILL in the middle of a turn, again and again,
while another process writes. Every acknowledged turn is there afterwards, and each cut-off turn is stored as
stopped, with its question. (The web server's turn of this is tests/browser/test_web_server_killed_on_postgres.py.)"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from fakes.ollama import FakeOllama, Hang, Reply, wait_until
from fakes.postgres import PostgresServer
from history import ChatHistoryDB
from store.leases import CUT_OFF
from tests.protocol_client import running_server
from tests.stores import raw_rows

pytestmark = pytest.mark.postgres
ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 4
WRITER = """
import sys
sys.path.insert(0, sys.argv[1])
from domain.records import ToolCall
from history import ChatHistoryDB
db = ChatHistoryDB(sys.argv[2])
chat = db.create_chat("Written beside")
print(chat, flush=True)
i = 0
while True:
    db.add_to_history(chat, f"beside {i}", "answer " + "x" * 2000,
                      tool_calls=[ToolCall(name="sqrt", arguments={"x": i}, output=str(i))])
    print(i, flush=True)  # acknowledged: the turn is committed
    i += 1
"""


class Writer:
    """Another process writing turns the whole time; what it acknowledged is read as it goes."""

    def __init__(self, url: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(ROOT), url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        self.chat = int(self.process.stdout.readline())
        self.acknowledged = -1
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.acknowledged = int(line)

    def kill(self) -> int:
        self.process.send_signal(signal.SIGKILL)
        self.process.communicate(timeout=30)
        self._reader.join(30)
        return self.acknowledged + 1


def answering(body: dict[str, Any]) -> Reply:
    if body["messages"][-1]["content"].startswith("cut off"):
        return Reply([Hang(60)])  # the server is killed while it waits for this answer
    return Reply.text("Answered.")


def was_asked(fake: FakeOllama, question: str) -> bool:
    return any(request["messages"][-1]["content"] == question for request in fake.chat_requests)


def dispatch(content: str, request: str, session: str | None) -> dict[str, Any]:
    asked = {"id": request, "type": "dispatch", "agentID": "assistant", "content": content}
    return asked if session is None else {**asked, "sessionID": session}


def test_protocol_servers_killed_mid_turn_lose_no_acknowledged_turn(
    postgres_server: PostgresServer, fake_ollama: FakeOllama, isolated: Path
) -> None:
    url = postgres_server.new_database()
    fake_ollama.responder = answering
    writer = Writer(url)
    acknowledged: dict[int, str] = {}  # stored turn id → question, from turn-completed
    session: str | None = None
    for round_number in range(ROUNDS):
        with running_server(fake_ollama.url, isolated, env={"DATABASE_URL": url}) as server:
            client = server.connect()
            for i in range(3):
                events = client.request(dispatch(f"kept r{round_number} q{i}", f"r{round_number}-{i}", session))
                (done,) = [event for event in events if event["type"] == "turn-completed"]
                assert done["stopReason"] == "end_turn", events
                session = done["sessionID"]
                acknowledged[int(done["storedTurnID"])] = f"kept r{round_number} q{i}"
            cut = f"cut off r{round_number}"
            client.send(dispatch(cut, f"r{round_number}-cut", session))
            assert wait_until(partial(was_asked, fake_ollama, cut), 30)
            server.process.send_signal(signal.SIGKILL)
            server.process.wait(timeout=30)
    written_beside = writer.kill()

    store = ChatHistoryDB(url)  # whoever opens the store next notices the last server's cut-off turn
    assert session is not None
    turns = {turn.turn_id: turn for turn in store.get_turns(int(session))}
    for turn_id, question in acknowledged.items():
        assert turns[turn_id].user == question and turns[turn_id].status == "complete", "an acknowledged turn"
    cut_off = [turn for turn in turns.values() if turn.user.startswith("cut off")]
    assert [(t.user, t.status, t.error) for t in cut_off] == [
        (f"cut off r{n}", "stopped", CUT_OFF) for n in range(ROUNDS)
    ]
    beside = {turn.user for turn in store.get_turns(writer.chat)}
    assert {f"beside {i}" for i in range(written_beside)} <= beside, "a turn the other process acknowledged"
    assert store.count_turns(int(session)) == len(acknowledged) + ROUNDS
    assert raw_rows(url, "SELECT COUNT(*) FROM running_turns") == [(0,)]
