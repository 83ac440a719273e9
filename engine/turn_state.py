"""What a turn, and each request to the model within it, has produced so far.

`TurnState` is the one record of a turn in progress: the agent fills it, and
whoever runs the turn can store it even if the stream is cut off part-way.
What the model sends is capped whatever the server lets through: the answer and
its thinking at `MAX_ANSWER_CHARS` a turn, the tool calls run at
`MAX_TOOL_CALLS_PER_REPLY` a reply (the others are counted, to be refused).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ollama import ChatResponse

from domain.events import AgentEvent, StopReason, TextDelta, ThinkingDelta, TurnCompleted, Usage
from domain.records import ToolCall
from engine.text_calls.filter import TextCallFilter
from engine.text_calls.requested import RequestedCall
from tools.registry import arguments_for_display

MAX_ANSWER_CHARS = 2_000_000  # of answer and thinking in one turn: megabytes more are a model gone wrong
MAX_TOOL_CALLS_PER_REPLY = 32
# TextDelta(text=…) without the Python frame of BaseModel.__init__ around the same validation: a quarter of the
# event's cost, made once per streamed piece
_text_delta = TextDelta.__pydantic_validator__.validate_python


@dataclass
class TurnState:
    """The whole turn: its answer text (across rounds), thinking, tool calls, usage and ending."""

    content: str = ""
    thinking: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stop_reason: StopReason = "end_turn"
    error: str | None = None
    warned: set[str] = field(default_factory=set)
    started: float = field(default_factory=time.perf_counter)
    received_chars: int = 0  # of answer and thinking, held-back text included

    def add_usage(self, prompt_tokens: int, completion_tokens: int) -> None:
        self.usage = Usage(
            prompt_tokens=self.usage.prompt_tokens + prompt_tokens,
            completion_tokens=self.usage.completion_tokens + completion_tokens,
        )

    def completed(self, model: str, stop_reason: StopReason | None = None) -> TurnCompleted:
        """The turn as it stands: finished, or (given `stop_reason="stopped"`) cut off with what arrived."""
        return TurnCompleted(
            content=self.content.strip(),
            thinking=self.thinking,
            tool_calls=list(self.tool_calls),
            usage=self.usage,
            stop_reason=stop_reason or self.stop_reason,
            model=model,
            duration_ms=(time.perf_counter() - self.started) * 1000,
            error=self.error,
        )


@dataclass
class RoundState:
    """One request to the model: its tool calls and counts, and its share of the turn's text.

    Text goes through a `TextCallFilter`, so a tool call the model writes as text
    is held back; a round's text is set apart from the previous round's by a
    blank line.
    """

    turn: TurnState
    text_filter: TextCallFilter
    thinking: str = ""
    content: str = ""
    tool_calls: list[RequestedCall] = field(default_factory=list)
    done_reason: str | None = None
    answer_limit: int = 0  # the request's num_predict
    prompt_tokens: int = 0
    completion_tokens: int = 0
    oversized: bool = False  # the answer reached MAX_ANSWER_CHARS: the rest of the reply is not read
    refused_calls: int = 0  # tool calls beyond MAX_TOOL_CALLS_PER_REPLY
    refused_name: str = ""  # the first of them

    def __post_init__(self) -> None:
        self._start = len(self.turn.content)
        before = self.turn.content.rstrip(" ")
        self._prefix = "" if not before or before.endswith("\n\n") else "\n" if before.endswith("\n") else "\n\n"

    def take(self, chunk: ChatResponse) -> list[AgentEvent]:
        """One streamed chunk taken in (within the caps): the thinking and text it shows; its calls and counts."""
        message = chunk.message
        piece = message.content
        turn = self.turn
        if message.thinking or message.tool_calls or chunk.done or not piece:
            return self._take_whole(chunk)
        if turn.received_chars + len(piece) > MAX_ANSWER_CHARS:
            return self._take_whole(chunk)
        # The common chunk, once per piece of every answer: answer text alone, within the cap (`_within_cap` need not
        # cut it), taken in with as little as can be, as the chunks of a long answer are many (`text`, inline).
        turn.received_chars += len(piece)
        visible = self.text_filter.feed(piece)
        if not visible:
            return []
        if len(turn.content) == self._start:  # the round's first text: after the previous round's, a blank line
            visible = self._prefix + visible
        turn.content += visible
        return [_text_delta({"text": visible})]

    def _take_whole(self, chunk: ChatResponse) -> list[AgentEvent]:
        events: list[AgentEvent] = []
        message = chunk.message
        if message.thinking and (thinking := self._within_cap(message.thinking)):
            self.thinking += thinking
            self.turn.thinking += thinking
            events.append(ThinkingDelta(text=thinking))
        if message.content and (text := self.text(self._within_cap(message.content))):
            events.append(TextDelta(text=text))
        for call in message.tool_calls or ():
            self._add_calls([RequestedCall(call.function.name, dict(call.function.arguments or {}))])
        if chunk.done:
            self.done_reason = chunk.done_reason
            self.prompt_tokens = chunk.prompt_eval_count or 0
            self.completion_tokens = chunk.eval_count or 0
        return events

    def _within_cap(self, piece: str) -> str:
        room = MAX_ANSWER_CHARS - self.turn.received_chars
        if len(piece) > room:
            piece, self.oversized = piece[: max(room, 0)], True
        self.turn.received_chars += len(piece)
        return piece

    def _add_calls(self, calls: list[RequestedCall]) -> None:
        room = MAX_TOOL_CALLS_PER_REPLY - len(self.tool_calls)
        self.tool_calls += calls[: max(room, 0)]
        if len(calls) > room:
            self.refused_name = self.refused_name or calls[max(room, 0)].name
            self.refused_calls += len(calls) - max(room, 0)

    def text(self, piece: str) -> str:
        """The part of `piece` to show now (perhaps none), added to the turn's text."""
        return self._append(self.text_filter.feed(piece))

    def assistant_message(self) -> dict[str, Any]:
        """The round as the assistant's message in the conversation sent back to the model."""
        message: dict[str, Any] = {
            "role": "assistant",
            "content": self.content,
            "tool_calls": [
                {"function": {"name": c.name, "arguments": arguments_for_display(c.arguments)}} for c in self.tool_calls
            ],
        }
        if self.thinking:
            message["thinking"] = self.thinking
        return message

    def add_text(self, text: str) -> str:
        """Text of our own for the round (not the model's, so not filtered), as it is to be shown."""
        self.content += text
        return self._append(text)

    def keep_held_text(self) -> None:
        """The round ended early: keep what was held back, so no received text is lost."""
        self.turn.content += self._gap() + self.text_filter.held()

    def finish(self) -> str:
        """The last text to show; tool calls written in the text become the round's calls."""
        tail, self.content, written_calls = self.text_filter.finish()
        if not written_calls:
            return self._append(tail)
        if not self.tool_calls:
            self._add_calls(written_calls)
        displayed = self.turn.content[self._start :]
        visible = self.content if self.content.strip() else ""
        self.turn.content = self.turn.content[: self._start] + (self._prefix + visible if visible else "")
        if not tail.strip():
            return ""
        return tail if displayed else self._prefix + tail

    def _gap(self) -> str:
        return self._prefix if len(self.turn.content) == self._start else ""

    def _append(self, visible: str) -> str:
        if not visible:
            return ""
        text = self._gap() + visible
        self.turn.content += text
        return text
