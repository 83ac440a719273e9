"""The protocol server: what a turn costs over the protocol beyond the same turn asked in-process, and
50 sessions at once. The fake Ollama runs in a process of its own (60-chunk answers, no delay). The
client reads each event's line but parses none: its own JSON decoding is not the server's latency."""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from agent import AIAgent
from app import WorkspaceService
from bench.agent_bench import fake_server_process
from bench.harness import Result, single, summarise
from faces.server.server import ProtocolServer
from history import ChatHistoryDB

QUESTION = "What is the maximum moment of a simply supported beam?"


async def in_process(service: WorkspaceService, chat_id: int) -> float:
    started = time.perf_counter()
    async for _ in service.ask(QUESTION, chat_id):
        pass
    return (time.perf_counter() - started) * 1000


async def over_protocol(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, session: int, n: int) -> float:
    started = time.perf_counter()
    request = {
        "id": f"r{n}",
        "type": "dispatch",
        "agentID": "assistant",
        "sessionID": str(session),
        "content": QUESTION,
    }
    writer.write(json.dumps(request).encode() + b"\n")
    await writer.drain()
    while b'"type":"turn-completed"' not in await reader.readline():  # the client's own parsing is not the server's
        pass
    return (time.perf_counter() - started) * 1000


async def concurrent(port: int, sessions: int) -> tuple[float, list[float]]:
    async def one(n: int) -> float:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        took = await over_protocol_new(reader, writer, n)
        writer.close()
        return took

    started = time.perf_counter()
    each = await asyncio.gather(*(one(n) for n in range(sessions)))
    return (time.perf_counter() - started) * 1000, list(each)


async def over_protocol_new(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int) -> float:
    started = time.perf_counter()
    request = {"id": f"c{n}", "type": "dispatch", "agentID": "assistant", "content": f"{QUESTION} ({n})"}
    writer.write(json.dumps(request).encode() + b"\n")
    await writer.drain()
    while json.loads(await reader.readline())["type"] != "turn-completed":
        pass
    return (time.perf_counter() - started) * 1000


async def measure(url: str, folder: Path, runs: int, sessions: int) -> list[Result]:
    store = ChatHistoryDB(folder / "bench.sqlite")
    service = WorkspaceService(store, AIAgent("qwen3:4b", url, "You are an engineering assistant."))
    server = ProtocolServer(service)
    _, port = await server.start("127.0.0.1", 0)
    local, remote = service.create("in-process").chat_id, service.create("over the protocol").chat_id
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for n in range(3):  # warm both paths
        await in_process(service, local)
        await over_protocol(reader, writer, remote, n)
    direct, served = [], []
    for n in range(runs):  # interleaved, so that drift affects both alike
        direct.append(await in_process(service, local))
        served.append(await over_protocol(reader, writer, remote, 100 + n))
    added = [s - d for s, d in zip(served, direct, strict=True)]
    total, each = await concurrent(port, sessions)
    writer.close()
    await server.shutdown()
    service.close()
    return [
        summarise("turn asked in-process (WorkspaceService.ask, stored)", direct, "ms", "(reference)", None),
        summarise("the same turn over the protocol (TCP, NDJSON, 64 events)", served, "ms", "(reference)", None),
        single("protocol server: added latency per turn (median of pairs)", statistics.median(added), "ms", "≤ 2 ms",
               statistics.median(added) <= 2),
        single(f"{sessions} sessions at once: all answered", total, "ms", "(reference)", None),
        summarise(f"{sessions} sessions at once: each dispatch, first line to turn-completed", each, "ms", "—", None),
    ]  # fmt: skip


def run(quick: bool) -> list[Result]:
    with fake_server_process() as url, tempfile.TemporaryDirectory() as name:
        return asyncio.run(measure(url, Path(name), 20 if quick else 200, 50))
