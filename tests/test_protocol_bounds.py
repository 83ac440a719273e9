"""The protocol server beyond loopback, over real sockets: every malformed line gets an answer."""

from __future__ import annotations

import json
from typing import Any

from fakes.ollama import FakeOllama, Reply
from tests.protocol_client import running_server

ASK = {"type": "dispatch", "agentID": "assistant"}


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
