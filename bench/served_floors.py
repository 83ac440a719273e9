"""Turns served by `python main.py serve` as shipped (its defaults: MAX_TURNS_PER_SERVER, MAX_TURNS_PER_USER, the
limits), against their floors, on SQLite and on PostgreSQL:

- 50 sessions at once shared out over two server processes on one store, against the raw client sending the
  request a served turn sends (recorded first) 50 times at once: the share of the raw fan-out's rate reached,
  every failed dispatch counted (as in `bench/server_bench.py`), the 99th percentile of the dispatches shown,
  and the servers' CPU time a turn over the rounds (from /proc, the summaries written after each included).
  Each client disconnects after its turn, so the servers then write the 50 sessions' summaries in the background
  (docs/protocol.md); each phase starts once the servers are idle again, and the time that took is shown;
- one turn at a time over the protocol with AUTH=accounts (an engineer's API key) against the same with AUTH=none,
  each on a store of its own: what accounts add to a turn.

The fake Ollama answers at once (60 chunks) in a process of its own.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.agent_bench import fake_server_process
from bench.floors import Figure
from bench.harness import single, summarise
from bench.server_bench import QUESTION, Outcome, concurrent, dispatch, fan_out, percentile
from bench.shipped import MAIN, environment, main_py, timed_run
from fakes.ollama import FakeOllama

SESSIONS = 50


def store_settings(target: str, folder: Path) -> tuple[list[str], dict[str, str]]:
    """The flags and settings that point a command at the store `target` (a SQLite file or a PostgreSQL URL)."""
    if target.startswith("postgresql://"):
        return [], {"DATABASE_URL": target}
    return ["--db", str(folder / target)], {}


@dataclass(frozen=True)
class Served:
    """A protocol server's port, and its process (whose CPU time tells when it is idle)."""

    port: int
    pid: int


