"""AIAgent under faults: server down, model missing, hangs, errors mid-stream, stops. Never an exception."""

from __future__ import annotations

import time
from typing import Any

import pytest

from agent import AIAgent
from domain.events import (
    AgentError,
    ErrorEvent,
    TextDelta,
)
from fakes.ollama import Drop, FakeOllama, Hang, Raw, Reply
from tests.agent_helpers import completed, make_agent, of_type, run


async def test_server_down_is_one_clear_sentence() -> None:
    agent = AIAgent("qwen3:4b", "http://127.0.0.1:9", "system")
    started = time.monotonic()
    events = await run(agent, "hello")
    assert time.monotonic() - started < 30, "a refused connection is said at once, not retried"
    error = of_type(events, ErrorEvent)[0]
    assert error.code == "PROVIDER_UNAVAILABLE"
    assert error.message.startswith("Cannot reach Ollama at http://127.0.0.1:9") and "ollama serve" in error.message
    done = completed(events)
    assert done.stop_reason == "error" and done.error == error.message
    chunks = [chunk async for chunk in agent.chat("hello again")]
    assert chunks == [error.message]


async def test_model_not_pulled_names_the_pulled_models(fake_ollama: FakeOllama) -> None:
    fake_ollama.models = ["llama3.2:3b", "qwen3:4b"]
    agent = make_agent(fake_ollama, model="qwen3:30b")
    events = await run(agent, "hi")
    error = of_type(events, ErrorEvent)[0]
    assert error.code == "MODEL_NOT_FOUND" and not error.recoverable
    assert "llama3.2:3b, qwen3:4b" in error.message and "ollama pull qwen3:30b" in error.message


async def test_model_removed_after_show_is_still_model_not_found(fake_ollama: FakeOllama) -> None:
    agent = make_agent(fake_ollama)
    fake_ollama.script(Reply.text("ok"))
    await run(agent, "warm up")
    fake_ollama.script(Reply.http_error(404, "model 'qwen3:4b' not found"))
    events = await run(agent, "again")
    assert of_type(events, ErrorEvent)[0].code == "MODEL_NOT_FOUND"


async def test_hang_times_out(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply([Hang(600)]))
    started = time.monotonic()
    events = await run(make_agent(fake_ollama, request_timeout=0.5), "hi")
    assert time.monotonic() - started < 60, "the hang (600 s) was cut short"
    error = of_type(events, ErrorEvent)[0]
    assert error.code == "TIMEOUT" and "0.5 s" in error.message and "REQUEST_TIMEOUT" in error.message


async def test_out_of_memory_is_explained(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.http_error(500, "model requires more system memory (5.5 GiB) than is available (3.1 GiB)"))
    error = of_type(await run(make_agent(fake_ollama), "hi"), ErrorEvent)[0]
    assert error.code == "PROVIDER_ERROR" and "more system memory" in error.message and "smaller model" in error.message


@pytest.mark.parametrize(
    "fault",
    [Raw('{"error": "an error was encountered while running the model: CUDA error"}'), Raw("<html>oops"), Drop()],
)
async def test_fault_mid_stream_keeps_the_partial_text(fake_ollama: FakeOllama, fault: Any) -> None:
    fake_ollama.script(Reply.then("The first part of the answer", fault))
    agent = make_agent(fake_ollama)
    events = await run(agent, "explain")
    error = of_type(events, ErrorEvent)[0]
    assert error.code == "PROVIDER_ERROR" and "kept" in error.message
    done = completed(events)
    assert done.stop_reason == "error" and done.content == "The first part of the answer"
    fake_ollama.script(Reply.text("Recovered."))
    assert completed(await run(agent, "again")).content == "Recovered.", "the next turn works"


async def test_a_message_larger_than_the_context_is_refused(fake_ollama: FakeOllama) -> None:
    events = await run(make_agent(fake_ollama, num_ctx=2048, tool_names=["sqrt"]), "z" * 50_000)
    error = of_type(events, ErrorEvent)[0]
    assert error.code == "CONTEXT_OVERFLOW" and "NUM_CTX" in error.message
    assert fake_ollama.chat_requests == []


async def test_stop_ends_the_reply_and_keeps_the_partial_text(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.then("Partial answer", Hang(600)), Reply.text("Next one works."))
    agent = make_agent(fake_ollama)
    events: list[Any] = []
    started = time.monotonic()
    async for event in agent.stream(agent.request("long question")):
        events.append(event)
        if isinstance(event, TextDelta) and "answer" in "".join(e.text for e in of_type(events, TextDelta)):
            agent.stop()
    assert time.monotonic() - started < 60, "the hang (600 s) was cut short"
    done = completed(events)
    assert (done.stop_reason, done.content) == ("stopped", "Partial answer")
    assert completed(await run(agent, "again")).content == "Next one works."


async def test_chat_ends_with_the_error_sentence_after_partial_text(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.then("Half", Drop()))
    chunks = [chunk async for chunk in make_agent(fake_ollama).chat("q")]
    assert chunks[0] == "Ha" and chunks[-1].startswith("\nThe connection to Ollama")


async def test_summarize_history_failure_raises_a_coded_error() -> None:
    agent = AIAgent("qwen3:4b", "http://127.0.0.1:9", "system")
    with pytest.raises(AgentError) as caught:
        await agent.summarize_history([("q", "a")])
    assert caught.value.code == "PROVIDER_UNAVAILABLE"


async def test_text_held_back_as_a_possible_tool_call_is_kept_when_the_stream_breaks(
    fake_ollama: FakeOllama,
) -> None:
    fake_ollama.script(Reply.then("[EC2 4.4] The nominal cover is", Drop()))
    done = completed(await run(make_agent(fake_ollama), "cover?"))
    assert done.stop_reason == "error" and done.content == "[EC2 4.4] The nominal cover is"


async def test_an_error_line_first_is_not_called_an_http_error(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply([Raw('{"error": "llama runner process has terminated"}')]))
    error = of_type(await run(make_agent(fake_ollama), "hi"), ErrorEvent)[0]
    assert error.message == "Ollama reported an error while answering: llama runner process has terminated. Try again."
