"""What a face has seen of a turn so far, so an interrupted turn can still be stored."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.events import AgentEvent, ToolCallFinished, TurnCompleted
from core.records import ToolCallRecord


@dataclass
class Transcript:
    """Collects a turn's events; `completed` is set when the agent finishes it."""

    text: str = ""
    thinking: str = ""
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    completed: TurnCompleted | None = None

    def add(self, event: AgentEvent) -> None:
        if event.type == "text":
            self.text += event.text
        elif event.type == "thinking":
            self.thinking += event.text
        elif isinstance(event, ToolCallFinished):
            self.tool_calls.append(ToolCallRecord.model_validate(event.model_dump(exclude={"type", "id", "repeated"})))
        elif isinstance(event, TurnCompleted):
            self.completed = event

    def outcome(self, model: str) -> TurnCompleted:
        """The finished turn, or, if it was cut off before finishing, a stopped one with what arrived."""
        if self.completed is not None:
            return self.completed
        return TurnCompleted(
            content=self.text.strip(),
            thinking=self.thinking,
            tool_calls=self.tool_calls,
            stop_reason="stopped",
            model=model,
        )
