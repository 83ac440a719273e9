"""Context that does not fit: the real context from /api/show, calibrated counts, one notice, one sentence."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.events import ErrorEvent, WarningEvent
from engine.context_window import CHARS_PER_TOKEN, CharsPerToken, json_chars, request_chars
from engine.ollama_server import model_context_length
from engine.prompt import answer_reserve
from fakes.ollama import FakeOllama, Reply
from tests.agent_helpers import completed, make_agent, of_type, run

HISTORY = [(f"question {i} " + "x" * 300, f"answer {i} " + "y" * 300) for i in range(100)]


def history_questions(request: dict[str, Any]) -> list[str]:
    return [m["content"] for m in request["messages"] if m["role"] == "user" and m["content"].startswith("question")]


def estimated_tokens(request: dict[str, Any], chars_per_token: float = CHARS_PER_TOKEN) -> float:
    return (
        request_chars(request["messages"], json_chars(request["tools"]) if request.get("tools") else 0)
        / chars_per_token
    )


async def test_a_model_context_smaller_than_num_ctx_is_the_one_filled(fake_ollama: FakeOllama) -> None:
    fake_ollama.context_lengths["qwen3:4b"] = 4096
    agent = make_agent(fake_ollama, num_ctx=8192, tool_names=["sqrt", "divide"])
    agent.set_context("Tower A: 45 m residential.", HISTORY)
    fake_ollama.script(Reply.text("ok"))
    events = await run(agent, "And the next floor?")
    request = fake_ollama.chat_requests[0]
    assert request["options"]["num_ctx"] == 4096
    assert estimated_tokens(request) <= 4096 - answer_reserve(4096)
    kept = history_questions(request)
    assert 0 < len(kept) < 100 and kept[-1].startswith("question 99 ")
    (warning,) = of_type(events, WarningEvent)
    assert warning.code == "CONTEXT_TRIMMED" and warning.message.startswith(f"{100 - len(kept)} earlier turns")
    assert "qwen3:4b's context of 4,096 tokens" in warning.message and "left out of the model's view" in warning.message


async def test_num_ctx_in_the_modelfile_limits_the_context_too(fake_ollama: FakeOllama) -> None:
    fake_ollama.parameters["qwen3:4b"] = 'num_ctx                        2048\nstop "<|im_end|>"'
    fake_ollama.script(Reply.text("ok"))
    await run(make_agent(fake_ollama, num_ctx=8192, tool_names=["sqrt"]), "hi")
    assert fake_ollama.chat_requests[0]["options"]["num_ctx"] == 2048


async def test_older_turns_left_out_are_announced_once_per_workspace(fake_ollama: FakeOllama) -> None:
    agent = make_agent(fake_ollama, num_ctx=2048, tool_names=["sqrt"])
    fake_ollama.script(Reply.text("one"), Reply.text("two"), Reply.text("three"))
    counts = []
    for workspace in (1, 1, 2):
        agent.set_context(None, HISTORY, workspace_key=workspace)
        events = await run(agent, "next?")
        counts.append(len([w for w in of_type(events, WarningEvent) if w.code == "CONTEXT_TRIMMED"]))
    assert counts == [1, 0, 1]
    assert all(history_questions(r) and len(history_questions(r)) < 100 for r in fake_ollama.chat_requests)


async def test_the_servers_token_count_calibrates_the_next_request(fake_ollama: FakeOllama) -> None:
    fake_ollama.responder = lambda body: Reply.text(
        "ok", prompt_tokens=request_chars(body["messages"], json_chars(body["tools"]) if body.get("tools") else 0) // 2
    )
    agent = make_agent(fake_ollama, num_ctx=8192, tool_names=["sqrt"])
    for _ in range(2):
        agent.set_context(None, HISTORY, workspace_key=1)
        await run(agent, "next?")
    first, second = fake_ollama.chat_requests
    assert estimated_tokens(first, 2.0) > 8192 - answer_reserve(8192), "at three characters a token it overflowed"
    assert len(history_questions(second)) < len(history_questions(first))
    assert estimated_tokens(second, 2.0) <= 8192 - answer_reserve(8192)


def test_chars_per_token_learns_smoothly_within_bounds() -> None:
    ratio = CharsPerToken()
    assert ratio.value == CHARS_PER_TOKEN
    ratio.learn(chars=20_000, prompt_tokens=5_000, context_tokens=8192)
    assert ratio.value == 4.0, "the first count replaces the documented estimate"
    ratio.learn(chars=10_000, prompt_tokens=5_000, context_tokens=8192)
    assert ratio.value == 3.0, "later counts are smoothed"
    ratio.learn(chars=100_000, prompt_tokens=42, context_tokens=8192)
    assert ratio.value == 3.0, "a count that cannot be of the whole request is ignored"
    ratio.learn(chars=40_000, prompt_tokens=4_000, context_tokens=8192)
    assert ratio.value == 5.5, "a ratio beyond the bounds (10) counts as the bound (8)"
    ratio.learn(chars=40_000, prompt_tokens=8_192, context_tokens=8192)
    assert ratio.value == pytest.approx(40_000 / 8_192), "a count at the context's size can only lower the ratio"


@pytest.mark.parametrize(
    ("model_info", "parameters", "expected"),
    [
        ({"general.architecture": "llama", "llama.context_length": 131072}, "", 131072),
        ({"general.architecture": "qwen3", "qwen3.context_length": 40960}, "num_ctx 4096\ntemperature 0.6", 4096),
        ({"gemma3.context_length": 8192}, None, 8192),
        ({}, "num_ctx 16384", 16384),
        (None, None, None),
    ],
)
def test_the_model_context_is_read_from_api_show(
    model_info: dict[str, Any] | None, parameters: str | None, expected: int | None
) -> None:
    assert model_context_length(model_info, parameters) == expected


@pytest.mark.parametrize(
    "reply",
    [Reply.context_exceeded(), Reply.context_exceeded(status=500), Reply.input_exceeds_context()],
    ids=["llama.cpp-400", "llama.cpp-500", "ollama"],
)
async def test_an_overflow_the_server_reports_is_one_plain_sentence(fake_ollama: FakeOllama, reply: Reply) -> None:
    fake_ollama.script(reply)
    events = await run(make_agent(fake_ollama), "hi")
    (error,) = of_type(events, ErrorEvent)
    assert error.code == "CONTEXT_OVERFLOW" and not error.recoverable
    assert error.message == (
        "The conversation no longer fits in the context of qwen3:4b, so the server refused it; start a new "
        "workspace, or raise NUM_CTX (or choose a model with a larger context)."
    )
    assert completed(events).stop_reason == "error"


async def test_a_server_error_object_is_shown_as_its_message_not_as_a_dict(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.http_error(500, {"code": 500, "message": "slot unavailable", "type": "server_error"}))
    (error,) = of_type(await run(make_agent(fake_ollama), "hi"), ErrorEvent)
    assert error.message == "Ollama reported an error (HTTP 500): slot unavailable. Try again."


MEASURED = [
    {"role": "user", "content": "What is wL²/8 for 6 m at 12 kN/m?"},
    {"role": "assistant", "content": 'Quotes " and \\ backslashes, a tab\t, a newline\n, \x00\x1f, \u2028, 🏗'},
    {"role": "system", "content": "x" * 20_000 + "é"},  # longer than what is remembered
    {"role": "user", "content": "\ud800 a lone surrogate"},
    {"content": "the keys the other way round", "role": "user"},
    {"role": "tool", "content": "{}", "tool_name": "sqrt"},
    {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "sqrt", "arguments": {"x": 2}}}]},
    {"role": "user", "content": 12},
]


@pytest.mark.parametrize("message", MEASURED)
def test_a_message_is_measured_as_json_dumps_writes_it(message: dict[str, object]) -> None:
    """The measure every estimate is in: messages of a role and a text are counted without being written out, and
    must come to exactly what json.dumps writes (twice: the second time from what was remembered)."""
    expected = len(json.dumps(message, ensure_ascii=False, default=str))
    assert json_chars(message) == json_chars(message) == expected