@contextmanager
def server(
    ollama: str, target: str, folder: Path, settings: Mapping[str, str] | None = None, main: Path = MAIN
) -> Iterator[Served]:
    """`python main.py serve --port 0` in `folder` on the store `target` (`main`: another checkout's main.py)."""
    flags, env = store_settings(target, folder)
    process = subprocess.Popen(
        [sys.executable, str(main), "serve", "--port", "0", "--server", ollama, *flags], cwd=folder,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=environment({**env, **(settings or {})}),
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("Listening on "), line
        yield Served(int(line.split()[-1].rsplit(":", 1)[1]), process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)


def served_request(target: str, folder: Path) -> dict[str, Any]:
    """The /api/chat body a served turn sends, recorded by an in-process fake."""
    from bench.fake_server import reply

    with FakeOllama() as fake:
        fake.responder = reply
        with server(fake.url, target, folder) as served:
            outcome = asyncio.run(_one_dispatch(served.port, {"content": QUESTION}))
        assert outcome.failure is None, outcome.failure
        return fake.chat_requests[-1]


async def _one_dispatch(port: int, fields: dict[str, Any]) -> Outcome:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        return await dispatch(reader, writer, {"id": "r", "type": "dispatch", "agentID": "assistant", **fields})
    finally:
        writer.close()


async def spread(ports: list[int], sessions: int) -> tuple[float, list[Outcome]]:
    started = time.perf_counter()
    each = await asyncio.gather(*(concurrent(port, sessions // len(ports)) for port in ports))
    return (time.perf_counter() - started) * 1000, [outcome for _, outcomes in each for outcome in outcomes]


def sessions_figure(label: str, target: str, folder: Path, rounds: int) -> Figure:
    figure = Figure(f"{SESSIONS} sessions through two `main.py serve` processes on {label}", "answered turns a second",
                    f"the raw client's fan-out of the same {SESSIONS} requests", "turns/s", "share", 0.5)  # fmt: skip
    body = served_request(target, folder)
    dispatches: list[float] = []
    settling: list[float] = []
    with fake_server_process() as ollama, ExitStack() as stack:
        servers = [stack.enter_context(server(ollama, target, folder)) for _ in range(2)]
        ports = [served.port for served in servers]
        asyncio.run(spread(ports, 4))  # warm both servers
        asyncio.run(fan_out(ollama, body, 4))
        pids = [served.pid for served in servers]
        idle(pids)
        cpu_before = sum(map(cpu_seconds, pids))
        for _ in range(rounds):
            wall, outcomes = asyncio.run(spread(ports, SESSIONS))
            settling.append(idle(pids))
            raw_wall, raw_failed = asyncio.run(fan_out(ollama, body, SESSIONS))
            answered = [outcome.ms for outcome in outcomes if outcome.failure is None]
            figure.failures += [outcome.failure for outcome in outcomes if outcome.failure is not None]
            figure.failures += [f"the raw client: {raw_failed} requests failed"] if raw_failed else []
            dispatches += answered
            figure.round([len(answered) / (wall / 1000)], [(SESSIONS - raw_failed) / (raw_wall / 1000)])
        cpu_per_turn = (sum(map(cpu_seconds, pids)) - cpu_before) * 1000 / (rounds * SESSIONS)
    p99 = percentile(dispatches or [0.0], 0.99)
    shown = f"0 of {rounds * SESSIONS}" if not figure.failures else f"{len(figure.failures)} ({figure.failures[0]})"
    figure.extra = [
        single(f"{figure.name}: turns failed", len(figure.failures), "", f"0 (now: {shown})", not figure.failures),
        single(f"{figure.name}: p99 of the dispatches", p99, "ms", "(reported)", None),
        summarise(f"{figure.name}: until the servers were idle after a round (the sessions' summaries)", settling,
                  "ms", "(reference)", None),
        single(f"{figure.name}: CPU time of the two servers a turn, its summary included (steadier than the rate "
               "on a shared machine)", cpu_per_turn, "ms", "(reference)", None),
    ]  # fmt: skip
    return figure


def idle(pids: list[int], quiet: float = 0.3, longest: float = 60.0) -> float:
    """Milliseconds until the processes `pids` use no CPU for `quiet` seconds (at most `longest`)."""
    started = time.perf_counter()
    before = [cpu_seconds(pid) for pid in pids]
    while time.perf_counter() - started < longest:
        time.sleep(quiet)
        now = [cpu_seconds(pid) for pid in pids]
        if all(after - earlier < 0.005 for after, earlier in zip(now, before, strict=True)):
            return (time.perf_counter() - started - quiet) * 1000
        before = now
    return longest * 1000


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def api_key(target: str, folder: Path) -> str:
    """A new engineer's API key in the store `target`, made by the README's commands."""
    flags, env = store_settings(target, folder)
    settings = {"AUTH": "accounts", **env}
    _, failed = timed_run(main_py(["users", "add", "bench", "--role", "engineer", *flags]), folder, settings,
                          stdin="a long enough password\n")  # fmt: skip
    assert failed is None, failed
    done = subprocess.run(main_py(["users", "key", "bench", *flags]), cwd=folder, env=environment(settings),
                          capture_output=True, text=True, check=True)  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


def accounts_figure(label: str, targets: tuple[str, str], folder: Path, rounds: int, each: int) -> Figure:
    """AUTH=accounts on `targets[0]`, AUTH=none on `targets[1]`: the same turns, one at a time, interleaved."""
    figure = Figure(f"a protocol turn with accounts on {label}", "AUTH=accounts, an engineer's API key",
                    "the same turn with AUTH=none", "ms", "added", 1.0)  # fmt: skip
    key = api_key(targets[0], folder)
    with fake_server_process() as ollama, ExitStack() as stack:
        ports = {
            "accounts": stack.enter_context(server(ollama, targets[0], folder, {"AUTH": "accounts"})).port,
            "none": stack.enter_context(server(ollama, targets[1], folder)).port,
        }
        tokens = {"accounts": {"token": key}, "none": {}}
        asyncio.run(_turns(ports, tokens, rounds, each, figure))
    return figure


async def _turns(ports: dict[str, int], tokens: dict[str, dict[str, str]], rounds: int, each: int,
                 figure: Figure) -> None:  # fmt: skip
    connections = {key: await asyncio.open_connection("127.0.0.1", port) for key, port in ports.items()}
    sessions = {key: await _session(*connections[key], tokens[key]) for key in ports}
    for _ in range(3):  # warm
        for key in ports:
            await _turn(connections[key], tokens[key], sessions[key], figure)
    for number in range(rounds):
        samples: dict[str, list[float]] = {"accounts": [], "none": []}
        for turn in range(each):
            for key in ("accounts", "none") if (number + turn) % 2 == 0 else ("none", "accounts"):
                samples[key].append(await _turn(connections[key], tokens[key], sessions[key], figure))
        figure.round(samples["accounts"], samples["none"])
    for _, writer in connections.values():
        writer.close()


async def _session(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, token: dict[str, str]) -> str:
    request = {"id": "new", "type": "dispatch", "agentID": "assistant", "content": QUESTION, **token}
    writer.write(json.dumps(request).encode() + b"\n")
    while True:
        line = json.loads(await reader.readline())
        if line["type"] == "turn-completed":
            return str(line["sessionID"])
        assert line["type"] != "error", line


async def _turn(connection: tuple[asyncio.StreamReader, asyncio.StreamWriter], token: dict[str, str], session: str,
                figure: Figure) -> float:  # fmt: skip
    request = {"id": "t", "type": "dispatch", "agentID": "assistant", "sessionID": session, "content": QUESTION}
    outcome = await dispatch(*connection, {**request, **token})
    if outcome.failure is not None:
        figure.failures.append(outcome.failure)
    return outcome.ms
