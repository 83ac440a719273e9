"""The protocol server (`python main.py serve`) over real sockets, against the loopback fake Ollama."""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from fakes.ollama import FakeOllama, Hang, Reply, free_port, is_summary_request, wait_until
from history import ChatHistoryDB
from tests.protocol_client import running_server

ASK = {"type": "dispatch", "agentID": "assistant"}


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def collapse(kinds: list[str]) -> list[str]:
    """Consecutive response-chunks as one."""
    return [k for i, k in enumerate(kinds) if not (k == "response-chunk" and i and kinds[i - 1] == k)]


def answer_summaries(fake: FakeOllama) -> None:
    """The digital twin asked for when a client hangs up gets a reply, never one of the script's, which the
    other requests follow."""
    fake.summary_reply = Reply.text("Summary.")
    fake.responder = lambda body: Reply.text("(unscripted)")


def test_a_plain_turn_and_a_tool_turn_in_order(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("Hello there."), Reply.tool_calls(("add", {"a": 2, "b": 3})), Reply.text("It is 5."))
    answer_summaries(fake_ollama)
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        plain = client.request({**ASK, "id": "r1", "content": "Hi"})
        assert collapse(types(plain)) == ["turn-started", "response-chunk", "turn-completed"]
        started, done = plain[0], plain[-1]
        assert started["agentID"] == "assistant" and started["sessionID"] == done["sessionID"] == "1"
        assert done["turnID"] == started["turnID"] and done["content"] == "Hello there."
        assert done["stopReason"] == "end_turn" and done["usage"]["totalTokens"] > 0
        assert all(isinstance(e["timestamp"], int) and e["requestID"] == "r1" for e in plain)
        tools = client.request({**ASK, "id": "r2", "sessionID": "1", "content": "2+3?"})
        assert collapse(types(tools)) == [
            "turn-started",
            "tool-call",
            "tool-result",
            "response-chunk",
            "turn-completed",
        ]
        call, result, done = tools[1], tools[2], tools[-1]
        assert (call["name"], call["input"], call["toolID"]) == ("add", {"a": 2, "b": 3}, result["toolID"])
        assert result["output"] == "5.0" and isinstance(result["duration"], int) and "error" not in result
        assert done["toolCalls"] == [{"id": "call_1", "name": "add", "input": {"a": 2, "b": 3}, "output": "5.0"}]
        assert done["stopReason"] == "end_turn"


def test_a_persistent_connection_continues_the_history(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("The span is 6 m."), Reply.text("wL²/8 = 54 kN·m."))
    answer_summaries(fake_ollama)
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        first = client.request({**ASK, "id": "a", "content": "Beam B1 spans 6 m under 12 kN/m."})
        session = first[-1]["sessionID"]
        client.request({**ASK, "id": "b", "sessionID": int(session), "content": "Its moment?"})  # a number is accepted
        sent = [m["content"] for m in fake_ollama.chat_requests[-1]["messages"]]
        assert "Beam B1 spans 6 m under 12 kN/m." in sent and "The span is 6 m." in sent
        listing = client.request({"id": "l", "type": "list-sessions"})[0]["sessions"]
        assert [(s["sessionID"], s["turns"]) for s in listing] == [(session, 2)]


def test_bad_lines_are_answered_and_the_connection_goes_on(fake_ollama: FakeOllama, isolated: Path) -> None:
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        cases: list[tuple[bytes, str | None, str]] = [
            (b"this is not json\n", None, "INVALID_REQUEST"),
            (b'{"id": "n1"}\n', "n1", "INVALID_REQUEST"),
            (b'{"id": "n2", "type": "shout"}\n', "n2", "INVALID_REQUEST"),
            (b'{"id": "n3", "type": "dispatch", "agentID": "assistant"}\n', "n3", "INVALID_REQUEST"),
            (b'{"id": "n4", "type": "dispatch", "agentID": "architect", "content": "x"}\n', "n4", "AGENT_NOT_FOUND"),
            (b'{"id": "n5", "type": "dispatch", "agentID": "assistant", "sessionID": "42", "content": "x"}\n', "n5",
             "SESSION_NOT_FOUND"),
        ]  # fmt: skip
        for line, request_id, code in cases:
            client.send(line)
            error = client.read()
            assert (error["type"], error["requestID"], error["code"], error["recoverable"]) == (
                "error", request_id, code, True,
            ), line  # fmt: skip
        assert client.request({"id": "ok", "type": "list-sessions"})[0]["sessions"] == []
        assert fake_ollama.chat_requests == [], "no refused dispatch reached the model"
        assert ChatHistoryDB(isolated / "chat_history.sqlite").list_chats() == [], "nor created a workspace"
        big = {**ASK, "id": "big", "content": "x" * (1024 * 1024 - 200)}
        read = client.request(big)  # just under 1 MiB is read; the question is then too long for the model
        assert types(read) == ["turn-started", "error", "turn-completed"]
        assert read[1]["details"]["kind"] == "CONTEXT_OVERFLOW" and read[-1]["stopReason"] == "error"
        client.send(b'{"id": "huge", "content": "' + b"x" * (1024 * 1024 + 10) + b'"}\n')
        error = client.read()
        assert (error["code"], error["recoverable"]) == ("INVALID_REQUEST", False)
        with pytest.raises((EOFError, ConnectionError)):
            client.read()
        assert server.connect().request({"id": "again", "type": "list-sessions"})[0]["type"] == "sessions"


