"""The store and workspace switching, measured at growing history sizes (real SQLite files)."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from agent import AIAgent
from app.application import Application
from app.turns.turns import RECENT_TURNS_IN_MEMORY
from bench.harness import Result, single, summarise, timed_ms
from domain.records import ToolCall
from fakes.ollama import FakeOllama, Reply, is_summary_request
from history import ChatHistoryDB
from store import store_files
from store.schema import SCHEMA_VERSION
from store.words import index_words

CALLS = [ToolCall(name="beam_analysis", arguments={"span": "6 m", "load": "12 kN/m"}, output="{}" * 200)] * 3
ANSWER = "The maximum moment is wL²/8 = 54 kN·m. " * 30
ROOT = Path(__file__).resolve().parents[1]


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
    return results + at_scale(quick)


def switching(folder: Path, runs: int) -> list[Result]:
    """A switch with nothing new (no model call), and one after new turns (one bounded summary request)."""
    results = []
    with FakeOllama() as fake:
        fake.responder = lambda body: Reply.text("- Tower A: 12 storeys.")
        for size in [10, 100, 1_000, 10_000]:
            path = folder / f"switch-{size}.sqlite"
            tower = workspace_of(path, "Tower A", size)
            spaces = Application(ChatHistoryDB(path), AIAgent("qwen3:4b", fake.url, "system"))
            other = spaces.workspaces.create("Other").chat_id
            spaces.workspaces.open(tower)
            before = len(fake.chat_requests)
            asyncio.run(spaces.workspaces.switch(other))
            spaces.summaries.wait(60)  # written in the background
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
                asyncio.run(spaces.workspaces.switch(tower))
                spaces.summaries.wait(60)
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


def _back_and_forth(spaces: Application, first: int, second: int) -> None:
    asyncio.run(_switch_twice(spaces, first, second))


async def _switch_twice(spaces: Application, first: int, second: int) -> None:
    await spaces.workspaces.switch(second)
    await spaces.workspaces.switch(first)


# At scale: search, the earlier-turns check and export, 1,000 to 1,000,000 turns ----------------------------

FILL_VERSION = 1  # files of an older schema are upgraded by the store when opened
CACHE = Path(tempfile.gettempdir()) / "chat-store-bench"
SMALL_WORKSPACES = 48
SMALL_TURNS = 20
MANY_WORKSPACES = 500
SEARCHES = {
    "a common word": "beam",
    "one letter": "b",
    "a rare pair": "question 777",
    "an absent word": "zebra",
    "a unit": "kN·m",
    "symbols only": "=",
}
WRITER = """
import hashlib, json, resource, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from agent import AIAgent
from app.application import Application
from history import ChatHistoryDB
service = Application(ChatHistoryDB(sys.argv[2]), AIAgent("m", "http://127.0.0.1:9", "s"))
started = time.perf_counter()
WRITE_DOCUMENT
seconds = time.perf_counter() - started
try:  # this process's own peak (ru_maxrss may start from the parent's, which forked it)
    status = Path("/proc/self/status").read_text()
    peak_kb = int(status.split("VmHWM:")[1].split()[0])
except (OSError, IndexError):
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
digest = hashlib.sha256()  # after the clock and the peak: to compare the documents
with open(sys.argv[4], "rb") as written:
    for block in iter(lambda: written.read(1 << 20), b""):
        digest.update(block)
