"""The OpenAI-compatible API and webhooks: what a turn costs over the chat API beyond the same turn over the
protocol, and what a webhook receiver that never answers costs a turn.

The fake Ollama runs in a process of its own (60-chunk answers, no delay). Both faces are served by one
`ProtocolServer` (the API on its HTTP port) and asked over loopback by minimal clients that read each answer
to its end without parsing it (their own JSON decoding is not the server's latency): the protocol's dispatch
to `turn-completed`, the API's response to its last byte (`data: [DONE]` when streamed). Each turn goes into a
new workspace on both faces, so that both prompts are alike (a workspace's history would make the protocol's
prompt longer, as the API's client sends its own): the API's lookup of the named workspace is counted.

The receiver that hangs accepts each connection and never answers; the same turn in-process with it as a
webhook and without any hook, interleaved, each on its own store.
"""

from __future__ import annotations

import asyncio
import json
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from agent import AIAgent
from app import Application
from app.webhooks import Deliverer, load_webhooks
from bench.agent_bench import fake_server_process
from bench.harness import Result, single, summarise
from bench.server_bench import QUESTION, Outcome, dispatch, failures_row, in_process
from faces.server.http import serve_http
from faces.server.server import ProtocolServer
from fakes.ollama import free_port
from history import ChatHistoryDB

MODEL = "qwen3:4b"


