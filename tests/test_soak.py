"""A long run: 200 turns with tool calls from two sessions at once, memory kept in check."""

from __future__ import annotations

import asyncio
import gc
import threading
from pathlib import Path

import pytest

from agent import AIAgent
from app.application import Application
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB

pytestmark = pytest.mark.slow

TURNS_PER_SESSION = 100
MAX_GROWTH_BYTES = 50 * 1024 * 1024


def resident_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def session(fake: FakeOllama, path: Path, name: str, turns: int, errors: list[str]) -> None:
    service = Application(ChatHistoryDB(path), AIAgent("qwen3:4b", fake.url, "system"))
    service.workspaces.create(name)

    async def run() -> None:
        for i in range(turns):
            events = [event async for event in service.turns.ask(f"{name} question {i}")]
            errors.extend(e.message for e in events if e.type == "error")

    asyncio.run(run())
    service.close()


def test_two_sessions_of_many_turns_with_tool_calls(isolated: Path) -> None:
    with FakeOllama(record=False) as fake:  # a recording fake would itself grow with every request
        _soak(fake, isolated)


def _soak(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.responder = lambda body: (
        Reply.tool_calls(("beam_analysis", {"span": "6 m", "load": "12 kN/m"}))
        if body["messages"][-1]["role"] == "user"
        else Reply.text("The moment is 54 kN·m. " * 20)
    )
    path = isolated / "soak.sqlite"
    errors: list[str] = []
    session(fake_ollama, path, "warm-up", 10, errors)
    gc.collect()
    before = resident_bytes()
    threads = [
        threading.Thread(target=session, args=(fake_ollama, path, name, TURNS_PER_SESSION, errors))
        for name in ("first", "second")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    gc.collect()
    growth = resident_bytes() - before
    assert errors == []
    store = ChatHistoryDB(path)
    counts = [store.count_turns(chat_id) for chat_id, _, _ in store.list_chats()]
    assert sorted(counts) == [10, TURNS_PER_SESSION, TURNS_PER_SESSION]
    assert all(turn.tool_calls[0].calculation for turn in store.get_turns(2, limit=5))
    print(f"resident memory growth: {growth / 2**20:.1f} MB")
    assert growth < MAX_GROWTH_BYTES, f"resident memory grew by {growth / 2**20:.1f} MB"
