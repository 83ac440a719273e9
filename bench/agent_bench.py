"""AIAgent against the raw ollama client, on the same fake server with the same replies.

The raw client sends exactly the requests the agent sends (captured first), so
the difference is what the agent adds: building the prompt, the client it makes
per turn, the events, the tool loop. Beside it, what routing among several servers
adds: the same turn with ENDPOINT listing three fake servers (each in a process of its
own) against one, and holding and giving back a server alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import ollama

from agent import AIAgent
from bench.floors import Figure
from bench.harness import Result, single, summarise
from engine.ollama_server import ClientPerLoop
from engine.server_pool import ServerPool
from fakes.ollama import FakeOllama, free_port

ROOT = Path(__file__).resolve().parents[1]
ROUTING_CAP = 2  # MAX_TURNS_PER_SERVER's default
PLAIN_QUESTION = "What is the maximum moment of a simply supported beam?"
TOOL_QUESTION = "[tool] What is the square root of 144?"


@contextlib.contextmanager
def fake_server_process() -> Iterator[str]:
    """The fake Ollama in its own process; yields its URL."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.fake_server", str(port)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def captured_requests(question: str) -> list[dict[str, Any]]:
    """The /api/chat bodies the agent sends for `question` (recorded by an in-process fake)."""
    from bench.fake_server import reply

    with FakeOllama() as fake:
        fake.responder = reply
        agent = AIAgent("qwen3:4b", fake.url, "You are an engineering assistant.")

        async def turn() -> None:
            async for _ in agent.stream(agent.request(question)):
                pass

        asyncio.run(turn())
        return fake.chat_requests


async def raw_request(client: ollama.AsyncClient, body: dict[str, Any]) -> tuple[float, float]:
    """(total ms, ms to the first chunk with text) for one streamed request."""
    started = time.perf_counter()
    first = None
    stream = await client.chat(
        model=body["model"],
        messages=body["messages"],
        tools=body.get("tools"),
        stream=True,
        think=body.get("think"),
        options=body.get("options"),
    )
    async for chunk in stream:
        if first is None and chunk.message.content:
            first = time.perf_counter() - started
    return (time.perf_counter() - started) * 1000, (first or 0.0) * 1000


async def agent_turn(agent: AIAgent, question: str) -> tuple[float, float, float]:
    """(total ms, ms to the first text event, ms spent inside tools) for one turn."""
    agent.set_context(None, [])
    started = time.perf_counter()
    first, tool_ms = None, 0.0
    async for event in agent.stream(agent.request(question)):
        if first is None and event.type == "text":
            first = time.perf_counter() - started
        if event.type == "tool_call_finished":
            tool_ms += event.call.duration_ms
    return (time.perf_counter() - started) * 1000, (first or 0.0) * 1000, tool_ms


async def compare(
    url: str, runs: int, plain: list[dict[str, Any]], tooled: list[dict[str, Any]]
) -> dict[str, list[float]]:
    agent = AIAgent("qwen3:4b", url, "You are an engineering assistant.")
    client = ollama.AsyncClient(host=url)
    samples: dict[str, list[float]] = {
        key: [] for key in ("raw", "agent", "raw_first", "agent_first", "raw_tool", "agent_tool", "tool")
    }
    for _ in range(3):  # warm up both (the agent asks /api/show once per model)
        await agent_turn(agent, PLAIN_QUESTION)
        await raw_request(client, plain[0])
    for _ in range(runs):  # interleaved, so that drift affects both alike
        total, first = await raw_request(client, plain[0])
        samples["raw"].append(total)
        samples["raw_first"].append(first)
        total, first, _ = await agent_turn(agent, PLAIN_QUESTION)
        samples["agent"].append(total)
        samples["agent_first"].append(first)
        samples["raw_tool"].append(sum([(await raw_request(client, body))[0] for body in tooled]))
        total, _, tool_ms = await agent_turn(agent, TOOL_QUESTION)
        samples["agent_tool"].append(total)
        samples["tool"].append(tool_ms)
    return samples


