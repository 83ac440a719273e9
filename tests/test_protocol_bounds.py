"""The protocol server beyond loopback, over real sockets: request ids are their connection's own, a client holds
nothing before it sends a request that counts (size, token, connections, time), every malformed line gets an
answer, and a dispatch ends with `turn-completed` even when its turn cannot be stored."""

from __future__ import annotations

import json
import socket
import threading
from typing import Any

import pytest

from fakes.ollama import FakeOllama, Hang, Reply, is_summary_request
from tests.protocol_client import Client, Server, running_server

ASK = {"type": "dispatch", "agentID": "assistant"}


def hanging_answers(fake: FakeOllama) -> None:
    """Every question gets some text, then nothing until it is cancelled; summaries get a reply."""
    fake.responder = lambda body: (
        Reply.text("Summary.") if is_summary_request(body) else Reply.then("Part of the answer", Hang(60))
    )


def started_and_streaming(client: Client, request_id: str) -> None:
    client.send({**ASK, "id": request_id, "content": f"Question from {request_id}"})
    while not any(e["requestID"] == request_id and e["type"] == "response-chunk" for e in client.seen):
        client.later.append(client._receive())


def closed_with(sock: socket.socket) -> list[dict[str, Any]]:
    """The lines the server wrote before it closed the connection (a read error counts as closed)."""
    received = b""
    sock.settimeout(30)
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return [json.loads(line) for line in received.splitlines()]


def test_cancel_reaches_only_the_dispatches_of_its_own_connection(fake_ollama: FakeOllama, isolated: Any) -> None:
    hanging_answers(fake_ollama)
    with running_server(fake_ollama.url, isolated) as server:
        first, second, stranger = server.connect(), server.connect(), server.connect()
        started_and_streaming(first, "job-1")
        started_and_streaming(second, "job-1")  # the same id on another connection is another dispatch
        guessed = stranger.request({"id": "c", "type": "cancel", "requestID": "job-1"})
        assert guessed[0]["code"] == "INVALID_REQUEST" and "of this connection" in guessed[0]["message"]
        first.send({**ASK, "id": "job-1", "content": "Same id while it runs"})
        while (again := first._receive())["type"] != "error":
            first.later.append(again)
        assert again["code"] == "INVALID_REQUEST" and "already in progress" in again["message"]
        assert first.request({"id": "c1", "type": "cancel", "requestID": "job-1"})[0]["type"] == "cancel-accepted"
        assert first.until_done("job-1")[-1]["stopReason"] == "cancelled"
        assert not any(e["type"] == "turn-completed" for e in second.seen + second.later), "the other job-1 runs on"
        assert second.request({"id": "c2", "type": "cancel", "requestID": "job-1"})[0]["type"] == "cancel-accepted"
        assert second.until_done("job-1")[-1]["stopReason"] == "cancelled"


def test_malformed_values_are_invalid_requests_with_a_sentence(fake_ollama: FakeOllama, isolated: Any) -> None:
    fake_ollama.responder = lambda body: Reply.text("Summary.")
    nested = b"[" * 200_000 + b"]" * 200_000
    lines = [
        nested,  # json.loads gives up on it (RecursionError)
        b'{"id": "deep", "type": "list-sessions", "x": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
        b'{"id": ' + b"7" * 5000 + b', "type": "list-sessions"}',  # beyond Python's integer conversion limit
        b'{"id": "\\ud800", "type": "list-sessions"}',  # a lone surrogate: not text
        b'{"id": "tok", "type": "list-sessions", "agentID": ["assistant"]}',
    ]
    for session in ["²", "9" * 5000, str(2**63), 2**64, -1, "abc", [1], 1.5]:
        lines.append(json.dumps({"id": "s", "type": "get-session", "sessionID": session}).encode())
        lines.append(json.dumps({**ASK, "id": "d", "sessionID": session, "content": "x"}).encode())
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        for line in lines:
            client.send(line + b"\n")
            reply = client.read()
            assert (reply["type"], reply["code"], reply["recoverable"]) == ("error", "INVALID_REQUEST", True), (
                line[:60],
                reply,
            )
            assert "see its log" not in reply["message"] and len(reply["message"]) < 400
        assert client.request({"id": "ok", "type": "list-sessions"})[0]["type"] == "sessions"
        assert server.process.poll() is None
    assert fake_ollama.chat_requests == []


