"""The store on PostgreSQL beside SQLite: the same operations on the same turns, and 50 sessions over two
protocol servers on one database.

Each size's history is the store suite's (`store_bench.filled`: one workspace of that many turns among 48
small ones), copied into a fresh PostgreSQL database with `db copy`'s code (timed: moving in) and, for SQLite,
into a scratch file with SQLite's backup (so that the writes measured leave the cached file alone). Then
each operation runs on both backends in turn, so that drift affects both alike. PostgreSQL is Debian's 15,
started in a temporary folder with its default settings (fsync and synchronous commit on), on this machine.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from agent import AIAgent
from app.application import Application
from app.documents.library import DocumentLibrary
from bench import store_bench
from bench.agent_bench import fake_server_process
from bench.harness import Result, single, summarise, timed_ms
from bench.server_bench import Outcome, concurrent, failures_row
from domain.records import FinishedTurn
from engine.embeddings import Embedder
from fakes.ollama import FakeOllama
from fakes.postgres import PostgresServer, unavailable
from history import ChatHistoryDB
from store import copy_history

ROOT = Path(__file__).resolve().parents[1]
RATIO = 3.0  # PostgreSQL may take at most this many times SQLite's time for an operation
SEARCH_MS = 50.0
SESSIONS = 50


@dataclass
class Pair:
    """The same history in a scratch SQLite file and a PostgreSQL database, opened as the application opens it."""

    sqlite: Application
    postgres: Application
    tower: int
    targets: tuple[str, str]

    def both(self) -> tuple[tuple[str, Application], tuple[str, Application]]:
        return ("SQLite", self.sqlite), ("PostgreSQL", self.postgres)


def application(target: str) -> Application:
    return Application(ChatHistoryDB(target), AIAgent("qwen3:4b", "http://127.0.0.1:9", "system"))


def interleaved(pair: Pair, measure: Callable[[Application], Callable[[], object]], runs: int) -> list[list[float]]:
    """Each backend's samples of one operation, the two run in turn."""
    samples: list[list[float]] = [[], []]
    for _ in range(runs):
        for index, (_, spaces) in enumerate(pair.both()):
            samples[index] += timed_ms(measure(spaces), 1, warmup=0)
    return samples


def compared(name: str, samples: list[list[float]], limit_ms: float | None = None) -> list[Result]:
    """SQLite's line, PostgreSQL's (at most RATIO times SQLite's median, and `limit_ms`), and the ratio."""
    sqlite, postgres = statistics.median(samples[0]), statistics.median(samples[1])
    target = f"≤ {RATIO:.0f}× SQLite" + (f", ≤ {limit_ms:.0f} ms" if limit_ms else "")
    met = postgres <= RATIO * sqlite and (limit_ms is None or postgres <= limit_ms)
    return [
        summarise(f"{name}: SQLite", samples[0], "ms", "(reference)", None),
        Result(f"{name}: PostgreSQL", postgres, min(samples[1]), max(samples[1]), "ms", target, met, len(samples[1])),
        single(f"{name}: PostgreSQL over SQLite", postgres / sqlite, "×", "(reference)", None),
    ]


def operations(pair: Pair, size: int, runs: int) -> list[Result]:
    """open, list, search, the last turns, add, export: on both backends, in turn."""
    turns = f"{size:,} turns"
    tower = pair.tower
    floor = pair.postgres._store  # noqa: SLF001 - one statement on the store's own connection
    results = [
        summarise(
            f"one statement's round trip to PostgreSQL (SELECT 1), {turns}",
            timed_ms(partial(_round_trip, floor), runs),
            "ms",
            "(the floor of every operation)",
            None,
        )
    ]
    results += compared(f"open the store, {turns}", _opening(pair, runs))
    results += compared(f"list the workspaces (49), {turns}", interleaved(pair, lambda s: s.workspaces.recent, runs))
    for kind, text in store_bench.SEARCHES.items():
        found = interleaved(pair, partial(_searching, text=text), runs)
        results += compared(f"search, {kind} ({text!r}), {turns}", found, SEARCH_MS)
    last = interleaved(pair, lambda s: partial(s.turns.of, tower, 50), runs)
    results += compared(f"the last 50 turns with their tool calls, {turns}", last)
    add = partial(_add, tower=tower)
    results += compared(f"add a turn with 3 tool calls, {turns}", interleaved(pair, add, runs))
    results += compared(f"export the {turns} workspace to Markdown", _exporting(pair, 1 if size >= 100_000 else 5))
    return results


