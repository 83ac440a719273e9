"""What a turn, and each request to the model within it, has produced so far."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.events import StopReason, Usage
from core.records import ToolCallRecord
from core.text_tool_calls import TextCallFilter
from core.tool_calls import ToolCall


@dataclass
class TurnState:
    """The whole turn: its answer text (across rounds), thinking, tool calls, usage and ending."""

    content: str = ""
    thinking: str = ""
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stop_reason: StopReason = "end_turn"
    warned: set[str] = field(default_factory=set)

    def add_usage(self, prompt_tokens: int, completion_tokens: int) -> None:
        self.usage = Usage(
            prompt_tokens=self.usage.prompt_tokens + prompt_tokens,
            completion_tokens=self.usage.completion_tokens + completion_tokens,
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
    tool_calls: list[ToolCall] = field(default_factory=list)
    done_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __post_init__(self) -> None:
        self._start = len(self.turn.content)
        needs_gap = self.turn.content and not self.turn.content.endswith("\n")
        self._prefix = "\n\n" if needs_gap else ""

    def text(self, piece: str) -> str:
        """The part of `piece` to show now (perhaps none), added to the turn's text."""
        visible = self.text_filter.feed(piece)
        if visible and len(self.turn.content) != self._start:  # not the round's first text: no gap to add
            self.turn.content += visible
            return visible
        return self._append(visible)

    def keep_held_text(self) -> None:
        """The round ended early: keep what was held back, so no received text is lost."""
        self.turn.content += self._gap() + self.text_filter.held()

    def finish(self) -> str:
        """The last text to show; tool calls written in the text become the round's calls."""
        tail, self.content, written_calls = self.text_filter.finish()
        if not written_calls:
            return self._append(tail)
        if not self.tool_calls:
            self.tool_calls = written_calls
        visible = self.content.strip()
        self.turn.content = self.turn.content[: self._start] + (self._prefix + visible if visible else "")
        return tail  # for display only: the turn's text was set from the whole round just above

    def _gap(self) -> str:
        return self._prefix if len(self.turn.content) == self._start else ""

    def _append(self, visible: str) -> str:
        if not visible:
            return ""
        text = self._gap() + visible
        self.turn.content += text
        return text
