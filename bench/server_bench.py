"""The protocol server: what a turn costs over the protocol beyond the same turn asked in-process, and
50 sessions at once beside the raw client's fan-out of the same requests. The fake Ollama runs in a process
of its own (60-chunk answers, no delay). The one-connection client reads each event's line but parses none
(its own JSON decoding is not the server's latency) beyond seeing whether the turn failed.

A benchmark counts its errors as failures: a dispatch fails when an `error` event comes, when its
`turn-completed` gives another stop reason than `end_turn`, or when the connection closes first; a
failed turn is not an answered one, and a run with failures misses its target.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ollama

from agent import AIAgent
from app import Application
from bench.agent_bench import captured_requests, fake_server_process, raw_request
from bench.harness import Result, single, summarise
from faces.server.server import ProtocolServer
from history import ChatHistoryDB

QUESTION = "What is the maximum moment of a simply supported beam?"


@dataclass(frozen=True)
class Outcome:
    """One dispatch: its time, first line sent to `turn-completed` read, and why it failed (None: answered)."""

    ms: float
    failure: str | None = None


async def in_process(service: Application, chat_id: int) -> Outcome:
    started = time.perf_counter()
    failure = None
    async for event in service.turns.ask(QUESTION, chat_id):
        if event.type == "error":
            failure = event.message
        elif event.type == "turn_completed" and event.stop_reason != "end_turn":
            failure = failure or f"stopped: {event.stop_reason}"
    return Outcome((time.perf_counter() - started) * 1000, failure)


async def dispatch(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: dict[str, Any]) -> Outcome:
    """Send one dispatch and read its events up to `turn-completed`, noting any failure on the way."""
    started = time.perf_counter()
    writer.write(json.dumps(request).encode() + b"\n")
    await writer.drain()
    failure = None
    while True:
        line = await reader.readline()
        if not line:
            return Outcome((time.perf_counter() - started) * 1000, failure or "the connection closed")
        if b'"type":"error"' in line:
            failure = failure or str(json.loads(line).get("message"))
        elif b'"type":"turn-completed"' in line:
            if b'"stopReason":"end_turn"' not in line:
                failure = failure or f"stopped: {json.loads(line).get('stopReason')}"
            return Outcome((time.perf_counter() - started) * 1000, failure)


async def over_protocol(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, session: int, n: int) -> Outcome:
    request = {"id": f"r{n}", "type": "dispatch", "agentID": "assistant", "sessionID": str(session)}
    return await dispatch(reader, writer, {**request, "content": QUESTION})


async def concurrent(port: int, sessions: int) -> tuple[float, list[Outcome]]:
    """`sessions` clients connect at once, each dispatching into a new session: (wall ms, each dispatch)."""

    async def one(n: int) -> Outcome:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError as error:
            return Outcome(0.0, f"could not connect ({error})")
        request = {"id": f"c{n}", "type": "dispatch", "agentID": "assistant", "content": f"{QUESTION} ({n})"}
        try:
            return await dispatch(reader, writer, request)
        finally:
            writer.close()

    started = time.perf_counter()
    each = await asyncio.gather(*(one(n) for n in range(sessions)))
    return (time.perf_counter() - started) * 1000, list(each)


async def fan_out(url: str, body: dict[str, Any], requests: int) -> tuple[float, int]:
    """The raw client sending `requests` copies of the agent's request at once: (wall ms, requests failed)."""
    client = ollama.AsyncClient(host=url)
    started = time.perf_counter()
    answers = await asyncio.gather(*(raw_request(client, body) for _ in range(requests)), return_exceptions=True)
    return (time.perf_counter() - started) * 1000, sum(isinstance(answer, BaseException) for answer in answers)


