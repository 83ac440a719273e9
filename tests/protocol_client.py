"""Driving `python main.py serve` over real sockets, as another program would."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

MAIN = Path(__file__).resolve().parents[1] / "main.py"
FINAL = ("turn-completed", "sessions", "session", "session-deleted", "cancel-accepted")


@contextmanager
def running_server(
    ollama_url: str,
    folder: Path,
    *args: str,
    env: dict[str, str] | None = None,
    prefix: Sequence[str] = (),
    open_files: int | None = None,
) -> Iterator[Server]:
    """`python main.py serve` on a free port (after `prefix`, a command that runs it; with at most `open_files`
    descriptors, as a smaller machine would allow)."""

    def limit_files() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    log = tempfile.TemporaryFile("w+")  # read only when it failed; a pipe nobody reads could fill and block it
    process = subprocess.Popen(
        [*prefix, sys.executable, str(MAIN), "serve", "--port", "0", "--server", ollama_url, *args],
        cwd=folder,
        preexec_fn=limit_files,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        env={**os.environ, "EMBED_MODEL": "", **(env or {})},
    )
    assert process.stdout is not None
    http_port = None
    line = process.stdout.readline()
    if line.startswith("HTTP on "):
        http_port = int(line.split()[-1].rsplit(":", 1)[1])
        line = process.stdout.readline()
    assert line.startswith("Listening on "), (line, log.seek(0), log.read())
    host, port = line.split()[-1].rsplit(":", 1)
    server = Server(host, int(port), process, http_port, log)
    try:
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
        log.close()


class Server:
    def __init__(
        self, host: str, port: int, process: subprocess.Popen[str], http_port: int | None = None, log: Any = None
    ) -> None:
        self.host, self.port, self.process, self.http_port, self.log = host, port, process, http_port, log

    def stderr(self) -> str:
        """What the server wrote to its standard error so far."""
        self.log.seek(0)
        text: str = self.log.read()
        return text

    def connect(self) -> Client:
        return Client(socket.create_connection((self.host, self.port), timeout=30))


class Client:
    """One connection: send requests, read events (each a dict), one line each."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.file = sock.makefile("rwb")
        self.seen: list[dict[str, Any]] = []
        self.later: list[dict[str, Any]] = []

    def send(self, request: dict[str, Any] | bytes) -> None:
        self.file.write(request if isinstance(request, bytes) else json.dumps(request).encode() + b"\n")
        self.file.flush()

    def read(self) -> dict[str, Any]:
        """The next event, whichever request it belongs to (one set aside by `until_done` first)."""
        if self.later:
            return self.later.pop(0)
        return self._receive()

    def _receive(self) -> dict[str, Any]:
        line = self.file.readline()
        if not line:
            raise EOFError("the server closed the connection")
        event: dict[str, Any] = json.loads(line)
        self.seen.append(event)
        return event

    def until_done(self, request_id: str) -> list[dict[str, Any]]:
        """Events of `request_id` up to its last: a turn-completed, a reply, or an error that is the only reply.
        Other requests' events are set aside for later reads."""
        events = [e for e in self.later if e["requestID"] == request_id]
        self.later = [e for e in self.later if e["requestID"] != request_id]
        while not events or not _last(events):
            event = self._receive()
            if event["requestID"] == request_id:
                events.append(event)
            else:
                self.later.append(event)
        return events

    def request(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        self.send(request)
        return self.until_done(str(request["id"]))

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def _last(events: list[dict[str, Any]]) -> bool:
    event = events[-1]
    return event["type"] in FINAL or (event["type"] == "error" and len(events) == 1 and event["code"] != "TOOL_ERROR")