def _round_trip(store: object) -> None:
    with store._query() as db:  # type: ignore[attr-defined]  # noqa: SLF001
        db.execute("SELECT 1").fetchone()


def _searching(spaces: Application, text: str) -> Callable[[], object]:
    return partial(spaces.workspaces.search, text)


def _opening(pair: Pair, runs: int) -> list[list[float]]:
    samples: list[list[float]] = [[], []]
    for _ in range(runs):
        for index, target in enumerate(pair.targets):
            started = time.perf_counter()
            ChatHistoryDB(target).close()
            samples[index].append((time.perf_counter() - started) * 1000)
    return samples


def _add(spaces: Application, tower: int) -> Callable[[], object]:
    store = spaces._store  # noqa: SLF001 - the benchmark writes turns as the turn runner does
    turn = FinishedTurn(chat_id=tower, user="q", assistant=store_bench.ANSWER, tool_calls=tuple(store_bench.CALLS))
    return partial(store.store_turn, turn)


def _exporting(pair: Pair, runs: int) -> list[list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "export.md"
        return interleaved(pair, lambda s: partial(s.reports.write_export, pair.tower, target), runs)


def moved_in(server: PostgresServer, size: int, folder: Path) -> tuple[Pair, list[Result]]:
    """The size's history as a scratch SQLite file and a new PostgreSQL database (the copy timed)."""
    cached, tower = store_bench.filled(size)
    scratch = folder / f"scratch-{size}.sqlite"
    source = ChatHistoryDB(cached)
    source.backup(scratch)
    url = server.new_database()
    started = time.perf_counter()
    target = ChatHistoryDB(url)
    copy_history(source, target)
    seconds = time.perf_counter() - started
    source.close()
    target.close()
    with server.admin(url.rsplit("/", 1)[1]) as admin:  # as autovacuum leaves it soon after, rather than during
        admin.execute("VACUUM (ANALYZE)")
    pair = Pair(application(str(scratch)), application(url), tower, (str(scratch), url))
    rate = size / seconds
    return pair, [single(f"db copy into PostgreSQL, {size:,} turns", seconds, "s", f"(reference: {rate:,.0f} turns/s)",
                         None)]  # fmt: skip


# 50 sessions over two protocol servers ----------------------------------------------------------------


def protocol_server(ollama: str, target: str, folder: Path) -> tuple[subprocess.Popen[str], int]:
    """`python main.py serve` on a free port, on the store `target`."""
    flags = ["--db", target] if not target.startswith("postgresql://") else []
    env = {"DATABASE_URL": target} if target.startswith("postgresql://") else {}
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "serve", "--port", "0", "--server", ollama, *flags],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "EMBED_MODEL": "", **env},
    )  # fmt: skip
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("Listening on "), line
    return process, int(line.split()[-1].rsplit(":", 1)[1])


