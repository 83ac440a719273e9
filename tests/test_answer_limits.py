"""Bounds on what the model sends: an answer's tokens (num_predict), its size, and the tool calls of one reply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.application import Application
from domain.events import ErrorEvent, TextDelta, WarningEvent
from engine.context_window import json_chars, request_chars
from engine.prompt import answer_reserve
from engine.turn_state import MAX_ANSWER_CHARS, MAX_TOOL_CALLS_PER_REPLY
from fakes.ollama import FakeOllama, Reply, is_summary_request
from fakes.replies import Step, chunk, final
from history import ChatHistoryDB
from tests.agent_helpers import calls, completed, make_agent, of_type, run, tool_messages
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
    await agent.configured(num_predict=0).summarize_history([("hi", "ok")])
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


async def test_an_answer_of_megabytes_is_cut_at_the_cap_and_stored_so(fake_ollama: FakeOllama, isolated: Path) -> None:
    fake_ollama.context_lengths["qwen3:4b"] = 1_048_576  # room for an answer of millions of characters
    piece = "x" * 30_000 + "\n"
    steps: list[Step] = [chunk(content=piece) for _ in range(150)]
    fake_ollama.script(Reply([*steps, final("stop", 42, 1_000_000)]))
    db = ChatHistoryDB(isolated / "history.sqlite")
    service = Application(db, make_agent(fake_ollama, num_ctx=1_048_576))
    events = [event async for event in service.turns.ask("Write it all out.")]
    (warning,) = of_type(events, WarningEvent)
    assert warning.code == "ANSWER_CUT"
    assert warning.message == f"The answer passed {MAX_ANSWER_CHARS:,} characters and was cut there; ask for the rest."
    shown = "".join(d.text for d in of_type(events, TextDelta))
    assert len(shown) == MAX_ANSWER_CHARS and completed(events).content == shown.strip()
    assert service.workspaces.current_id is not None
    (stored,) = db.get_turns(service.workspaces.current_id)
    assert stored.status == "complete" and len(stored.assistant) <= MAX_ANSWER_CHARS


def sqrt_calls(count: int) -> list[tuple[str, Any]]:
    return [("sqrt", {"x": number}) for number in range(count)]


@pytest.mark.parametrize("written", [False, True], ids=["tool_calls", "written-as-text"])
async def test_a_reply_with_thousands_of_tool_calls_runs_only_the_first(fake_ollama: FakeOllama, written: bool) -> None:
    count = 10_000 if not written else 200
    as_text = "<|tool_call_start|>[" + ", ".join(f"sqrt(x={n})" for n in range(count)) + "]<|tool_call_end|>"
    fake_ollama.script(Reply.text(as_text) if written else Reply.tool_calls(*sqrt_calls(count)), Reply.text("Done."))
    events = await run(make_agent(fake_ollama, tool_names=["sqrt"]), "Square roots of everything?")
    assert [c.arguments["x"] for c in calls(events)] == list(range(MAX_TOOL_CALLS_PER_REPLY))
    refused = count - MAX_TOOL_CALLS_PER_REPLY
    (warning,) = of_type(events, WarningEvent)
    assert warning.code == "TOOL_CALLS_CAPPED"
    assert warning.message == (
        f"The model asked for {count:,} tool calls in one reply; the first {MAX_TOOL_CALLS_PER_REPLY} ran "
        f"and the other {refused:,} were refused."
    )
    results = tool_messages(fake_ollama.chat_requests[1])
    assert len(results) == MAX_TOOL_CALLS_PER_REPLY + 1
    assert results[-1]["content"] == (
        f"Error: {refused:,} more tool calls were refused: at most {MAX_TOOL_CALLS_PER_REPLY} run per reply; "
        "ask for the ones still needed in the next reply."
    )
    assert completed(events).content == "Done."