print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024, "sha256": digest.hexdigest()}))
"""
DOCUMENTS = {
    "export to Markdown": "service.reports.write_export(int(sys.argv[3]), Path(sys.argv[4]))",
    "export floor (one streaming query, the same Markdown)": (
        "from bench.export_floor import write_floor; write_floor(sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]))"
    ),
    "calculation report": "service.reports.write_report(int(sys.argv[3]), Path(sys.argv[4]))",
}


def _small_turns(chat_id: int, number: int) -> list[tuple[int, str, str]]:
    extra = " The transfer beam above it is fine." if number % 2 == 0 else ""
    answer = f"Bearing pressure is 180 kPa, below the allowable 200 kPa; 12 bars each way.{extra}"
    return [
        (chat_id, f"Footing F{number}-{j} under column C{number}: bearing check", answer) for j in range(SMALL_TURNS)
    ]


def _bulk(raw: sqlite3.Connection, turns: list[tuple[int, str, str]], next_id: int) -> int:
    """Insert turns (one tool call each) with ids from `next_id`; returns the next free id."""
    ids = range(next_id, next_id + len(turns))
    call = CALLS[0]
    with raw:
        raw.executemany(
            "INSERT INTO history (id, chat_id, user, assistant, created_at) VALUES (?, ?, ?, ?, datetime('now'))",
            [(turn_id, *turn) for turn_id, turn in zip(ids, turns, strict=True)],
        )
        raw.executemany(
            "INSERT INTO tool_calls (turn_id, position, name, arguments, output) VALUES (?, 0, ?, ?, ?)",
            [(turn_id, call.name, json.dumps(call.arguments), call.output) for turn_id in ids],
        )
        words = set().union(*(index_words(user + "\n" + assistant) for _, user, assistant in turns))
        raw.executemany("INSERT OR IGNORE INTO search_terms (term) VALUES (?)", [(word,) for word in words])
    return next_id + len(turns)


def _fill(path: Path, size: int) -> None:
    """Small workspaces before and after one of `size` turns; activity follows each one's latest turn."""
    store = ChatHistoryDB(path)
    small = [store.create_chat(f"Project {number}") for number in range(SMALL_WORKSPACES)]
    tower = store.create_chat("Tower A")
    store.close()
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA synchronous=OFF")
    next_id = 1
    for number, chat_id in enumerate(small[: SMALL_WORKSPACES // 2]):
        next_id = _bulk(raw, _small_turns(chat_id, number), next_id)
    for start in range(0, size, 10_000):
        block = [
            (tower, f"Question {i} about the transfer beam", ANSWER) for i in range(start, min(size, start + 10_000))
        ]
        next_id = _bulk(raw, block, next_id)
    for number, chat_id in enumerate(small[SMALL_WORKSPACES // 2 :], start=SMALL_WORKSPACES // 2):
        next_id = _bulk(raw, _small_turns(chat_id, number), next_id)
    _order_by_latest_turn(raw)


def _fill_many(path: Path, turns_each: int) -> None:
    """500 workspaces of `turns_each` turns; three of them, spread in time, speak of girders in every turn."""
    store = ChatHistoryDB(path)
    ids = [store.create_chat(f"Building {number}") for number in range(MANY_WORKSPACES)]
    store.close()
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA synchronous=OFF")
    next_id = 1
    for number, chat_id in enumerate(ids):
        part = "girder" if number % (MANY_WORKSPACES // 3) == 1 else "slab"
        turns = [
            (chat_id, f"Level {j} of building {number}: {part} check", f"The {part} passes.") for j in range(turns_each)
        ]
        next_id = _bulk(raw, turns, next_id)
    _order_by_latest_turn(raw)


def _order_by_latest_turn(raw: sqlite3.Connection) -> None:
    with raw:
        raw.execute(
            """UPDATE chats SET activity_seq = (SELECT COUNT(*) FROM chats AS other
                   WHERE (SELECT MAX(id) FROM history WHERE chat_id = other.chat_id)
                      <= (SELECT MAX(id) FROM history WHERE chat_id = chats.chat_id))"""
        )
    raw.close()


def cached(name: str, fill: Callable[[Path], None]) -> Path:
    """The store `fill` writes, kept in the temp folder between runs."""
    path = CACHE / f"{name}-f{FILL_VERSION}.sqlite"
    if path.exists() and sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] > SCHEMA_VERSION:
        path.unlink()  # written by a newer version of the store
    if not path.exists():
        CACHE.mkdir(exist_ok=True)
        part = path.with_name(path.name + ".part")
        for stale in store_files(part):
            stale.unlink(missing_ok=True)
        fill(part)
        os.replace(part, path)
    return path


def filled(size: int) -> tuple[Path, int]:
    """A store with a `size`-turn workspace (and 48 small ones), cached between runs; the big one's id."""
    return cached(f"scale-{size}", partial(_fill, size=size)), SMALL_WORKSPACES + 1


def at_scale(quick: bool) -> list[Result]:
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000, 1_000_000]
    results: list[Result] = []
    for size in sizes:
        path, tower = filled(size)
        store = ChatHistoryDB(path)
        spaces = Application(store, AIAgent("qwen3:4b", "http://127.0.0.1:9", "system"))
        results += searching(spaces, size, 3 if size >= 1_000_000 else 5 if quick else 20)
        results += earlier_turns(spaces, tower, size, 3 if size >= 1_000_000 else 20 if quick else 100)
        results += counting(spaces, tower, size, 20 if quick else 100)
        spaces.close()
    results.append(spread_out(200 if not quick else 20, 5 if quick else 20))
    for size in sizes[-2:]:
        results += exporting(*filled(size), size)
    return results


def spread_out(turns_each: int, runs: int) -> Result:
    """A word in many turns of three workspaces among 500: the others are asked, 50 at a time."""
    path = cached(f"many-{turns_each}", partial(_fill_many, turns_each=turns_each))
    spaces = Application(ChatHistoryDB(path), AIAgent("qwen3:4b", "http://127.0.0.1:9", "system"))
    samples = timed_ms(partial(spaces.workspaces.search, "girder"), runs)
    spaces.close()
    total = MANY_WORKSPACES * turns_each
    return summarise(f"search, a word in 3 of 500 workspaces ({total:,} turns)", samples, "ms", "≤ 50 ms", 50)


def searching(spaces: Application, size: int, runs: int) -> list[Result]:
    """Each kind of word; the common word's line, and the slowest kind's."""
    medians = {}
    for kind, text in SEARCHES.items():
        samples = timed_ms(partial(spaces.workspaces.search, text), runs)
        medians[kind] = summarise(f"search, {kind} ({text!r}), {size:,} turns", samples, "ms", "≤ 50 ms", 50)
    slowest = max(medians.values(), key=lambda result: result.median)
    worst = replace(slowest, name=f"search, slowest of {len(SEARCHES)} kinds: " + slowest.name.removeprefix("search, "))
    return [medians["a common word"], worst]


def earlier_turns(spaces: Application, tower: int, size: int, runs: int) -> list[Result]:
    """What every rerun of the page asks: are there turns before the 50 shown?"""
    first_shown = spaces.turns.of(tower, limit=50)[0].turn_id
    samples = timed_ms(partial(spaces.turns.has_earlier, tower, first_shown), runs)
    return [summarise(f"earlier turns to show? (has_earlier_turns), {size:,} turns", samples, "ms", "≤ 1 ms", 1)]


def counting(spaces: Application, tower: int, size: int, runs: int) -> list[Result]:
    """What the delete dialog and /switch ask (one workspace's turns), and list-sessions (every workspace's)."""
    one = timed_ms(partial(spaces.turns.count, tower), runs)
    every = timed_ms(lambda: [spaces.turns.count(chat.chat_id) for chat in spaces.workspaces.recent()], runs)
    return [
        summarise(f"turns of a workspace (count_turns), {size:,} turns", one, "ms", "≤ 1 ms", 1),
        summarise(f"every workspace's turns, as list-sessions asks, {size:,} turns", every, "ms", "≤ 5 ms", 5),
    ]


def exporting(path: Path, tower: int, size: int) -> list[Result]:
    """Each document of the big workspace written to a file, in a process of its own: time and peak memory.

    The export's floor must write the export's very bytes, or its line says so.
    """
    results = []
    digests = {}
    for document, call in DOCUMENTS.items():
        measured = _write_in_a_process(call, path, tower)
        digests[document] = measured["sha256"]
        results.append(single(f"{document}, {size:,} turns: time", measured["seconds"], "s", "(reference)", None))
        if "floor" not in document:
            peak = measured["peak_mb"]
            results.append(single(f"{document}, {size:,} turns: peak memory", peak, "MB", "≤ 100 MB", peak <= 100))
    export, floor = results[0].median, results[2].median
    same = digests["export to Markdown"] == digests[next(name for name in DOCUMENTS if "floor" in name)]
    results.insert(
        3,
        single(f"export to Markdown, {size:,} turns: ratio to the floor", export / floor, "×",
               "the same bytes" if same else "the floor wrote other bytes", None if same else False),
    )  # fmt: skip
    return results


def _write_in_a_process(call: str, path: Path, tower: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [sys.executable, "-c", WRITER.replace("WRITE_DOCUMENT", call), str(ROOT), str(path), str(tower),
             folder + "/d.md"],
            capture_output=True,
            text=True,
            check=True,
        )  # fmt: skip
    measured: dict[str, Any] = json.loads(done.stdout)
    return measured
