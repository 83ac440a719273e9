"""The benchmarks' own honesty: the fake Ollama takes many clients at once, and a failed turn counts as one.

No timing is asserted here; the figures live in bench/README.md.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import ollama

from agent import AIAgent
from app import Application
from bench.server_bench import Outcome, concurrency_rows, concurrent
from faces.server.server import ProtocolServer
from fakes.ollama import Drop, FakeOllama, Reply
from history import ChatHistoryDB

CLIENTS = 50


def test_fifty_clients_connecting_at_once_are_all_answered() -> None:
    """The fake listens with a backlog that holds them: with socketserver's default of 5, many broke off."""

    async def one(client: ollama.AsyncClient, n: int) -> str:
        parts = []
        stream = await client.chat(model="qwen3:4b", messages=[{"role": "user", "content": f"{n}"}], stream=True)
        async for chunk in stream:
            parts.append(chunk.message.content or "")
        return "".join(parts)

    async def all_at_once(url: str) -> list[str | BaseException]:
        clients = [ollama.AsyncClient(host=url) for _ in range(CLIENTS)]  # one connection each
        return await asyncio.gather(*(one(client, n) for n, client in enumerate(clients)), return_exceptions=True)

    with FakeOllama() as fake:
        fake.responder = lambda body: Reply.text("The moment is wL²/8.", pieces=60)
        answers = asyncio.run(all_at_once(fake.url))
    assert answers == ["The moment is wL²/8."] * CLIENTS


def test_the_server_bench_counts_a_turn_that_broke_off_as_failed(tmp_path: Path) -> None:
    async def dispatch_all(url: str) -> tuple[float, list[Outcome]]:
        service = Application(ChatHistoryDB(tmp_path / "h.sqlite"), AIAgent("qwen3:4b", url, "system"))
        server = ProtocolServer(service)
        _, port = await server.start("127.0.0.1", 0)
        try:
            wall, outcomes = await concurrent(port, 4)
        finally:
            await server.shutdown()
            service.close()
        return wall, outcomes

    with FakeOllama() as fake:
        fake.script(Reply.then("The moment is", Drop()))  # the first of the four breaks off mid-answer
        fake.responder = lambda body: Reply.text("The moment is wL²/8.")
        wall, outcomes = asyncio.run(dispatch_all(fake.url))
    failures = [o.failure for o in outcomes if o.failure is not None]
    assert len(outcomes) == 4 and len(failures) == 1, outcomes
    assert "broke off" in failures[0]
    rows = {row.name: row for row in concurrency_rows(4, [wall], outcomes, [wall], 0)}
    failed = rows["4 sessions at once: turns failed"]
    assert failed.median == 1 and failed.met is False
    assert rows["4 sessions at once: each dispatch, first line to turn-completed"].runs == 3, "answered ones only"
