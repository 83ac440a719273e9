"""Turns spread over an office's Ollama servers whichever process asks: 20 questions sent at once, 10 to each of two
`python main.py serve` processes on one store, both listing the same two servers (as the README starts them, with
their defaults: MAX_TURNS_PER_SERVER=2). Each answer takes ANSWER_SECONDS, so the time says how well they spread,
against the same questions on one server measured in the same run: spread evenly, two servers take about half as
long. On SQLite and (where its binaries are) PostgreSQL."""

from __future__ import annotations

import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

from bench.harness import Result, single
from fakes.ollama import FakeOllama, is_summary_request
from fakes.postgres import PostgresServer, unavailable
from fakes.replies import Pause, Reply, chunk, final
from tests.protocol_client import Server, running_server

TURNS = 20
PROCESSES = 2
ANSWER_SECONDS = 0.5


def _slow(body: dict[str, object]) -> Reply:
    if is_summary_request(body):  # a workspace's digital twin, written as the question ends: not what is measured
        return Reply.text("- Question answered.")
    return Reply([chunk(content="Working it out "), Pause(ANSWER_SECONDS), chunk(content="done."), final("stop", 9, 5)])


def _ask(server: Server, number: int) -> bool:
    client = server.connect()
    try:
        events = client.request({"type": "dispatch", "agentID": "assistant", "id": f"q{number}",
                                 "content": f"Question {number}"})  # fmt: skip
    finally:
        client.close()
    return events[-1].get("type") == "turn-completed" and events[-1].get("stopReason") != "error"


def _asked(folder: Path, env: dict[str, str], servers: int) -> tuple[float, list[int], int]:
    """Seconds for TURNS questions sent at once through PROCESSES serve processes listing `servers` fake servers;
    the questions each server answered; how many failed."""
    with ExitStack() as stack:
        fakes = [stack.enter_context(FakeOllama()) for _ in range(servers)]
        for fake in fakes:
            fake.responder = _slow
        endpoint = ",".join(fake.url for fake in fakes)
        processes = [stack.enter_context(running_server(endpoint, folder, env=env)) for _ in range(PROCESSES)]
        started = time.perf_counter()
        with ThreadPoolExecutor(TURNS) as pool:
            done = list(pool.map(lambda n: _ask(processes[n % PROCESSES], n), range(TURNS)))
        seconds = time.perf_counter() - started
        counts = [sum(not is_summary_request(body) for body in fake.chat_requests) for fake in fakes]
    return seconds, counts, done.count(False)


def spread(folder: Path, env: dict[str, str], label: str) -> list[Result]:
    alone, _, failed_alone = _asked(folder, env, 1)
    seconds, counts, failed = _asked(folder, env, 2)
    even = min(counts) >= TURNS * 2 // 5 and failed == failed_alone == 0  # neither server left with under 40 %
    each = f"≥ {TURNS * 2 // 5} each (got {counts[0]} / {counts[1]}, {failed + failed_alone} failed)"
    ratio = seconds / alone
    return [
        single(f"{TURNS} turns from {PROCESSES} processes: answered by each of 2 servers ({label})",
               min(counts), "turns", each, even),
        single(f"{TURNS} turns from {PROCESSES} processes: 2 servers' time over 1 server's ({label})",
               ratio, "×", f"≤ 0.8 ({seconds:.2f} s against {alone:.2f} s)", ratio <= 0.8),
    ]  # fmt: skip


def run(quick: bool) -> list[Result]:
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="spread-bench-") as name:
        folder = Path(name)
        results += spread(folder, {"CHAT_HISTORY_DB_PATH": str(folder / "history.sqlite")}, "SQLite")
        if unavailable() is None and not quick:
            with PostgresServer() as server:
                results += spread(folder, {"DATABASE_URL": server.new_database()}, "PostgreSQL")
    return results
