"""The OpenAI-compatible chat API of `python main.py serve --http-port`, driven by the official `openai` client over
real sockets (and by plain HTTP, as `curl` would), against the loopback fake Ollama."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import openai
import pytest
from openai.types.chat import ChatCompletionMessageParam

from fakes.ollama import FakeOllama, Gate, Reply, free_port, wait_until
from history import ChatHistoryDB
from tests.package_helpers import STEEL, STEEL_QUESTION
from tests.protocol_client import Server, running_server

ASK: list[ChatCompletionMessageParam] = [{"role": "user", "content": "Convert 50 ksi to MPa"}]


def client(server: Server, key: str = "none") -> openai.OpenAI:
    return openai.OpenAI(base_url=f"http://127.0.0.1:{server.http_port}/v1", api_key=key, max_retries=0)


def store(folder: Path) -> ChatHistoryDB:
    return ChatHistoryDB(folder / "chat_history.sqlite")


def post(server: Server, path: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    """A plain HTTP request, as `curl` sends it: (status, content type, body)."""
    request = urllib.request.Request(f"http://127.0.0.1:{server.http_port}{path}", data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def test_the_models_are_the_chat_models_only(isolated: Path) -> None:
    with (
        FakeOllama(models=("qwen3:4b", "llama3.2:3b", "nomic-embed-text")) as fake,
        running_server(fake.url, isolated, "--http-port", "0") as server,
    ):
        listing = client(server).models.list()
    assert sorted(model.id for model in listing.data) == ["llama3.2:3b", "qwen3:4b"]
    assert all(model.object == "model" and isinstance(model.created, int) and model.owned_by for model in listing.data)


def test_a_question_answered_whole_and_streamed(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("It is 344.7 MPa."), Reply.text("Streamed: 344.7 MPa.", pieces=5))
    with running_server(fake_ollama.url, isolated, "--http-port", "0") as server:
        whole = client(server).chat.completions.create(model="qwen3:4b", messages=ASK)
        chunks = list(client(server).chat.completions.create(model="qwen3:4b", messages=ASK, stream=True))
    assert whole.object == "chat.completion" and whole.model == "qwen3:4b"
    choice = whole.choices[0]
    assert (choice.message.role, choice.message.content, choice.finish_reason) == ("assistant", "It is 344.7 MPa.",
                                                                                    "stop")  # fmt: skip
    assert whole.usage is not None and whole.usage.prompt_tokens > 0 and whole.usage.completion_tokens > 0
    assert whole.usage.total_tokens == whole.usage.prompt_tokens + whole.usage.completion_tokens
    assert all(chunk.object == "chat.completion.chunk" and chunk.model == "qwen3:4b" for chunk in chunks)
    assert "".join(chunk.choices[0].delta.content or "" for chunk in chunks) == "Streamed: 344.7 MPa."
    assert len(chunks) > 3 and chunks[-1].choices[0].finish_reason == "stop"
    assert [chunk.choices[0].finish_reason for chunk in chunks[:-1]] == [None] * (len(chunks) - 1)
    db = store(isolated)
    (chat,) = db.recent_chats()
    assert chat.chat_name == "API", "with no metadata, the turns go to a workspace named API"
    assert [(turn.user, turn.assistant) for turn in db.get_turns(chat.chat_id)] == [
        ("Convert 50 ksi to MPa", "It is 344.7 MPa."), ("Convert 50 ksi to MPa", "Streamed: 344.7 MPa."),
    ]  # fmt: skip


def test_the_stream_is_server_sent_events_ending_with_done(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("Five."))
    body = {"model": "qwen3:4b", "messages": ASK, "stream": True, "stream_options": {"include_usage": True}}
    with running_server(fake_ollama.url, isolated, "--http-port", "0") as server:
        status, kind, raw = post(server, "/v1/chat/completions", json.dumps(body).encode())
    assert status == 200 and kind.startswith("text/event-stream")
    events = raw.decode().split("\n\n")
    assert events[-2:] == ["data: [DONE]", ""] and all(event.startswith("data: ") for event in events[:-1])
    chunks = [json.loads(event.removeprefix("data: ")) for event in events[:-2]]
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert chunks[-2]["choices"][0]["finish_reason"] == "stop" and chunks[-2]["choices"][0]["delta"] == {}
    usage = chunks[-1]["usage"]
    assert chunks[-1]["choices"] == [] and usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_the_server_runs_its_tools_and_the_answer_carries_their_results(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake_ollama.script(
        Reply.tool_calls(("add", {"a": 2, "b": 3})), Reply.text("It is 5."),
        Reply.tool_calls(STEEL), Reply.text("No: it fails."),
    )  # fmt: skip
    with running_server(fake_ollama.url, isolated, "--http-port", "0") as server:
        added = client(server).chat.completions.create(model="qwen3:4b", messages=[{"role": "user", "content": "2+3?"}])
        stream = client(server).chat.completions.create(
            model="qwen3:4b", messages=[{"role": "user", "content": STEEL_QUESTION}], stream=True
        )
        checked = "".join(chunk.choices[0].delta.content or "" for chunk in stream)
    assert added.choices[0].message.content == "**Tool** `add(a=2, b=3)` → 5.0\n\nIt is 5."
    assert checked.startswith("**Tool** `steel_beam_check(designation='W12x26'") and checked.endswith("No: it fails.")
    assert "**Checks**" in checked and "**Verdict:** NG" in checked, "the calculation as the report lays it out"
    (turn,) = [turn for turn in store(isolated).get_turns(1) if turn.tool_calls and turn.tool_calls[0].name == "add"]
    assert (turn.assistant, turn.tool_calls[0].output) == ("It is 5.", "5.0"), "stored as every face stores a turn"


def test_the_requested_model_with_the_client_s_conversation(isolated: Path) -> None:
    messages: list[Any] = [
        {"role": "system", "content": "Answer in SI units only."},
        {"role": "user", "content": "Beam B1 spans 6 m under 12 kN/m."},
        {"role": "assistant", "content": "Noted: B1, 6 m, 12 kN/m."},
        {"role": "user", "content": [{"type": "text", "text": "Its moment?"}]},
    ]
    with (
        FakeOllama(models=("qwen3:4b", "llama3.2:3b")) as fake,
        running_server(fake.url, isolated, "--http-port", "0") as server,
    ):
        fake.script(Reply.text("wL²/8 = 54 kN·m."))
        answer = client(server).chat.completions.create(model="llama3.2:3b", messages=messages)
        sent = fake.chat_requests[-1]
    assert answer.model == "llama3.2:3b" and sent["model"] == "llama3.2:3b"
    said = [(m["role"], m["content"]) for m in sent["messages"]]
    assert ("user", "Beam B1 spans 6 m under 12 kN/m.") in said and ("assistant", "Noted: B1, 6 m, 12 kN/m.") in said
    assert said[-1] == ("user", "Its moment?") and "Answer in SI units only." in said[0][1]
    db = store(isolated)
    (turn,) = db.get_turns(db.recent_chats()[0].chat_id)
    assert (turn.user, turn.model) == ("Its moment?", "llama3.2:3b"), "the question is stored alone"


def test_the_named_workspace_is_made_once_and_used_again(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.responder = lambda body: Reply.text("Answered.")
    with running_server(fake_ollama.url, isolated, "--http-port", "0") as server:
        for name in ("Footbridge", "Footbridge", "footbridge", "Footbridge"):
            client(server).chat.completions.create(model="qwen3:4b", messages=ASK, metadata={"workspace": name})
    counts = {chat.chat_name: store(isolated).count_turns(chat.chat_id) for chat in store(isolated).recent_chats()}
    assert counts == {"Footbridge": 3, "footbridge": 1}, "named exactly; no API workspace was made"


def test_refusals_have_openai_s_error_shape_and_reach_nothing(fake_ollama: FakeOllama, isolated: Path) -> None:
    tool = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
    cases: list[tuple[dict[str, Any], type[openai.APIStatusError], str]] = [
        ({"messages": ASK, "tools": [tool]}, openai.BadRequestError, "tools_not_supported"),
        ({"messages": [*ASK, {"role": "tool", "content": "5", "tool_call_id": "c"}]}, openai.BadRequestError,
         "tools_not_supported"),
        ({"messages": [*ASK, {"role": "assistant", "content": "Hm."}]}, openai.BadRequestError, "invalid_messages"),
        ({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]},
         openai.BadRequestError, "invalid_content"),
        ({"messages": ASK, "model": "gpt-4o"}, openai.NotFoundError, "model_not_found"),
    ]  # fmt: skip
    with running_server(fake_ollama.url, isolated, "--http-port", "0", "--token", "T") as server:
        for given, error, code in cases:
            with pytest.raises(error) as refused:
                client(server, "T").chat.completions.create(**{"model": "qwen3:4b", **given})
            body = refused.value.response.json()["error"]
            assert body == {"message": body["message"], "type": "invalid_request_error", "code": code}, given
        wrong = client(server, "wrong")
        for call in (wrong.models.list, lambda: wrong.chat.completions.create(model="qwen3:4b", messages=ASK)):
            with pytest.raises(openai.AuthenticationError) as refused:
                call()
            assert set(refused.value.response.json()) == {"error"}
            assert set(refused.value.response.json()["error"]) == {"message", "type", "code"}
        unsigned = json.dumps({"model": "qwen3:4b", "messages": ASK}).encode()
        status, _, raw = post(server, "/v1/chat/completions", unsigned)
        assert (status, json.loads(raw)["error"]["type"]) == (401, "authentication_error"), "no key at all"
        status, kind, raw = post(server, "/v1/chat/completions", b"{not json", {"Authorization": "Bearer T"})
        assert (status, json.loads(raw)["error"]["code"]) == (400, "invalid_json") and kind == "application/json"
        assert [m.id for m in client(server, "T").models.list().data] == ["qwen3:4b"]
    assert fake_ollama.chat_requests == [], "nothing refused reached the model"
    assert store(isolated).list_chats() == [], "nor made a workspace"


def test_a_client_that_hangs_up_leaves_the_turn_to_end_stored(fake_ollama: FakeOllama, isolated: Path) -> None:
    gate = Gate()
    reply = Reply.text("First part. Second part.", pieces=2)
    reply.steps.insert(1, gate)  # the model is still writing when the client hangs up
    fake_ollama.script(reply)
    with running_server(fake_ollama.url, isolated, "--http-port", "0") as server:
        stream = client(server).chat.completions.create(model="qwen3:4b", messages=ASK, stream=True)
        chunks = iter(stream)
        assert next(chunks).choices[0].delta.role == "assistant"
        assert next(chunks).choices[0].delta.content == "First part. "
        stream.close()
        gate.gate.set()
        assert wait_until(lambda: store(isolated).count_turns(1) == 1, timeout=20)
    (turn,) = store(isolated).get_turns(1)
    assert (turn.user, turn.assistant, turn.status) == (ASK[0]["content"], "First part. Second part.", "complete")


def test_the_curl_example_of_the_docs(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.script(Reply.text("344.7 MPa."))
    port = free_port()
    body = {"model": "qwen3:4b", "messages": ASK, "metadata": {"workspace": "Footbridge"}}
    with running_server(fake_ollama.url, isolated, "--http-port", str(port), "--token", "T") as server:
        status, kind, raw = post(server, "/v1/chat/completions", json.dumps(body).encode(),
                                 {"Authorization": "Bearer T", "Content-Type": "application/json"})  # fmt: skip
    answer = json.loads(raw)
    assert (status, kind, answer["choices"][0]["message"]["content"]) == (200, "application/json", "344.7 MPa.")