@dataclass
class HttpClient:
    """One keep-alive HTTP/1.1 connection, reading a response's body to its end (chunked or by length)."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter

    async def post(self, path: str, body: dict[str, object]) -> tuple[int, bytes]:
        data = json.dumps(body).encode()
        head = f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: {len(data)}"
        self.writer.write(f"{head}\r\nAuthorization: Bearer bench\r\n\r\n".encode() + data)
        await self.writer.drain()
        status = int((await self.reader.readline()).split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            return status, await self.reader.readexactly(int(headers["content-length"]))
        return status, await self._chunked()

    async def _chunked(self) -> bytes:
        body = bytearray()
        while size := int((await self.reader.readline()).strip(), 16):
            body += await self.reader.readexactly(size)
            await self.reader.readline()
        await self.reader.readline()
        return bytes(body)


async def over_api(client: HttpClient, n: int, stream: bool) -> Outcome:
    body = {"model": MODEL, "messages": [{"role": "user", "content": QUESTION}], "stream": stream,
            "metadata": {"workspace": f"api {n}"}}  # fmt: skip
    started = time.perf_counter()
    status, answer = await client.post("/v1/chat/completions", body)
    ms = (time.perf_counter() - started) * 1000
    ended = answer.endswith(b"data: [DONE]\n\n") and b'"error"' not in answer if stream else b'"stop"' in answer
    return Outcome(ms, None if status == 200 and ended else f"HTTP {status}: {answer[-200:]!r}")


async def over_protocol(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, n: int) -> Outcome:
    request = {"id": f"p{n}", "type": "dispatch", "agentID": "assistant", "content": QUESTION}
    return await dispatch(reader, writer, request)  # no sessionID: a new workspace, as the API's


async def added_latency(url: str, folder: Path, runs: int) -> list[Result]:
    agent = AIAgent(MODEL, url, "You are an engineering assistant.")
    service = Application(ChatHistoryDB(folder / "api.sqlite"), agent)
    server = ProtocolServer(service)
    host, port = await server.start("127.0.0.1", 0)
    http, _ = await serve_http(server, "127.0.0.1", 0)
    http_port = http.servers[0].sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection(host, port)
    api = HttpClient(*await asyncio.open_connection(host, http_port))
    protocol: list[Outcome] = []
    whole: list[Outcome] = []
    streamed: list[Outcome] = []
    for n in range(3):  # warm every path
        await over_protocol(reader, writer, -n - 1)
        await over_api(api, -n - 1, False)
        await over_api(api, -n - 11, True)
    for n in range(runs):  # interleaved, so that drift affects them alike
        protocol.append(await over_protocol(reader, writer, n))
        whole.append(await over_api(api, n, False))
        streamed.append(await over_api(api, runs + n, True))
    writer.close()
    api.writer.close()
    http.should_exit = True
    await server.shutdown()
    service.close()
    return latency_rows(protocol, whole, streamed)


def latency_rows(protocol: list[Outcome], whole: list[Outcome], streamed: list[Outcome]) -> list[Result]:
    rows = [failures_row("the protocol and the chat API, one turn at a time", protocol + whole + streamed),
            summarise("a turn over the protocol (TCP, NDJSON, a new workspace)", [o.ms for o in protocol], "ms",
                      "(reference)", None)]  # fmt: skip
    for name, outcomes in (("whole (chat.completion)", whole), ("streamed (server-sent events)", streamed)):
        added = statistics.median(o.ms - p.ms for o, p in zip(outcomes, protocol, strict=True))
        samples = [o.ms for o in outcomes]
        rows.append(summarise(f"the same turn over the chat API, {name}", samples, "ms", "(reference)", None))
        rows.append(single(f"chat API, {name}: added per turn (median of pairs)", added, "ms", "≤ 2 ms", added <= 2))
    return rows


class HangingReceiver:
    """A webhook receiver that accepts every connection and never answers (until it is closed)."""

    def __init__(self) -> None:
        self.port = free_port()
        self._socket = socket.create_server(("127.0.0.1", self.port), backlog=128)
        self._held: list[socket.socket] = []
        self._closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                connection, _ = self._socket.accept()
            except OSError:
                return
            self._held.append(connection)

    def close(self) -> None:
        self._closed.set()
        self._socket.close()
        for connection in self._held:
            connection.close()


async def hanging_receiver(url: str, folder: Path, runs: int) -> list[Result]:
    receiver = HangingReceiver()
    config = folder / "webhooks.yaml"
    config.write_text(f"- url: http://127.0.0.1:{receiver.port}/hook\n  events: [turn.completed]\n  secret: bench\n")
    plain = Application(ChatHistoryDB(folder / "plain.sqlite"), AIAgent(MODEL, url, "system"))
    store = ChatHistoryDB(folder / "hooked.sqlite")
    hooked = Application(store, AIAgent(MODEL, url, "system"), webhooks=Deliverer(store, load_webhooks(config)))
    hooked.webhooks.keep_delivering()  # as `serve` does: closing it leaves what is pending for the next process
    chats = plain.workspaces.create("bench").chat_id, hooked.workspaces.create("bench").chat_id
    for _ in range(3):
        await in_process(plain, chats[0])
        await in_process(hooked, chats[1])
    without: list[Outcome] = []
    with_hook: list[Outcome] = []
    for _ in range(runs):
        without.append(await in_process(plain, chats[0]))
        with_hook.append(await in_process(hooked, chats[1]))
    receiver.close()
    pending = sum(d.state == "pending" for d in hooked.webhooks.deliveries(None))
    plain.close()
    hooked.close()
    base, hung = statistics.median(o.ms for o in without), statistics.median(o.ms for o in with_hook)
    return [
        failures_row("turns beside a receiver that hangs", without + with_hook),
        summarise("a turn in-process, no webhook", [o.ms for o in without], "ms", "(reference)", None),
        summarise("the same turn told to a receiver that never answers", [o.ms for o in with_hook], "ms", "(reference)",
                  None),  # fmt: skip
        single("a receiver that hangs: ratio of medians", hung / base, "×", "≤ 1.2× or +50 ms",
               hung <= 1.2 * base or hung - base <= 50),
        single("deliveries still waiting on the receiver when it was closed", pending, "", "(reference)", None),
    ]  # fmt: skip


def run(quick: bool) -> list[Result]:
    runs = 20 if quick else 200
    with fake_server_process() as url, tempfile.TemporaryDirectory() as name:
        rows = asyncio.run(added_latency(url, Path(name), runs))
        return rows + asyncio.run(hanging_receiver(url, Path(name), runs))
