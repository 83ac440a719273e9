"""The typed events of a turn: what `AIAgent.stream` yields and every face renders, and nothing else."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from domain.records import ToolCall

StopReason = Literal["end_turn", "max_tool_rounds", "error", "stopped"]
ErrorCode = Literal[
    "PROVIDER_UNAVAILABLE",
    "MODEL_NOT_FOUND",
    "TIMEOUT",
    "PROVIDER_ERROR",
    "TOOL_ERROR",
    "CONTEXT_OVERFLOW",
    "EMPTY_ANSWER",
    "INTERNAL_ERROR",
    "IMAGES_UNSUPPORTED",
]
WarningCode = Literal[
    "CONTEXT_TRIMMED", "CONTEXT_FULL", "ANSWER_CUT", "TOOLS_UNSUPPORTED", "STEP_LIMIT", "TOOL_CALLS_CAPPED"
]


class TextDelta(BaseModel):
    """A piece of the answer's text."""

    type: Literal["text"] = "text"
    text: str


class ThinkingDelta(BaseModel):
    """A piece of the model's reasoning, shown apart from the answer."""

    type: Literal["thinking"] = "thinking"
    text: str


class ToolCallStarted(BaseModel):
    """The model asked for a tool; it is about to run."""

    type: Literal["tool_call_started"] = "tool_call_started"
    id: str
    name: str
    arguments: dict[str, Any]


class ToolCallFinished(BaseModel):
    """A tool call's result (or error); `repeated` marks a result reused from the same call earlier in the turn."""

    type: Literal["tool_call_finished"] = "tool_call_finished"
    call: ToolCall
    repeated: bool = False


class WarningEvent(BaseModel):
    """Something the user should know that did not stop the turn."""

    type: Literal["warning"] = "warning"
    code: WarningCode
    message: str


class WaitingForServer(BaseModel):
    """Every Ollama server that has the turn's model runs as many turns as it may (MAX_TURNS_PER_SERVER), so the
    turn waits in line: `position` 1 is next, and `ahead` turns are before it. A last one with `position` 0 says
    the wait is over and which server took the turn. `servers` is how many servers have the model."""

    type: Literal["waiting"] = "waiting"
    position: int
    ahead: int = 0
    servers: int = 1
    message: str


class Usage(BaseModel):
    """Tokens the server counted for the whole turn (all rounds)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


class TurnCompleted(BaseModel):
    """The last event of every turn, whatever happened: what to show and store.

    `turn_id` is set once the turn is stored (by the application service).
    """

    type: Literal["turn_completed"] = "turn_completed"
    content: str
    thinking: str = ""
    tool_calls: list[ToolCall] = []
    usage: Usage = Usage()
    stop_reason: StopReason
    model: str
    duration_ms: float = 0.0
    error: str | None = None
    turn_id: int | None = None


class ErrorEvent(BaseModel):
    """The turn failed; `message` is the one sentence to show the user."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    recoverable: bool = True


AgentEvent = Annotated[
    TextDelta
    | ThinkingDelta
    | ToolCallStarted
    | ToolCallFinished
    | WarningEvent
    | WaitingForServer
    | TurnCompleted
    | ErrorEvent,
    Field(discriminator="type"),
]


class AgentError(Exception):
    """A failure with a code and one sentence for the user (raised by `summarize_history`)."""

    def __init__(self, code: ErrorCode, message: str, recoverable: bool = True) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.recoverable = recoverable

    def to_event(self) -> ErrorEvent:
        return ErrorEvent(code=self.code, message=self.message, recoverable=self.recoverable)
