"""The store and workspace switching, measured at growing history sizes (real SQLite files)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from agent import AIAgent
from bench.harness import Result, single, summarise, timed_ms
from core.records import ToolCallRecord
from core.workspaces import Workspaces
from history import ChatHistoryDB
from tests.fake_ollama import FakeOllama, Reply, is_summary_request

CALLS = [ToolCallRecord(name="beam_analysis", arguments={"span": "6 m", "load": "12 kN/m"}, output="{}" * 200)] * 3
ANSWER = "The maximum moment is wL²/8 = 54 kN·m. " * 30


def fill(db: ChatHistoryDB, chat_id: int, turns: int) -> None:
    """Give a workspace `turns` turns, in batches of one transaction each."""
    for start in range(0, turns, 5_000):
        batch = [
            (f"Question {i} about the transfer beam", ANSWER, CALLS[:1])
            for i in range(start, min(turns, start + 5_000))
        ]
        db.import_turns(chat_id, batch)


def stores(sizes: list[int], folder: Path) -> dict[int, tuple[ChatHistoryDB, int]]:
    """One database per size, each holding a workspace of that many turns."""
    made = {}
    for size in sizes:
        db = ChatHistoryDB(folder / f"history-{size}.sqlite")
        chat_id = db.create_chat("Tower A")
        fill(db, chat_id, size)
        made[size] = (db, chat_id)
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
            spaces = Workspaces(db, AIAgent("qwen3:4b", "http://127.0.0.1:9", "system"))
            window = timed_ms(lambda s=spaces, c=chat_id: s.open(c), runs)
            results.append(summarise(f"recent window for the prompt, {size:,} turns", window, "ms", "≤ 10 ms", 10))
            write = timed_ms(lambda d=db, c=chat_id: d.add_to_history(c, "q", ANSWER, tool_calls=CALLS), runs)
            results.append(summarise(f"add_to_history with 3 tool calls, {size:,} turns", write, "ms", "≤ 5 ms", 5))
        results += switching(Path(folder), runs)
    return results


def switching(folder: Path, runs: int) -> list[Result]:
    """A switch with nothing new (no model call), and one after new turns (one bounded summary request)."""
    results = []
    with FakeOllama() as fake:
        fake.responder = lambda body: Reply.text("- Tower A: 12 storeys.")
        for size in [10, 100, 1_000, 10_000]:
            db = ChatHistoryDB(folder / f"switch-{size}.sqlite")
            spaces = Workspaces(db, AIAgent("qwen3:4b", fake.url, "system"))
            tower, other = spaces.create("Tower A").chat_id, db.create_chat("Other")
            fill(db, tower, size)
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
                quiet = timed_ms(lambda s=spaces, a=tower, b=other: asyncio.run(_back_and_forth(s, a, b)), runs // 4)
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


async def _back_and_forth(spaces: Workspaces, first: int, second: int) -> None:
    await spaces.switch(second)
    await spaces.switch(first)