def percentile(samples: list[float], share: float) -> float:
    """The value below which `share` of the samples lie (linear between the nearest ranks)."""
    ordered = sorted(samples)
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def failures_row(name: str, outcomes: list[Outcome]) -> Result:
    failed = [o.failure for o in outcomes if o.failure is not None]
    shown = f"0 of {len(outcomes)}" if not failed else f"{len(failed)} of {len(outcomes)} ({failed[0]})"
    return single(f"{name}: turns failed", len(failed), "", f"0 (now: {shown})", not failed)


def concurrency_rows(
    sessions: int, walls: list[float], outcomes: list[Outcome], raw: list[float], raw_failed: int
) -> list[Result]:
    answered = [o.ms for o in outcomes if o.failure is None]
    rate = [len(answered) / len(walls) / (wall / 1000) for wall in walls]
    label = f"{sessions} sessions at once"
    return [
        failures_row(label, outcomes),
        summarise(f"{label}: all answered (wall)", walls, "ms", "(reference)", None),
        summarise(f"{label}: answered turns per second", rate, "turns/s", "(reference)", None),
        summarise(f"{label}: each dispatch, first line to turn-completed", answered or [0.0], "ms", "—", None),
        single(f"{label}: p99 of the dispatches", percentile(answered or [0.0], 0.99), "ms", "(reference)", None),
        single(f"raw client: the same {sessions} requests at once: requests failed", raw_failed, "", "0",
               raw_failed == 0),
        summarise(f"raw client: the same {sessions} requests at once (wall)", raw, "ms", "(reference)", None),
        single(f"{label}: ratio to the raw fan-out (medians)", statistics.median(walls) / statistics.median(raw),
               "×", "(reference)", None),
    ]  # fmt: skip


async def measure(url: str, folder: Path, runs: int, sessions: int, rounds: int, body: dict[str, Any]) -> list[Result]:
    store = ChatHistoryDB(folder / "bench.sqlite")
    service = Application(store, AIAgent("qwen3:4b", url, "You are an engineering assistant."))
    server = ProtocolServer(service)
    _, port = await server.start("127.0.0.1", 0)
    local, remote = (
        service.workspaces.create("in-process").chat_id,
        service.workspaces.create("over the protocol").chat_id,
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for n in range(3):  # warm both paths
        await in_process(service, local)
        await over_protocol(reader, writer, remote, n)
    direct: list[Outcome] = []
    served: list[Outcome] = []
    for n in range(runs):  # interleaved, so that drift affects both alike
        direct.append(await in_process(service, local))
        served.append(await over_protocol(reader, writer, remote, 100 + n))
    added = [s.ms - d.ms for s, d in zip(served, direct, strict=True)]
    walls: list[float] = []
    raw: list[float] = []
    outcomes: list[Outcome] = []
    raw_failed = 0
    for _ in range(rounds):  # interleaved with the raw fan-out
        wall, each = await concurrent(port, sessions)
        walls.append(wall)
        outcomes += each
        raw_wall, failed = await fan_out(url, body, sessions)
        raw.append(raw_wall)
        raw_failed += failed
    writer.close()
    await server.shutdown()
    service.close()
    return [
        failures_row("one turn at a time, in-process and over the protocol", direct + served),
        summarise("turn asked in-process (Application.turns.ask, stored)", [d.ms for d in direct], "ms",
                  "(reference)", None),
        summarise("the same turn over the protocol (TCP, NDJSON, 64 events)", [s.ms for s in served], "ms",
                  "(reference)", None),
        single("protocol server: added latency per turn (median of pairs)", statistics.median(added), "ms", "≤ 2 ms",
               statistics.median(added) <= 2),
        *concurrency_rows(sessions, walls, outcomes, raw, raw_failed),
    ]  # fmt: skip


def run(quick: bool) -> list[Result]:
    body = captured_requests(QUESTION)[0]  # what the agent sends, for the raw client's fan-out
    with fake_server_process() as url, tempfile.TemporaryDirectory() as name:
        return asyncio.run(measure(url, Path(name), 20 if quick else 200, 50, 2 if quick else 7, body))
