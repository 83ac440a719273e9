"""How a turn ends when the model gives nothing, or is stopped by the step limit: one clear message, never silence."""

from __future__ import annotations

import asyncio
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from app.application import Application
from domain.events import ErrorEvent, TextDelta, WarningEvent
from fakes.ollama import FakeOllama, Hang, Reply
from history import ChatHistoryDB
from tests.agent_helpers import calls, completed, make_agent, of_type, run
from tests.cli_helpers import run_cli


def assert_empty_answer(events: list[Any]) -> ErrorEvent:
    (error,) = of_type(events, ErrorEvent)
    assert error.code == "EMPTY_ANSWER" and error.recoverable
    assert error.message.startswith("The model qwen3:4b returned nothing")
    assert "try again" in error.message and "rephrase" in error.message and "another model" in error.message
    done = completed(events)
    assert (done.stop_reason, done.error) == ("error", error.message)
    return error


@pytest.mark.parametrize(
    "reply",
    [Reply.text(""), Reply.text("  \n\n \t", pieces=2), Reply.text("", thinking="Let me think about the beam.")],
    ids=["nothing", "whitespace", "only-thinking"],
)
async def test_an_empty_answer_is_an_error_that_says_what_to_try(fake_ollama: FakeOllama, reply: Reply) -> None:
    fake_ollama.script(reply)
    events = await run(make_agent(fake_ollama), "Moment of a 6 m beam?")
    assert_empty_answer(events)
    assert not of_type(events, WarningEvent)


def assert_answered_with_the_results(events: list[Any], *results: str) -> str:
    """The turn ends well, its answer saying what the tools returned (as shown and as completed)."""
    assert not of_type(events, ErrorEvent)
    done = completed(events)
    assert done.stop_reason == "end_turn" and done.error is None
    assert done.content.startswith("The model wrote no answer after its tool calls; they returned:")
    assert all(result in done.content for result in results), done.content
    assert "".join(d.text for d in of_type(events, TextDelta)).strip() == done.content
    return done.content


async def test_an_empty_answer_after_tools_that_ran_says_what_they_returned(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 144})), Reply.text(""))
    events = await run(make_agent(fake_ollama), "sqrt 144")
    assert [c.output for c in calls(events)] == ["12.0"]
    assert_answered_with_the_results(events, "- `sqrt(x=144)` → `12.0`")


async def test_a_repeated_call_written_as_text_at_the_end_answers_with_the_results(fake_ollama: FakeOllama) -> None:
    """SmolLM2-135M: the same call twice, then (tools no longer offered) the call once more as text."""
    again = '<tool_call>{"name": "beam_analysis", "arguments": {"span": "6 m", "load": "12 kN/m"}}</tool_call>'
    beam = ("beam_analysis", {"span": "6 m", "load": "12 kN/m"})
    fake_ollama.script(Reply.tool_calls(beam), Reply.tool_calls(beam), Reply.text(again))
    events = await run(make_agent(fake_ollama), "Moment of 12 kN/m over 6 m?")
    assert len(calls(events)) == 2 and not fake_ollama.chat_requests[2].get("tools")
    content = assert_answered_with_the_results(events, "M = wL²/8 = 12 kN/m × (6 m)² / 8 = 54 kN·m")
    assert content.count("beam_analysis(") == 1 and "<tool_call>" not in content


async def test_tools_that_all_failed_and_no_answer_is_still_an_empty_answer(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("divide", {"a": 1, "b": 0})), Reply.text(""))
    events = await run(make_agent(fake_ollama), "1/0")
    assert calls(events)[0].error is not None
    assert_empty_answer(events)


def test_the_cli_exits_0_with_the_results_when_the_model_only_repeats_a_call(fake_ollama: FakeOllama) -> None:
    written = '<tool_call>{"name": "sqrt", "arguments": {"x": 144}}</tool_call>'
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 144})), Reply.tool_calls(("sqrt", {"x": 144})))
    fake_ollama.script(Reply.text(written))
    result = run_cli("--once", "sqrt 144", "--server", fake_ollama.url, "--plain")
    assert result.returncode == 0, result.stderr
    assert "`sqrt(x=144)` → `12.0`" in result.stdout and "returned nothing" not in result.stderr


async def test_an_empty_answer_is_stored_as_not_answered(fake_ollama: FakeOllama, isolated: Path) -> None:
    db = ChatHistoryDB(isolated / "history.sqlite")
    service = Application(db, make_agent(fake_ollama))
    fake_ollama.script(Reply.text(""))
    events = [event async for event in service.turns.ask("Moment of a 6 m beam?")]
    error = assert_empty_answer(events)
    assert service.workspaces.current_id is not None
    (stored,) = db.get_turns(service.workspaces.current_id)
    assert (stored.status, stored.assistant, stored.error) == ("error", "", error.message)


async def test_a_stopped_turn_is_not_an_empty_answer(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply([Hang(10)]))
    agent = make_agent(fake_ollama)

    async def stop_soon() -> None:
        await asyncio.sleep(0.3)
        agent.stop()

    stopper = asyncio.create_task(stop_soon())
    events = await run(agent, "long question")
    await stopper
    assert completed(events).stop_reason == "stopped" and not of_type(events, ErrorEvent)


def calls_in_turn(names: list[str]) -> Any:
    """A responder that asks for tools in turn while they are offered, then answers `final`."""
    numbers = count(1)

    def respond(final: str) -> Any:
        def reply(body: dict[str, Any]) -> Reply:
            if not body.get("tools"):
                return Reply.text(final)
            number = next(numbers)
            name = names[(number - 1) % len(names)]
            arguments = {"x": number} if name == "sqrt" else {"a": number, "b": 1}
            return Reply.tool_calls((name, arguments))

        return reply

    return respond


async def test_the_step_limit_says_what_was_done_and_how_to_allow_more(fake_ollama: FakeOllama) -> None:
    fake_ollama.responder = calls_in_turn(["add", "sqrt", "add"])("Best effort: 42.")
    events = await run(make_agent(fake_ollama, max_tool_rounds=5), "loop")
    (warning,) = of_type(events, WarningEvent)
    assert warning.code == "STEP_LIMIT"
    assert "step limit" in warning.message and "MAX_TOOL_ROUNDS=5" in warning.message
    assert "5 tool calls (add ×3, sqrt ×2)" in warning.message and "raise MAX_TOOL_ROUNDS" in warning.message
    done = completed(events)
    assert (done.stop_reason, done.content) == ("max_tool_rounds", "Best effort: 42.")
    assert not of_type(events, ErrorEvent)


async def test_no_answer_at_the_step_limit_is_one_message_not_two(fake_ollama: FakeOllama) -> None:
    fake_ollama.responder = calls_in_turn(["sqrt"])("")
    events = await run(make_agent(fake_ollama, max_tool_rounds=2), "loop")
    (warning,) = of_type(events, WarningEvent)
    assert warning.code == "STEP_LIMIT" and "2 tool calls (sqrt ×2)" in warning.message
    assert "no answer" in warning.message
    assert not of_type(events, ErrorEvent) and not of_type(events, TextDelta)
    assert completed(events).stop_reason == "max_tool_rounds"