def test_idle_connections_never_lock_out_a_new_client(fake_ollama: FakeOllama, isolated: Any) -> None:
    """With 256 descriptors (a small machine's limit), 400 idle connections once left no room for anyone."""
    with running_server(fake_ollama.url, isolated, open_files=256) as server:
        idle = [socket.create_connection((server.host, server.port), timeout=30) for _ in range(400)]
        newcomer = server.connect()
        assert newcomer.request({"id": "l", "type": "list-sessions"})[0]["type"] == "sessions"
        made_room = closed_with(idle[0])  # the longest idle made room, and was told why
        assert made_room and made_room[0]["code"] == "TIMEOUT" and "make room" in made_room[0]["message"]
        for sock in idle:
            sock.close()


def test_a_busy_connection_is_kept_and_a_newcomer_refused_in_a_sentence(fake_ollama: FakeOllama, isolated: Any) -> None:
    hanging_answers(fake_ollama)
    with running_server(fake_ollama.url, isolated, "--max-connections-per-address", "2") as server:
        busy = [server.connect(), server.connect()]
        for n, client in enumerate(busy):
            started_and_streaming(client, f"b{n}")
        refused = socket.create_connection((server.host, server.port), timeout=30)
        (refusal,) = closed_with(refused)
        assert refusal["code"] == "INVALID_REQUEST" and "2 connections open" in refusal["message"]
        for n, client in enumerate(busy):
            assert client.request({"id": f"c{n}", "type": "cancel", "requestID": f"b{n}"})[0]["type"] == (
                "cancel-accepted"
            )


def test_half_sent_and_idle_connections_are_closed_but_a_long_turn_is_not(
    fake_ollama: FakeOllama, isolated: Any
) -> None:
    fake_ollama.responder = lambda body: (
        Reply.text("Summary.") if is_summary_request(body) else Reply.slow("Slow but sure.", 1.0, pieces=3)
    )
    with running_server(fake_ollama.url, isolated, "--line-seconds", "1", "--idle-seconds", "2") as server:
        half = socket.create_connection((server.host, server.port), timeout=30)
        half.sendall(b'{"id": "h", "type": "list-sessions", "content": "' + b"x" * 500_000)
        idle = socket.create_connection((server.host, server.port), timeout=30)
        talker = server.connect()
        events = talker.request({**ASK, "id": "long", "content": "Take your time"})  # 3 s, past idle-seconds
        assert events[-1]["content"] == "Slow but sure."
        (timed_out,) = closed_with(half)
        assert timed_out["code"] == "TIMEOUT" and "did not arrive whole within 1 s" in timed_out["message"]
        (idled,) = closed_with(idle)
        assert idled["code"] == "TIMEOUT" and "idle for 2 s" in idled["message"]


def _http(server: Server, head: str, body: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.http_port or 0), timeout=30)
    sock.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
    return sock


def _status(sock: socket.socket) -> int:
    sock.settimeout(30)
    return int(sock.recv(65536).split(b" ", 2)[1])


