"""Bounds on what the model sends: an answer's tokens (num_predict), its size, and the tool calls of one reply."""

from __future__ import annotations

from typing import Any

from domain.events import ErrorEvent, WarningEvent
from engine.context_window import json_chars, request_chars
from engine.prompt import answer_reserve
from fakes.ollama import FakeOllama, Reply, is_summary_request
from tests.agent_helpers import completed, make_agent, of_type, run
from tests.cli_helpers import run_cli

LOOP = "The moment is 54 kN·m. " * 20_000  # a small model that never stops


def cut_sentence(tokens: int) -> str:
    return f"The answer was cut at {tokens:,} tokens; ask for the rest or raise NUM_PREDICT/NUM_CTX."


def estimated_prompt_tokens(request: dict[str, Any]) -> float:
    tools = json_chars(request["tools"]) if request.get("tools") else 0
    return request_chars(request["messages"], tools) / 3.0


async def test_every_request_bounds_the_answer_by_the_room_the_context_leaves(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("ok"))
    await run(make_agent(fake_ollama, num_ctx=8192), "Moment of a 6 m beam?")
    request = fake_ollama.chat_requests[0]
    num_predict = request["options"]["num_predict"]
    assert answer_reserve(8192) <= num_predict < 8192
    assert num_predict + estimated_prompt_tokens(request) <= 8192 + 1, "prompt and answer fit the context together"


async def test_num_predict_lowers_the_bound_and_a_summary_is_bounded_too(fake_ollama: FakeOllama) -> None:
    agent = make_agent(fake_ollama, num_ctx=8192, num_predict=300)
    fake_ollama.script(Reply.text("ok"), Reply.text("- Tower A"))
    await run(agent, "hi")
    await agent.summarize_history([("hi", "ok")])
    answer, summary = fake_ollama.chat_requests
    assert answer["options"]["num_predict"] == 300
    assert is_summary_request(summary) and summary["options"]["num_predict"] == 300
    fake_ollama.script(Reply.text("- Tower A"))
    agent.num_predict = 0
    await agent.summarize_history([("hi", "ok")])
    assert fake_ollama.chat_requests[-1]["options"]["num_predict"] == answer_reserve(8192)


async def test_an_answer_that_loops_is_cut_and_the_user_told_where(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text(LOOP, pieces=200))
    events = await run(make_agent(fake_ollama, num_predict=250), "Moment?")
    (warning,) = of_type(events, WarningEvent)
    assert (warning.code, warning.message) == ("ANSWER_CUT", cut_sentence(250))
    done = completed(events)
    assert done.content == LOOP[: 250 * 4].strip() and done.stop_reason == "end_turn"
    assert not of_type(events, ErrorEvent)


def test_the_cli_reads_num_predict_and_says_the_answer_was_cut(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text(LOOP, pieces=50))
    result = run_cli("--once", "Moment?", "--server", fake_ollama.url, env={"NUM_PREDICT": "120"})
    assert result.returncode == 0, result.stderr
    assert fake_ollama.chat_requests[0]["options"]["num_predict"] == 120
    assert result.stdout.strip() == LOOP[:480].strip() and cut_sentence(120) in result.stderr
    assert result.stderr.count("cut at") == 1