def run(quick: bool) -> list[Result]:
    runs = 10 if quick else 200
    plain, tooled = captured_requests(PLAIN_QUESTION), captured_requests(TOOL_QUESTION)
    with fake_server_process() as url:
        samples = asyncio.run(compare(url, runs, plain, tooled))
    med = {key: statistics.median(values) for key, values in samples.items()}
    added = med["agent"] - med["raw"]
    ratio = med["agent"] / med["raw"]
    first_added = med["agent_first"] - med["raw_first"]
    per_round = med["agent_tool"] - med["raw_tool"] - med["tool"]
    return [
        summarise("raw ollama client, one streamed answer (60 chunks)", samples["raw"], "ms", "(reference)", None),
        summarise("AIAgent.stream, same answer, no tools", samples["agent"], "ms", "(reference)", None),
        single("agent overhead per turn, added", added, "ms", "≤ 5 ms", added <= 5),
        single("agent overhead per turn, ratio to raw", ratio, "×", "≤ 1.2×", ratio <= 1.2),
        single("first text event beyond the server's first chunk", first_added, "ms", "≤ 5 ms", first_added <= 5),
        single("agent overhead per tool round (tool time excluded)", per_round, "ms", "≤ 10 ms", per_round <= 10),
        *run_routing(quick),
    ]


async def hold_and_give_back(pool: ServerPool, runs: int) -> list[float]:
    """Milliseconds to hold a server for a turn and give it back, nothing else (the models' lists fresh)."""
    clients = ClientPerLoop()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        claim = pool.claim("qwen3:4b", clients)
        async for _waiting in claim.waits():
            pass
        claim.release()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def routing(urls: list[str], runs: int) -> dict[str, list[float]]:
    """The same turn with one server and with three listed (interleaved), then holding a server alone."""
    agents = {
        count: AIAgent("qwen3:4b", urls[:count], "You are an engineering assistant.", max_turns_per_server=ROUTING_CAP)
        for count in (1, 3)
    }
    samples: dict[str, list[float]] = {"turn 1": [], "turn 3": [], "hold 1": [], "hold 3": []}
    for _ in range(3):  # warm up (each server is asked /api/show once, the three for their models)
        for agent in agents.values():
            await agent_turn(agent, PLAIN_QUESTION)
    for _ in range(runs):
        for count, agent in agents.items():
            samples[f"turn {count}"].append((await agent_turn(agent, PLAIN_QUESTION))[0])
    for count, agent in agents.items():
        samples[f"hold {count}"] = await hold_and_give_back(agent.pool, runs)
    return samples


def run_routing(quick: bool) -> list[Result]:
    runs = 10 if quick else 200
    with ExitStack() as stack:
        urls = [stack.enter_context(fake_server_process()) for _ in range(3)]
        samples = asyncio.run(routing(urls, runs))
    added = statistics.median(samples["turn 3"]) - statistics.median(samples["turn 1"])
    return [
        summarise("routing: a turn, ENDPOINT with 1 server", samples["turn 1"], "ms", "(reference)", None),
        summarise("routing: the same turn, ENDPOINT with 3 servers", samples["turn 3"], "ms", "(reference)", None),
        single("routing overhead per turn, 3 servers against 1", added, "ms", "≤ 1 ms", added <= 1),
        summarise("routing: hold and give back a server, 1 server", samples["hold 1"], "ms", "(reference)", None),
        summarise("routing: hold and give back a server, 3 servers", samples["hold 3"], "ms", "(reference)", None),
    ]


def plain_turn_figure(quick: bool) -> list[Figure]:
    """What the agent adds to the raw client's same request, plain turns, in rounds of interleaved pairs."""
    rounds, each = (2, 5) if quick else (5, 40)
    figure = Figure("agent, plain turn", "AIAgent.stream", "raw ollama.AsyncClient.chat, the same request", "ms",
                    "added", 0.5)  # fmt: skip
    plain = captured_requests(PLAIN_QUESTION)[0]

    async def measure(url: str) -> None:
        agent = AIAgent("qwen3:4b", url, "You are an engineering assistant.")
        client = ollama.AsyncClient(host=url)
        for _ in range(5):  # warm up both (the agent asks /api/show once per model)
            await agent_turn(agent, PLAIN_QUESTION)
            await raw_request(client, plain)
        for _ in range(rounds):
            ours: list[float] = []
            floor: list[float] = []
            for _ in range(each):
                floor.append((await raw_request(client, plain))[0])
                ours.append((await agent_turn(agent, PLAIN_QUESTION))[0])
            figure.round(ours, floor)
        await agent.aclose()

    with fake_server_process() as url:
        asyncio.run(measure(url))
    return [figure]