def test_http_checks_size_and_token_before_the_body_and_bounds_its_time(fake_ollama: FakeOllama, isolated: Any) -> None:
    args = ("--http-port", "0", "--token", "t0k", "--line-seconds", "1")
    with running_server(fake_ollama.url, isolated, *args) as server:
        huge = _http(server, "POST /v1/dispatch HTTP/1.1\nHost: x\nContent-Length: 629145600\n")
        assert _status(huge) == 413, "refused on its declared size, before any of the 600 MiB is sent"
        wrong = _http(server, "POST /v1/dispatch HTTP/1.1\nHost: x\nAuthorization: Bearer no\nContent-Length: 9000\n")
        assert _status(wrong) == 401, "refused on its token, before the body is sent"
        chunked = _http(server, "POST /v1/dispatch HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n")
        for _ in range(20):  # 1.25 MiB in pieces, with no size declared
            chunked.sendall(b"10000\r\n" + b"x" * 0x10000 + b"\r\n")
        assert _status(chunked) == 413
        slow = _http(server, "POST /v1/dispatch HTTP/1.1\nHost: x\nContent-Length: 100\n", b'{"id": ')
        assert _status(slow) == 408
        half = socket.create_connection(("127.0.0.1", server.http_port or 0), timeout=30)
        half.sendall(b"POST /v1/dispatch HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        assert closed_with(half) == [], "half-sent headers are closed after --line-seconds"
        body = json.dumps({"id": "s", "type": "list-sessions"}).encode()
        head = f"POST /v1/dispatch HTTP/1.1\nHost: x\nAuthorization: Bearer t0k\nContent-Length: {len(body)}\n"
        right = _http(server, head, body)
        assert _status(right) == 200


def test_idle_http_connections_never_lock_out_a_new_client(fake_ollama: FakeOllama, isolated: Any) -> None:
    with running_server(fake_ollama.url, isolated, "--http-port", "0", open_files=256) as server:
        idle = [socket.create_connection(("127.0.0.1", server.http_port or 0), timeout=30) for _ in range(400)]
        listing = _http(server, "GET /v1/sessions HTTP/1.1\nHost: x\nConnection: close\n")
        assert _status(listing) == 200
        for sock in idle:
            sock.close()


def test_a_turn_the_full_disk_cannot_store_still_ends_with_turn_completed(
    fake_ollama: FakeOllama, isolated: Any
) -> None:
    """The chat history on a 4 MB tmpfs of the server's own (a mount namespace), filled while the turn runs."""
    import shutil
    import subprocess

    disk = isolated / "small-disk"
    disk.mkdir()
    mount = ["unshare", "-rm", "sh", "-c", 'mount -t tmpfs -o size=4m tmpfs "$0" && exec "$@"', str(disk)]
    if shutil.which("unshare") is None or subprocess.run([*mount, "true"], capture_output=True).returncode != 0:
        pytest.skip("this machine cannot mount a small tmpfs in a user namespace (unshare -rm)")
    filled, answering = threading.Event(), threading.Event()

    def answer(body: dict[str, Any]) -> Reply:
        if is_summary_request(body):
            return Reply.text("Summary.")
        if body["messages"][-1]["content"] == "Now the long one":
            answering.set()  # the question is stored: the model is asked only after it
            filled.wait(30)  # the disk fills while the model is answering
        return Reply.text("An answer the disk has no room for.")

    fake_ollama.responder = answer
    with running_server(fake_ollama.url, isolated, "--db", str(disk / "history.sqlite"), prefix=mount) as server:
        client = server.connect()
        client.request({**ASK, "id": "first", "content": "Open a session"})
        client.send({**ASK, "id": "full", "sessionID": "1", "content": "Now the long one"})
        assert answering.wait(60), "the model was never asked"
        filler = f"/proc/{server.process.pid}/root{disk}/filler"
        with open(filler, "wb", buffering=0) as stuffing, pytest.raises(OSError, match="No space left"):
            while True:
                stuffing.write(b"\0" * 65536)
        filled.set()
        events = client.until_done("full")
        assert [e["type"] for e in events[-2:]] == ["error", "turn-completed"]
        assert events[-2]["code"] == "INTERNAL_ERROR" and "full" in events[-2]["message"]
        done = events[-1]
        assert (done["stopReason"], done["storedTurnID"]) == ("error", None)
        assert done["content"] == "An answer the disk has no room for."
        assert client.request({"id": "l", "type": "list-sessions"})[0]["sessions"][0]["turns"] == 1