async def spread(ports: list[int], sessions: int) -> tuple[float, list[Outcome]]:
    """`sessions` clients at once, each dispatching into a new session, shared out among the servers."""
    started = time.perf_counter()
    each = await asyncio.gather(*(concurrent(port, sessions // len(ports)) for port in ports))
    return (time.perf_counter() - started) * 1000, [outcome for _, outcomes in each for outcome in outcomes]


def two_servers(server: PostgresServer, rounds: int) -> list[Result]:
    """50 sessions over two protocol servers on one PostgreSQL database, and on one SQLite file, in turn."""
    results: list[Result] = []
    with fake_server_process() as ollama, tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for label, target in (("PostgreSQL", server.new_database()), ("SQLite", str(folder / "shared.sqlite"))):
            started = [protocol_server(ollama, target, folder) for _ in range(2)]
            walls: list[float] = []
            outcomes: list[Outcome] = []
            try:
                asyncio.run(spread([port for _, port in started], 4))  # warm both servers
                for _ in range(rounds):
                    wall, each = asyncio.run(spread([port for _, port in started], SESSIONS))
                    walls.append(wall)
                    outcomes += each
            finally:
                for process, _ in started:
                    process.terminate()
                    process.wait(timeout=30)
            answered = sum(outcome.failure is None for outcome in outcomes)
            rate = [answered / len(walls) / (wall / 1000) for wall in walls]
            label = f"{SESSIONS} sessions over two protocol servers on one {label} store"
            results += [
                failures_row(label, outcomes),
                summarise(f"{label}: answered turns per second", rate, "turns/s", "(reference)", None),
            ]
    return results


def documents(server: PostgresServer, folder: Path, passages: int, runs: int) -> list[Result]:
    """The document index's search on both backends: by words, and by words and embeddings (bytea, the cosine in
    the application; pgvector is not installed here), and the first search after the index changed, which reads
    every embedding into the application's matrix."""
    from bench.documents_bench import DIMENSIONS, filled_store, rng_words, searching_only

    model = "nomic-embed-text"
    stores = [
        filled_store(folder, passages, model),
        filled_store(folder, passages, model, target=server.new_database()),
    ]
    results: list[Result] = []
    with FakeOllama(models=[model]) as fake:
        fake.embed_dimensions = DIMENSIONS
        hybrid = [searching_only(DocumentLibrary(store, folder, Embedder(fake.url, model))) for store in stores]
        words = [searching_only(DocumentLibrary(store, folder, None)) for store in stores]
        questions = iter(f"{rng_words(i)} splice" for i in range(100 * runs))
        failed: list[str] = []
        for name, libraries in (("words and embeddings", hybrid), ("words only", words)):
            samples: list[list[float]] = [[], []]
            for _ in range(runs):
                for index, library in enumerate(libraries):
                    search = partial(_found, library, next(questions), failed, libraries is hybrid)
                    samples[index] += timed_ms(search, 1, warmup=0)
            results += compared(f"search the documents by {name}, {passages:,} passages", samples, SEARCH_MS)
        loading: list[list[float]] = [[], []]
        for _ in range(max(3, runs // 10)):
            for index, library in enumerate(hybrid):
                library._changed()  # noqa: SLF001 - as after a file was indexed: the matrix is read again
                loading[index] += timed_ms(partial(_found, library, next(questions), failed, True), 1, warmup=0)
        results += compared(f"the first search after the index changed (embeddings read), {passages:,} passages",
                            loading)  # fmt: skip
        shown = f"0 (now: {len(failed)}{': ' + failed[0] if failed else ''})"
        results.append(single("document searches that failed or fell back to words", len(failed), "", shown,
                              not failed))  # fmt: skip
    for store in stores:
        store.close()
    return results


def _found(library: DocumentLibrary, question: str, failed: list[str], embedded: bool) -> None:
    """One document search; an empty answer, or words only where embeddings were asked for, is a failure."""
    try:
        found = library.search(question, 5)
    except Exception as error:  # noqa: BLE001 - a benchmark counts its errors, and goes on
        failed.append(f"{question!r}: {error}")
        return
    if not found["passages"]:
        failed.append(f"{question!r}: nothing found")
    elif embedded and "words only" in found.get("note", ""):
        failed.append(f"{question!r}: {found['note']}")


def run(quick: bool) -> list[Result]:
    reason = unavailable()
    if reason is not None:
        return [single(f"PostgreSQL benchmarks skipped: {reason}", 0, "", "—", None)]
    sizes = [1_000, 10_000] if quick else [1_000, 100_000, 1_000_000]
    runs = 5 if quick else 30
    results: list[Result] = []
    with PostgresServer(durable=True) as server, tempfile.TemporaryDirectory() as name:
        for size in sizes:
            pair, copied = moved_in(server, size, Path(name))
            results += copied + operations(pair, size, runs)
            pair.sqlite.close()
            pair.postgres.close()
            server.drop_database(pair.targets[1])
            Path(pair.targets[0]).unlink()
        results += documents(server, Path(name), 2_000 if quick else 10_000, runs)
        results += two_servers(server, 1 if quick else 5)
    return results + flatness(results, sizes)


def flatness(results: list[Result], sizes: list[int]) -> list[Result]:
    """Each operation on PostgreSQL at the largest size over the same at the smallest: flat is close to 1×."""
    small, large = f"{sizes[0]:,} turns", f"{sizes[-1]:,} turns"
    medians = {result.name: result.median for result in results}
    rows = []
    for name, median in medians.items():
        if small in name and name.endswith(": PostgreSQL") and "export" not in name:
            grown = medians.get(name.replace(small, large))
            if grown is not None:
                label = name.replace(f", {small}", "").removesuffix(": PostgreSQL")
                rows.append(single(f"{label}: PostgreSQL at {large} over {small}", grown / median, "×",
                                   "≤ 2× (flat)", grown / median <= 2))  # fmt: skip
    return rows