def test_concurrent_clients_get_their_own_answers(fake_ollama: FakeOllama, isolated: Path) -> None:
    def echo(body: dict[str, Any]) -> Reply:
        if is_summary_request(body):
            return Reply.text("Summary.")
        question = body["messages"][-1]["content"]
        return Reply.slow(f"Answer to {question}.", 0.05, pieces=4)

    fake_ollama.responder = echo
    answers: dict[int, list[dict[str, Any]]] = {}
    with running_server(fake_ollama.url, isolated) as server:

        def ask(n: int) -> None:
            client = server.connect()
            client.send({**ASK, "id": f"q{n}", "content": f"question {n}"})
            client.send({**ASK, "id": f"q{n}b", "content": f"question {n}b"})  # two in flight on one connection
            answers[n] = client.until_done(f"q{n}") + client.until_done(f"q{n}b")
            client.close()

        threads = [threading.Thread(target=ask, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    for n, events in answers.items():
        finals = [e for e in events if e["type"] == "turn-completed"]
        assert sorted(e["content"] for e in finals) == [f"Answer to question {n}.", f"Answer to question {n}b."]
        for final in finals:
            chunks = "".join(
                e["delta"] for e in events if e["type"] == "response-chunk" and e["requestID"] == final["requestID"]
            )
            assert chunks == final["content"], "no other request's words in this one's chunks"
    assert len(answers) == 6
    assert len(ChatHistoryDB(isolated / "chat_history.sqlite").list_chats()) == 12


def test_cancel_stops_the_turn_and_keeps_what_arrived(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.then("Part of the", Hang(30)))
    answer_summaries(fake_ollama)
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        client.send({**ASK, "id": "long", "content": "Tell me everything."})
        while client.read()["type"] != "response-chunk":
            pass
        client.send({"id": "stop", "type": "cancel", "requestID": "long"})
        events = client.until_done("long")
        assert events[-1]["stopReason"] == "cancelled" and events[-1]["content"].startswith("Part of the")
        assert any(e["type"] == "cancel-accepted" and e["requestID"] == "stop" for e in client.seen)
        turns = client.request({"id": "g", "type": "get-session", "sessionID": "1"})[0]["turns"]
        assert turns[0]["status"] == "stopped"
        unknown = client.request({"id": "c2", "type": "cancel", "requestID": "nothing"})[0]
        assert unknown["code"] == "INVALID_REQUEST"


def test_session_requests(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.tool_calls(("add", {"a": 1, "b": 1})), Reply.text("Two."))
    answer_summaries(fake_ollama)
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        client.request({**ASK, "id": "d", "content": "1+1?", "files": ["calcs.md"]})
        session = client.request({"id": "g", "type": "get-session", "sessionID": "1"})[0]
        assert (session["sessionID"], session["name"]) == ("1", "1+1?")
        (turn,) = session["turns"]
        assert turn["request"]["content"].startswith("1+1?") and "calcs.md" in turn["request"]["content"]
        assert turn["response"] == {"content": "Two."} and turn["toolCalls"][0]["output"] == "2.0"
        assert set(turn["usage"]) == {"inputTokens", "outputTokens", "totalTokens"} and isinstance(
            turn["timestamp"], int
        )
        assert client.request({"id": "x", "type": "delete-session", "sessionID": "1"})[0] == {
            **client.seen[-1], "type": "session-deleted", "sessionID": "1",
        }  # fmt: skip
        assert client.request({"id": "g2", "type": "get-session", "sessionID": "1"})[0]["code"] == "SESSION_NOT_FOUND"
        assert client.request({"id": "l", "type": "list-sessions", "agentID": "nobody"})[0]["code"] == "AGENT_NOT_FOUND"
        assert client.request({"id": "l2", "type": "list-sessions", "agentID": "steel-designer"})[0]["sessions"] == []


def test_ollama_down_is_a_provider_error_then_the_turn_ends(isolated: Path) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    with running_server(nowhere, isolated) as server:
        events = server.connect().request({**ASK, "id": "r", "content": "Anyone there?"})
    assert types(events) == ["turn-started", "error", "turn-completed"]
    error = events[1]
    assert (error["code"], error["details"]["kind"], error["recoverable"]) == (
        "PROVIDER_ERROR",
        "PROVIDER_UNAVAILABLE",
        True,
    )
    assert events[-1]["stopReason"] == "error"


def test_a_token_is_required_of_every_request(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("Authorised."))
    answer_summaries(fake_ollama)
    with running_server(fake_ollama.url, isolated, "--token", "s3cret") as server:
        client = server.connect()
        for request in ({**ASK, "id": "a", "content": "x"}, {"id": "b", "type": "list-sessions", "token": "wrong"}):
            assert client.request(request)[0]["code"] == "UNAUTHORIZED"
        assert fake_ollama.chat_requests == []
        assert client.request({**ASK, "id": "c", "content": "x", "token": "s3cret"})[-1]["content"] == "Authorised."


def test_a_public_address_without_a_token_refuses_to_start(fake_ollama: FakeOllama, isolated: Path) -> None:
    import subprocess
    import sys

    from tests.protocol_client import MAIN

    result = subprocess.run(
        [sys.executable, str(MAIN), "serve", "--host", "0.0.0.0", "--server", fake_ollama.url],
        capture_output=True, text=True, timeout=30, cwd=isolated,
    )  # fmt: skip
    assert result.returncode == 2 and "Refusing to listen on 0.0.0.0 without --token" in result.stderr


def test_a_client_that_vanishes_mid_turn_leaves_the_turn_stored(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.slow("Finished without you.", 0.3))
    answer_summaries(fake_ollama)
    store = isolated / "chat_history.sqlite"
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        client.send({**ASK, "id": "gone", "content": "Long one"})
        assert client.read()["type"] == "turn-started"
        client.close()
        assert wait_until(lambda: bool(ChatHistoryDB(store).get_turns(1)), timeout=20)
        (turn,) = ChatHistoryDB(store).get_turns(1)
        assert (turn.status, turn.assistant) == ("complete", "Finished without you.")
        assert server.connect().request({"id": "l", "type": "list-sessions"})[0]["sessions"][0]["turns"] == 1


def test_sigterm_with_a_turn_in_flight_stores_it_and_exits_cleanly(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.then("Half an answer", Hang(60)))
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        client.send({**ASK, "id": "t", "content": "Think long."})
        shown = ""
        while shown != "Half an answer":  # every piece that comes before the model goes quiet
            event = client.read()
            shown += event["delta"] if event["type"] == "response-chunk" else ""
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        events = client.until_done("t")
        assert server.process.wait(timeout=45) == 0 and time.monotonic() - started < 45, "not the model's 60 s"
    assert events[-1]["stopReason"] == "cancelled"
    (turn,) = ChatHistoryDB(isolated / "chat_history.sqlite").get_turns(1)
    assert (turn.status, turn.assistant) == ("stopped", "Half an answer")


def test_the_example_client_asks_and_lists(fake_ollama: FakeOllama, isolated: Path) -> None:
    import subprocess
    import sys

    example = Path(__file__).resolve().parents[1] / "examples" / "client.py"
    fake_ollama.script(Reply.tool_calls(("add", {"a": 2, "b": 3})), Reply.text("It is 5."))
    answer_summaries(fake_ollama)
    with running_server(fake_ollama.url, isolated) as server:
        port = str(server.port)
        asked = subprocess.run([sys.executable, str(example), "--port", port, "2+3?"], capture_output=True, text=True)
        listed = subprocess.run(
            [sys.executable, str(example), "--port", port, "--list"], capture_output=True, text=True
        )
        refused = subprocess.run(
            [sys.executable, str(example), "--port", port, "--session", "99", "hi"], capture_output=True, text=True
        )
    assert asked.returncode == 0 and asked.stdout.startswith("It is 5.") and "(session 1 · end_turn" in asked.stdout
    assert '→ add({"a": 2, "b": 3})' in asked.stderr and "= 5.0" in asked.stderr
    assert "1 turns  2+3?" in listed.stdout
    assert refused.returncode == 1 and "[SESSION_NOT_FOUND] there is no session 99" in refused.stderr


def test_file_edits_follow_the_consent_setting(fake_ollama: FakeOllama, isolated: Path) -> None:
    (isolated / "workspace").mkdir()
    notes = isolated / "workspace" / "notes.md"
    notes.write_text("old\n")
    edit = ("edit_file", {"path": "notes.md", "old_text": "old", "new_text": "new"})
    fake_ollama.script(Reply.tool_calls(edit), Reply.text("I could not."), Reply.tool_calls(edit), Reply.text("Done."))
    answer_summaries(fake_ollama)
    with running_server(fake_ollama.url, isolated) as server:  # FILE_EDITS=confirm, the default
        events = server.connect().request({**ASK, "id": "e", "content": "Change notes.md"})
    refused = [e for e in events if e["type"] == "error"]
    assert refused and refused[0]["code"] == "TOOL_ERROR" and "approval" in refused[0]["message"]
    assert events[-1]["stopReason"] == "end_turn" and notes.read_text() == "old\n"
    with running_server(fake_ollama.url, isolated, env={"FILE_EDITS": "auto"}) as server:
        events = server.connect().request({**ASK, "id": "f", "content": "Change notes.md"})
    assert not [e for e in events if e["type"] == "error"] and notes.read_text() == "new\n"


def test_the_same_protocol_over_http(fake_ollama: FakeOllama, isolated: Path) -> None:
    import urllib.error
    import urllib.request

    fake_ollama.script(Reply.tool_calls(("add", {"a": 2, "b": 3})), Reply.text("It is 5."))
    answer_summaries(fake_ollama)
    with running_server(fake_ollama.url, isolated, "--http-port", "0", "--token", "t0k") as server:
        base = f"http://127.0.0.1:{server.http_port}"
        body = json.dumps({**ASK, "id": "h1", "content": "2+3?", "token": "t0k"}).encode()
        with urllib.request.urlopen(urllib.request.Request(f"{base}/v1/dispatch", data=body), timeout=30) as answer:
            assert answer.headers["Content-Type"].startswith("application/x-ndjson")
            events = [json.loads(line) for line in answer.read().splitlines()]
        assert collapse(types(events)) == [
            "turn-started",
            "tool-call",
            "tool-result",
            "response-chunk",
            "turn-completed",
        ]
        assert events[-1]["content"] == "It is 5." and all(e["requestID"] == "h1" for e in events)
        listing = urllib.request.Request(f"{base}/v1/sessions", headers={"Authorization": "Bearer t0k"})
        with urllib.request.urlopen(listing, timeout=30) as answer:
            assert [s["sessionID"] for s in json.loads(answer.read())["sessions"]] == ["1"]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/v1/sessions", timeout=30)
        assert refused.value.code == 401
        unauthorised = json.dumps({**ASK, "id": "h2", "content": "x"}).encode()
        with urllib.request.urlopen(
            urllib.request.Request(f"{base}/v1/dispatch", data=unauthorised), timeout=30
        ) as answer:
            assert json.loads(answer.read())["code"] == "UNAUTHORIZED"


def test_a_second_dispatch_to_a_busy_session_waits_its_turn(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("First."), Reply.slow("Slow first.", 0.2), Reply.text("Second."))
    answer_summaries(fake_ollama)
    with running_server(fake_ollama.url, isolated) as server:
        client = server.connect()
        client.request({**ASK, "id": "a", "content": "Open a session"})
        client.send({**ASK, "id": "b", "sessionID": "1", "content": "Long"})
        client.send({**ASK, "id": "c", "sessionID": "1", "content": "Then this"})
        b, c = client.until_done("b"), client.until_done("c")
    order = sorted(b + c, key=lambda e: (e["timestamp"], 0 if e["requestID"] == "b" else 1))
    done_b = next(i for i, e in enumerate(order) if e["type"] == "turn-completed" and e["requestID"] == "b")
    start_c = next(i for i, e in enumerate(order) if e["type"] == "turn-started" and e["requestID"] == "c")
    assert done_b < start_c and c[-1]["content"] == "Second."
    asked = [r for r in fake_ollama.chat_requests if r["messages"][-1]["content"] == "Then this"]
    questions = [m["content"] for m in asked[0]["messages"] if m["role"] == "user"]
    assert questions[-2:] == ["Long", "Then this"], "the second turn saw the first one's question"


def test_a_request_id_is_free_again_once_its_turn_completed(fake_ollama: FakeOllama, isolated: Path) -> None:
    """A client that reuses its dispatch's id as soon as `turn-completed` came is served, also on the turn that
    queues the workspace's summary (SUMMARY_EVERY_TURNS, here 2): nothing of a turn runs after its last event."""
    answer_summaries(fake_ollama)
    fake_ollama.responder = lambda body: Reply.text("Noted.")
    with running_server(fake_ollama.url, isolated, env={"SUMMARY_EVERY_TURNS": "2"}) as server:
        client = server.connect()
        session = client.request({**ASK, "id": "t", "content": "Beam B1 spans 6 m."})[-1]["sessionID"]
        for number in range(4):
            client.send({**ASK, "id": "t", "sessionID": session, "content": f"And {number}?"})
            reply = client.until_done("t")
            assert reply[-1]["type"] == "turn-completed", reply[-1]
        summarised = lambda: any(is_summary_request(body) for body in fake_ollama.chat_requests)  # noqa: E731
        assert wait_until(summarised, 20), "the summary was queued after its turn"
