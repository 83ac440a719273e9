"""The store and workspace switching, measured at growing history sizes (real SQLite files)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import tempfile
from functools import partial
from pathlib import Path

from agent import AIAgent
from app.service import WorkspaceService
from app.turns import RECENT_TURNS_IN_MEMORY
from bench.harness import Result, single, summarise, timed_ms
from domain.records import ToolCall
from fakes.ollama import FakeOllama, Reply, is_summary_request
from history import ChatHistoryDB

CALLS = [ToolCall(name="beam_analysis", arguments={"span": "6 m", "load": "12 kN/m"}, output="{}" * 200)] * 3
ANSWER = "The maximum moment is wL²/8 = 54 kN·m. " * 30


def workspace_of(path: Path, name: str, turns: int) -> int:
    """A new workspace of `turns` turns in the file at `path`, which no store may hold open meanwhile.

    The turns are written in bulk over a connection of the benchmark's own, so
    that filling 100,000 turns takes seconds; the store reads them afterwards.
    """
    store = ChatHistoryDB(path)
    chat_id = store.create_chat(name)
    store.close()
    call = CALLS[0]
    with sqlite3.connect(path) as raw:
        for start in range(0, turns, 5_000):
            rows = [
                (chat_id, f"Question {i} about the transfer beam", ANSWER)
                for i in range(start, min(turns, start + 5_000))
            ]
            ids = [
                raw.execute(
                    "INSERT INTO history (chat_id, user, assistant, created_at) VALUES (?, ?, ?, datetime('now')) "
                    "RETURNING id",
                    row,
                ).fetchone()[0]
                for row in rows
            ]
            raw.executemany(
                "INSERT INTO tool_calls (turn_id, position, name, arguments, output) VALUES (?, 0, ?, ?, ?)",
                [(turn_id, call.name, json.dumps(call.arguments), call.output) for turn_id in ids],
            )
    raw.close()
    return chat_id


def stores(sizes: list[int], folder: Path) -> dict[int, tuple[ChatHistoryDB, int]]:
    """One database per size, each holding a workspace of that many turns."""
    made = {}
    for size in sizes:
        path = folder / f"history-{size}.sqlite"
        chat_id = workspace_of(path, "Tower A", size)
        made[size] = (ChatHistoryDB(path), chat_id)
    return made


def run(quick: bool) -> list[Result]:
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    runs = 20 if quick else 200
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as folder:
        many = ChatHistoryDB(Path(folder) / "many.sqlite")
        for i in range(500):
            many.create_chat(f"Project {i}")
        results.append(summarise("list_chats, 500 workspaces", timed_ms(many.list_chats, runs), "ms", "≤ 5 ms", 5))
        for size, (db, chat_id) in stores(sizes, Path(folder)).items():
            window = timed_ms(partial(db.load_recent_history, chat_id, RECENT_TURNS_IN_MEMORY), runs)
            results.append(summarise(f"recent window for the prompt, {size:,} turns", window, "ms", "≤ 10 ms", 10))
            write = timed_ms(partial(db.add_to_history, chat_id, "q", ANSWER, tool_calls=CALLS), runs)
            results.append(summarise(f"add_to_history with 3 tool calls, {size:,} turns", write, "ms", "≤ 5 ms", 5))
        results += switching(Path(folder), runs)
    return results


def switching(folder: Path, runs: int) -> list[Result]:
    """A switch with nothing new (no model call), and one after new turns (one bounded summary request)."""
    results = []
    with FakeOllama() as fake:
        fake.responder = lambda body: Reply.text("- Tower A: 12 storeys.")
        for size in [10, 100, 1_000, 10_000]:
            path = folder / f"switch-{size}.sqlite"
            tower = workspace_of(path, "Tower A", size)
            spaces = WorkspaceService(ChatHistoryDB(path), AIAgent("qwen3:4b", fake.url, "system"))
            other = spaces.create("Other").chat_id
            spaces.open(tower)
            before = len(fake.chat_requests)
            asyncio.run(spaces.switch(other))
            summaries = [r for r in fake.chat_requests[before:] if is_summary_request(r)]
            size_chars = sum(len(m["content"]) for m in summaries[0]["messages"]) if summaries else 0
            results.append(
                single(
                    f"switch after {size:,} new turns: summary prompt",
                    size_chars / 1000,
                    "k chars",
                    "one request, bounded",
                    len(summaries) == 1 and size_chars < 30_000,
                )
            )
            if size == 10_000:
                asyncio.run(spaces.switch(tower))
                quiet = timed_ms(partial(_back_and_forth, spaces, tower, other), runs // 4)
                calls = len(fake.chat_requests) - before - 1
                results.append(
                    summarise(
                        "switch with no new turns (10,000-turn workspace)",
                        [q / 2 for q in quiet],
                        "ms",
                        "≤ 50 ms, no model call",
                        50 if calls == 0 else -1,
                    )
                )
    return results


def _back_and_forth(spaces: WorkspaceService, first: int, second: int) -> None:
    asyncio.run(_switch_twice(spaces, first, second))


async def _switch_twice(spaces: WorkspaceService, first: int, second: int) -> None:
    await spaces.switch(second)
    await spaces.switch(first)
