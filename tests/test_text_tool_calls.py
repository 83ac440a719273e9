"""Tool calls that small models write as text: each format runs the tool, and the call text is never shown or stored.

Each format below is one that open models were reported writing (see the list at
the top of `engine/text_tool_calls.py`); every reply streams in pieces through the
real `ollama` client from the loopback fake.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.application import Application
from domain.events import TextDelta, ToolCallStarted
from engine.text_calls.formats import extract_text_tool_calls, find_marker
from engine.text_calls.requested import RequestedCall
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.agent_helpers import calls, completed, make_agent, of_type, run, tool_messages

ANSWER = "10 / 4 = 2.5."
DIVIDE_SCHEMA = (
    '{"type": "object", "properties": {"a": {"type": "number", "description": "The dividend."}, '
    '"b": {"type": "number", "description": "The divisor; must not be zero."}}, "required": ["a", "b"]}'
)
ESCAPED = "{&#34;name&#34;: &#34;divide&#34;, &#34;arguments&#34;: {&#34;a&#34;: 10, &#34;b&#34;: 4}}"

WRITTEN_CALLS = {
    "functions-colon": 'functions.divide:\n{"a": 10, "b": 4}',
    "functions-html-34": "functions.divide:\n{&#34;a&#34;: 10, &#34;b&#34;: 4}",
    "functions-html-quot": "functions.divide:\n{&quot;a&quot;: 10, &quot;b&quot;: 4}",
    "functions-index": 'functions.divide:0{"a": 10, "b": 4}',
    "functions-fenced": 'functions.divide:\n```json\n{"a": 10, "b": 4}\n```',
    "functions-indented": '   functions.divide:\n   {"a": 10, "b": 4}',
    "functions-json-in-parentheses": 'functions.divide({"a": 10, "b": 4})',
    "functions-keywords": "functions.divide(a=10, b=4)",
    "mistral-list": '[TOOL_CALLS][{"name": "divide", "arguments": {"a": 10, "b": 4}}]',
    "mistral-name": '[TOOL_CALLS]divide{"a": 10, "b": 4}',
    "mistral-args": '[TOOL_CALLS]divide[ARGS]{"a": 10, "b": 4}',
    "llama-python-tag": '<|python_tag|>{"name": "divide", "parameters": {"a": 10, "b": 4}}',
    "llama4-python-start": '<|python_start|>{"name": "divide", "parameters": {"a": 10, "b": 4}}<|python_end|>',
    "llama-function-tag": '<function=divide>{"a": 10, "b": 4}</function>',
    "qwen3-coder-xml": "<tool_call>\n<function=divide>\n<parameter=a>\n10\n</parameter>\n<parameter=b>\n4\n"
    "</parameter>\n</function>\n</tool_call>",
    "qwen3-coder-xml-unclosed": "<function=divide>\n<parameter=a> 10\n<parameter=b> 4\n",
    "lfm2-pythonic": "<|tool_call_start|>[divide(a=10, b=4)]<|tool_call_end|>",
    "gemma-tool-code": "```tool_code\nprint(default_api.divide(a=10, b=4))\n```",
    "hermes-html-escaped": f"<tool_call>{ESCAPED}</tool_call>",
    "bare-json-html-escaped": ESCAPED,
    "tool-calls-object": '{"tool_calls": [{"name": "divide", "arguments": {"a": 10, "b": 4}}]}',
    "python-dict": "<tool_call>{'name': 'divide', 'arguments': {'a': 10, 'b': 4}}</tool_call>",
    "hermes-broken-closing-tag": '<tool_call>{"name": "divide", "arguments": {"a": 10, "b": 4}}</tool_call}',
    "hermes-broken-closing-tag-lines": '<tool_call>\n{"name": "divide", "arguments": {"a": 10, "b": 4}}\n</tool_call}',
}


async def ask_through_the_service(fake: FakeOllama, folder: Path, question: str) -> tuple[list[Any], str]:
    """Run one turn as the faces do; the events, and the answer as stored."""
    db = ChatHistoryDB(folder / "history.sqlite")
    service = Application(db, make_agent(fake))
    events = [event async for event in service.turns.ask(question)]
    chat_id = service.workspaces.current_id
    assert chat_id is not None
    (stored,) = db.get_turns(chat_id)
    assert stored.status == "complete"
    return events, stored.assistant


@pytest.mark.parametrize("pieces", [1, 9])
@pytest.mark.parametrize("written", list(WRITTEN_CALLS.values()), ids=list(WRITTEN_CALLS))
async def test_written_call_runs_the_tool_and_never_reaches_the_answer(
    fake_ollama: FakeOllama, isolated: Path, written: str, pieces: int
) -> None:
    fake_ollama.script(Reply.text(written, pieces=pieces), Reply.text(ANSWER))
    events, stored = await ask_through_the_service(fake_ollama, isolated, "10 divided by 4?")
    assert [(c.name, c.arguments, c.output) for c in calls(events)] == [("divide", {"a": 10, "b": 4}, "2.5")]
    assert tool_messages(fake_ollama.chat_requests[1]) == [{"role": "tool", "content": "2.5", "tool_name": "divide"}]
    assert "".join(d.text for d in of_type(events, TextDelta)) == ANSWER
    assert completed(events).content == ANSWER and stored == ANSWER


@pytest.mark.parametrize(
    "written",
    [
        WRITTEN_CALLS["functions-colon"],
        WRITTEN_CALLS["mistral-args"],
        ESCAPED,
        WRITTEN_CALLS["hermes-broken-closing-tag-lines"],
    ],
    ids=["functions", "mistral", "escaped-json", "broken-closing-tag"],
)
async def test_prose_before_a_written_call_is_kept(fake_ollama: FakeOllama, isolated: Path, written: str) -> None:
    fake_ollama.script(Reply.text(f"Let me divide.\n{written}", pieces=6), Reply.text(ANSWER))
    # (prose then bare JSON is found only at the end, so what was streamed of it cannot be unshown)
    events, stored = await ask_through_the_service(fake_ollama, isolated, "10 divided by 4?")
    assert [c.output for c in calls(events)] == ["2.5"]
    assert "".join(d.text for d in of_type(events, TextDelta)) == f"Let me divide.\n\n{ANSWER}"
    assert stored == f"Let me divide.\n\n{ANSWER}"


async def test_an_indented_call_after_prose_is_kept_out_too(fake_ollama: FakeOllama, isolated: Path) -> None:
    written = 'Dividing:\n  functions.divide: {"a": 10, "b": 4}'
    fake_ollama.script(Reply.text(written, pieces=11), Reply.text(ANSWER))
    events, stored = await ask_through_the_service(fake_ollama, isolated, "10 divided by 4?")
    assert [c.output for c in calls(events)] == ["2.5"]
    shown = "".join(d.text for d in of_type(events, TextDelta))
    assert "functions" not in shown and "functions" not in stored
    assert shown.startswith("Dividing:") and shown.endswith(ANSWER) and stored.endswith(ANSWER)


async def test_a_call_on_a_line_of_its_own_amid_prose_runs(fake_ollama: FakeOllama, isolated: Path) -> None:
    written = 'Let me divide.\n{"name": "divide", "arguments": {"a": 10, "b": 4}}\nThen I will explain.'
    fake_ollama.script(Reply.text(written, pieces=8), Reply.text(ANSWER))
    events, stored = await ask_through_the_service(fake_ollama, isolated, "10 divided by 4?")
    assert [c.output for c in calls(events)] == ["2.5"]
    shown = "".join(d.text for d in of_type(events, TextDelta))
    assert "arguments" not in shown and "arguments" not in stored and "Then I will explain." in stored


async def test_two_calls_in_one_reply_both_run(fake_ollama: FakeOllama) -> None:
    written = "<|tool_call_start|>[divide(a=10, b=4), sqrt(x=16)]<|tool_call_end|>"
    fake_ollama.script(Reply.text(written, pieces=4), Reply.text("2.5 and 4."))
    events = await run(make_agent(fake_ollama), "10/4 and sqrt 16")
    assert [(c.name, c.output) for c in calls(events)] == [("divide", "2.5"), ("sqrt", "4.0")]


@pytest.mark.parametrize(
    "text",
    [
        'functions.cube_root:\n{"x": 27}',
        '[TOOL_CALLS]cube_root[ARGS]{"x": 27}',
        '<function=divide>{"a": 10, "b": __import__("os")}</function>',
        'functions.divide(a=__import__("os").system("echo hi"), b=1)',
        "functions.divide(10, 4)",
        'The section as JSON:\n```json\n{"beam": "W310x39", "span_m": 6}\n```',
        '{"name": "divide", "description": "Divide the first number by the second (a / b)."}',
        f'{{"name": "divide", "parameters": {DIVIDE_SCHEMA}}}',
        f'<tool_call>{{"name": "divide", "description": "Divide.", "parameters": {DIVIDE_SCHEMA}}}</tool_call>',
        f'{{"type": "function", "function": {{"name": "divide", "description": "Divide.", "parameters": '
        f"{DIVIDE_SCHEMA}}}}}",
        '{"name": "divide", "arguments": {"a": {"type": "number", "description": "The dividend."}, '
        '"b": {"type": "number"}}}',
        f"functions.divide:\n{DIVIDE_SCHEMA}",
    ],
    ids=[
        *("unknown-tool", "unknown-tool-mistral", "not-json", "not-a-literal", "positional", "fenced-json-data"),
        *("description-echo", "schema-as-parameters", "schema-echo-in-tags", "openai-schema-echo"),
        *("property-schemas-as-arguments", "schema-after-functions"),
    ],
)
async def test_text_that_is_not_a_call_of_a_known_tool_is_shown(fake_ollama: FakeOllama, text: str) -> None:
    fake_ollama.script(Reply.text(text, pieces=4))
    events = await run(make_agent(fake_ollama), "q")
    assert not of_type(events, ToolCallStarted)
    assert "".join(d.text for d in of_type(events, TextDelta)) == text
    assert completed(events).content == text.strip()


def test_arguments_named_like_schema_words_are_still_arguments() -> None:
    written = '{"name": "log_defect", "arguments": {"type": "crack", "description": "In beam B2", "required": true}}'
    visible, found = extract_text_tool_calls(written, {"log_defect"})
    assert (visible, found) == (
        "",
        [RequestedCall("log_defect", {"type": "crack", "description": "In beam B2", "required": True})],
    )


@pytest.mark.parametrize(
    "text",
    [
        "Use these functions. They are documented in EN 1990.",
        "functions are listed in the annex.\nThe [TOOL] column is empty.",
        "The load `q` is 12 kN/m;\nfor the footing see [EC7].",
        "In C:\n```c\nint span_mm(void)\n{\n    return 6000;\n}\n```\nThat is all.",
    ],
)
async def test_prose_that_mentions_functions_streams_at_once(fake_ollama: FakeOllama, text: str) -> None:
    fake_ollama.script(Reply.text(text, pieces=6))
    events = await run(make_agent(fake_ollama), "q")
    assert len(of_type(events, TextDelta)) >= 4, "ordinary prose is not held back until the end"
    assert "".join(d.text for d in of_type(events, TextDelta)) == text


async def test_a_written_call_in_the_step_limit_round_is_not_shown(fake_ollama: FakeOllama) -> None:
    fake_ollama.responder = lambda body: (
        Reply.text('functions.divide:\n{"a": 10, "b": 4}')
        if not body.get("tools")
        else Reply.tool_calls(("sqrt", {"x": 16}))
    )
    events = await run(make_agent(fake_ollama, max_tool_rounds=1), "q")
    assert not of_type(events, TextDelta) and completed(events).content == ""
    assert [c.name for c in calls(events)] == ["sqrt"], "the call written in the last round is not run"


def test_every_written_call_s_marker_is_found_after_prose() -> None:
    """`find_marker` passes over a text without any character a marker begins with: each way of writing a call
    still has one (a marker added with a new first character would otherwise stay in the answer unnoticed)."""
    for written in WRITTEN_CALLS.values():
        assert find_marker(f"The answer.\n{written}") is not None, written
        assert find_marker(f"The answer.\n{written}", len("The answer.\n")) is not None, written
