"""AIAgent driven through the real `ollama` client against the loopback fake Ollama: the loop and its tools."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from app.application import Application
from domain.events import (
    ErrorEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    WarningEvent,
)
from fakes.ollama import FakeOllama, Reply, is_summary_request
from history import ChatHistoryDB
from tests.agent_helpers import calls, chat, completed, make_agent, of_type, run, tool_messages


async def test_streamed_answer(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("A 6 m span carries 54 kN·m.", pieces=4, prompt_tokens=120, completion_tokens=9))
    events = await run(make_agent(fake_ollama), "Moment of 12 kN/m over 6 m?")
    deltas = of_type(events, TextDelta)
    assert len(deltas) == 4
    assert "".join(d.text for d in deltas) == "A 6 m span carries 54 kN·m."
    done = completed(events)
    assert (done.content, done.stop_reason) == ("A 6 m span carries 54 kN·m.", "end_turn")
    assert (done.usage.prompt_tokens, done.usage.completion_tokens) == (120, 9)
    request = fake_ollama.chat_requests[0]
    assert request["stream"] is True and request["model"] == "qwen3:4b"
    assert request["options"]["num_ctx"] == 8192
    assert request["messages"][0] == {"role": "system", "content": "You are an engineering assistant."}
    assert request["messages"][-1] == {"role": "user", "content": "Moment of 12 kN/m over 6 m?"}
    described = {t["function"]["name"] for t in request["tools"]}  # every tool would crowd 8,192 tokens
    assert "beam_analysis" in described and "edit_file" not in described


async def test_tool_schemas_keep_defaults_and_descriptions(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("ok"))
    await run(make_agent(fake_ollama), "Read notes.txt from its first line")
    tools = {t["function"]["name"]: t["function"] for t in fake_ollama.chat_requests[0]["tools"]}
    read = tools["read_file"]["parameters"]
    assert read["required"] == ["path"]
    assert "Default: 1" in read["properties"]["start_line"]["description"]
    assert read["properties"]["start_line"]["type"] == "integer"


async def test_tool_call_result_goes_back_then_answer(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 144})), Reply.text("The square root of 144 is 12."))
    events = await run(make_agent(fake_ollama), "sqrt of 144?")
    started, finished = of_type(events, ToolCallStarted), of_type(events, ToolCallFinished)
    assert [(s.name, s.arguments) for s in started] == [("sqrt", {"x": 144})]
    call = finished[0].call
    assert call.output == "12.0" and call.error is None and call.id == started[0].id
    assert events.index(started[0]) < events.index(finished[0]) < events.index(of_type(events, TextDelta)[0])
    second = fake_ollama.chat_requests[1]
    assistant = [m for m in second["messages"] if m["role"] == "assistant"][-1]
    assert assistant["tool_calls"][0]["function"] == {"name": "sqrt", "arguments": {"x": 144}}
    assert tool_messages(second) == [{"role": "tool", "content": "12.0", "tool_name": "sqrt"}]
    done = completed(events)
    assert done.content == "The square root of 144 is 12."
    assert [(c.name, c.output) for c in done.tool_calls] == [("sqrt", "12.0")]
    assert done.usage.prompt_tokens == 84


async def test_several_tool_calls_in_one_message(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply.tool_calls(("add", {"a": 2, "b": 3}), ("multiply", {"a": 4, "b": 2.5})),
        Reply.text("5 and 10."),
    )
    events = await run(make_agent(fake_ollama), "2+3 and 4*2.5")
    assert [c.output for c in calls(events)] == ["5.0", "10.0"]
    assert [m["content"] for m in tool_messages(fake_ollama.chat_requests[1])] == ["5.0", "10.0"]


async def test_bad_arguments_go_back_and_corrected_call_runs(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply.tool_calls(("sqrt", {"x": "a hundred and forty-four"})),
        Reply.tool_calls(("sqrt", {"x": "144"})),
        Reply.text("12."),
    )
    events = await run(make_agent(fake_ollama), "sqrt 144")
    first, second = calls(events)
    assert first.error and "Invalid arguments for sqrt" in first.output and "x: number" in first.output
    assert second.error is None and second.output == "12.0"
    assert "Invalid arguments" in tool_messages(fake_ollama.chat_requests[1])[0]["content"]
    assert completed(events).stop_reason == "end_turn"


async def test_missing_and_extra_arguments_are_explained(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("divide", {"a": 1, "c": 2})), Reply.text("Sorry."))
    events = await run(make_agent(fake_ollama), "1/2")
    output = calls(events)[0].output
    assert "b: required but missing" in output and "c: not an argument of this tool" in output


async def test_unknown_tool_is_reported_to_the_model(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("cube_root", {"x": 27})), Reply.text("3."))
    events = await run(make_agent(fake_ollama), "cube root of 27")
    finished = calls(events)[0]
    assert finished.error and "no tool named 'cube_root'" in finished.output and "sqrt" in finished.output
    assert "no tool named" in tool_messages(fake_ollama.chat_requests[1])[0]["content"]
    assert completed(events).content == "3."


@pytest.mark.parametrize(
    "written",
    [
        '{"name": "sqrt", "arguments": {"x": 144}}',
        '```json\n{"name": "sqrt", "arguments": {"x": 144}}\n```',
        '<tool_call>\n{"name": "sqrt", "arguments": {"x": 144}}\n</tool_call>',
        '[{"function": {"name": "sqrt", "parameters": {"x": 144}}}]',
    ],
)
async def test_tool_call_written_in_the_text_is_run(fake_ollama: FakeOllama, written: str) -> None:
    fake_ollama.script(Reply.text(written, pieces=5), Reply.text("It is 12."))
    events = await run(make_agent(fake_ollama), "sqrt 144")
    assert [(c.name, c.output) for c in calls(events)] == [("sqrt", "12.0")]
    shown = "".join(d.text for d in of_type(events, TextDelta))
    assert shown == "It is 12.", "the JSON of a tool call must not be shown as the answer"
    assert tool_messages(fake_ollama.chat_requests[1])[0]["content"] == "12.0"


async def test_json_that_is_not_a_known_tool_is_shown_as_text(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text('{"beam": "W310x39", "span_m": 6}'))
    events = await run(make_agent(fake_ollama), "as JSON please")
    assert completed(events).content == '{"beam": "W310x39", "span_m": 6}'
    assert not of_type(events, ToolCallStarted)


async def test_round_cap_asks_for_a_final_answer_without_tools(fake_ollama: FakeOllama) -> None:
    counter = iter(range(1, 100))
    fake_ollama.responder = lambda body: (
        Reply.text("Best effort: 42.")
        if not body.get("tools")
        else Reply.tool_calls(("add", {"a": next(counter), "b": 1}))
    )
    events = await run(make_agent(fake_ollama, max_tool_rounds=3), "loop forever")
    requests = fake_ollama.chat_requests
    assert len(requests) == 4
    assert all(r.get("tools") for r in requests[:3]) and not requests[3].get("tools")
    assert len(of_type(events, ToolCallFinished)) == 3
    done = completed(events)
    assert (done.stop_reason, done.content) == ("max_tool_rounds", "Best effort: 42.")


async def test_repeated_identical_call_is_answered_from_the_first_result(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply.tool_calls(("sqrt", {"x": 144})),
        Reply.tool_calls(("sqrt", {"x": 144})),
        Reply.text("12, as computed."),
    )
    events = await run(make_agent(fake_ollama), "sqrt 144")
    first, second = of_type(events, ToolCallFinished)
    assert (first.repeated, second.repeated) == (False, True)
    assert second.call.output.startswith("12.0") and "reused" in second.call.output
    requests = fake_ollama.chat_requests
    assert len(requests) == 3 and not requests[2].get("tools"), "a round of only repeats ends the loop"
    assert completed(events).stop_reason == "end_turn"


async def test_context_trimming_keeps_summary_and_newest_turns(fake_ollama: FakeOllama) -> None:
    agent = make_agent(fake_ollama, num_ctx=2048, tool_names=["sqrt"])
    history = [(f"question {i} " + "x" * 300, f"answer {i} " + "y" * 300) for i in range(100)]
    agent.set_context("Tower A: 45 m residential, C30/37 concrete.", history)
    fake_ollama.script(Reply.text("ok"))
    events = await run(agent, "And the next floor?")
    messages = fake_ollama.chat_requests[0]["messages"]
    assert "[Context Summary]: Tower A: 45 m residential" in messages[0]["content"]
    contents = [m["content"] for m in messages[1:]]
    assert contents[-1] == "And the next floor?"
    assert contents[-2].startswith("answer 99") and contents[-3].startswith("question 99")
    assert not any(c.startswith("question 0 ") for c in contents)
    kept = sum(c.startswith("question") for c in contents)
    assert 0 < kept < 100
    warning = of_type(events, WarningEvent)[0]
    assert warning.code == "CONTEXT_TRIMMED" and warning.message.startswith(f"{100 - kept} earlier turns")
    assert sum(len(m["content"]) for m in messages) / 3 < 2048


async def test_prompt_eval_count_near_the_limit_warns(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("ok", prompt_tokens=8100, done_reason="length"))
    events = await run(make_agent(fake_ollama), "hi")
    assert {w.code for w in of_type(events, WarningEvent)} == {"CONTEXT_FULL", "ANSWER_CUT"}


async def test_model_without_tool_support_gets_no_tools_and_one_notice(fake_ollama: FakeOllama) -> None:
    fake_ollama.capabilities = {"qwen3:4b": ["completion"]}
    agent = make_agent(fake_ollama)
    fake_ollama.script(Reply.text("first"), Reply.text("second"))
    first, second = await run(agent, "one"), await run(agent, "two")
    assert [w.code for w in of_type(first, WarningEvent)] == ["TOOLS_UNSUPPORTED"]
    assert of_type(second, WarningEvent) == []
    assert all(not r.get("tools") and "think" not in r for r in fake_ollama.chat_requests)
    assert completed(second).content == "second"


async def test_thinking_is_streamed_apart_from_the_answer(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("Use 54 kN·m.", thinking="wL^2/8 = 12*36/8 = 54"))
    events = await run(make_agent(fake_ollama, think=True), "moment?")
    assert "".join(t.text for t in of_type(events, ThinkingDelta)) == "wL^2/8 = 12*36/8 = 54"
    done = completed(events)
    assert done.content == "Use 54 kN·m." and done.thinking == "wL^2/8 = 12*36/8 = 54"
    assert fake_ollama.chat_requests[0]["think"] is True


async def test_think_is_off_by_default_and_never_sent_to_models_that_cannot(fake_ollama: FakeOllama) -> None:
    fake_ollama.models = ["qwen3:4b", "llama3.2:3b"]
    fake_ollama.capabilities = {"llama3.2:3b": ["completion", "tools"]}
    fake_ollama.script(Reply.text("a"), Reply.text("b"))
    agent = make_agent(fake_ollama, think=True)
    await run(agent.configured(think=False), "one")
    events = await run(agent.configured(model="llama3.2:3b", think=True), "two")
    assert completed(events).content == "b"
    assert fake_ollama.chat_requests[0]["think"] is False and "think" not in fake_ollama.chat_requests[1]


def test_one_agent_serves_turns_under_different_event_loops(fake_ollama: FakeOllama) -> None:
    agent = make_agent(fake_ollama)
    for answer in ("first", "second", "third"):
        fake_ollama.script(Reply.text(answer))
        chunks = asyncio.run(chat(agent, "q"))
        assert "".join(chunks) == answer
    assert [m["content"] for m in fake_ollama.chat_requests[2]["messages"][1:5]] == ["q", "first", "q", "second"]


async def test_chat_yields_the_text_chunks(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(("sqrt", {"x": 16})), Reply.text("It is 4.", pieces=2))
    chunks = [chunk async for chunk in make_agent(fake_ollama).chat("sqrt 16")]
    assert "".join(chunks) == "It is 4." and len(chunks) == 2


async def test_summarize_history_sends_previous_summary_and_turns(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("- Tower A, 45 m\n- Footing 2 x 2 m"))
    summary = await make_agent(fake_ollama).summarize_history(
        [("Footing size?", "2 x 2 m.")], previous_summary="- Tower A, 45 m"
    )
    assert summary == "- Tower A, 45 m\n- Footing 2 x 2 m"
    request = fake_ollama.chat_requests[0]
    assert is_summary_request(request) and not request.get("tools")
    prompt = request["messages"][-1]["content"]
    assert "- Tower A, 45 m" in prompt and "Footing size?" in prompt and "2 x 2 m." in prompt


async def test_summarize_history_prompt_stays_bounded(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("short"), Reply.text("short"))
    agent = make_agent(fake_ollama, num_ctx=4096)
    await agent.summarize_history([("q" * 1000, "a" * 1000)] * 10)
    await agent.summarize_history([("q" * 1000, "a" * 1000)] * 5000)
    small, large = (len(json.dumps(r["messages"])) for r in fake_ollama.chat_requests)
    assert large <= 4096 * 3 and large < small * 2


async def test_tool_output_is_capped(fake_ollama: FakeOllama, isolated: Any) -> None:
    (isolated / "workspace").mkdir()
    (isolated / "workspace" / "long.txt").write_text("line of text\n" * 50_000)
    fake_ollama.script(Reply.tool_calls(("read_file", {"path": "long.txt"})), Reply.text("Long file."))
    events = await run(make_agent(fake_ollama), "read long.txt")
    output = calls(events)[0].output
    assert len(output) < 8_200 and "start_line=" in output


async def test_several_large_tool_results_are_trimmed_not_fatal(fake_ollama: FakeOllama, isolated: Any) -> None:
    (isolated / "workspace").mkdir()
    for name in ("a", "b", "c"):
        (isolated / "workspace" / f"{name}.txt").write_text(f"{name} " * 3_000)
    fake_ollama.script(
        Reply.tool_calls(("read_file", {"path": "a.txt"})),
        Reply.tool_calls(("read_file", {"path": "b.txt"})),
        Reply.tool_calls(("read_file", {"path": "c.txt"})),
        Reply.text("All three read."),
    )
    events = await run(make_agent(fake_ollama, select_tools=True), "compare the files a, b and c")
    assert completed(events).content == "All three read." and not of_type(events, ErrorEvent)
    last = tool_messages(fake_ollama.chat_requests[-1])
    assert "dropped to fit" in last[0]["content"] and last[-1]["content"].startswith("c.txt")


async def test_a_bracketed_reference_is_streamed_at_once(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.text("[EC2 §4.4] Use 30 mm nominal cover.", pieces=4))
    events = await run(make_agent(fake_ollama), "cover?")
    assert len(of_type(events, TextDelta)) >= 3


async def test_a_read_after_an_edit_in_the_same_turn_reads_the_file_again(
    fake_ollama: FakeOllama, isolated: Any
) -> None:
    (isolated / "workspace").mkdir()
    (isolated / "workspace" / "n.txt").write_text("Span: 6 m\n")
    fake_ollama.script(
        Reply.tool_calls(("read_file", {"path": "n.txt"})),
        Reply.tool_calls(("edit_file", {"path": "n.txt", "old_text": "6 m", "new_text": "7.5 m"})),
        Reply.tool_calls(("read_file", {"path": "n.txt"})),
        Reply.text("Updated."),
    )
    service = Application(ChatHistoryDB(isolated / "h.sqlite"), make_agent(fake_ollama), file_edits="auto")
    events = [event async for event in service.turns.ask("change the span to 7.5 m")]
    reads = [f for f in of_type(events, ToolCallFinished) if f.call.name == "read_file"]
    assert "Span: 6 m" in reads[0].call.output and "Span: 7.5 m" in reads[1].call.output and not reads[1].repeated


async def test_repeats_are_recognised_after_coercion(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply.tool_calls(("sqrt", {"x": 144})), Reply.tool_calls(("sqrt", {"x": "144"})), Reply.text("12.")
    )
    events = await run(make_agent(fake_ollama), "sqrt 144")
    assert [f.repeated for f in of_type(events, ToolCallFinished)] == [False, True]


async def test_prose_followed_by_a_json_tool_call_runs_it(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply.text('Let me compute that: {"name": "sqrt", "arguments": {"x": 144}}'), Reply.text("It is 12.")
    )
    events = await run(make_agent(fake_ollama), "sqrt 144")
    assert [c.output for c in calls(events)] == ["12.0"]
    assert completed(events).content == "Let me compute that:\n\nIt is 12."


async def test_the_model_reads_quantities_as_engineers_write_them(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply.tool_calls(("beam_analysis", {"span": "6 m", "load": "12 kN/m"})), Reply.text("M = 54 kN·m.")
    )
    await run(make_agent(fake_ollama), "Moment of a 6 m beam under 12 kN/m?")
    sent = tool_messages(fake_ollama.chat_requests[1])[0]["content"]
    assert '"max_moment":"54 kN·m"' in sent and "12 kN/m" in sent
    assert " * " not in sent and "**" not in sent
