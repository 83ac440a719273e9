"""The application's events and records in the shapes of OpenAI's chat API: a completion, its chunks, the model
list, errors, and the answer's content with the tools' results as the other faces show them."""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from app.reports.exports import calculation_markdown, fenced
from domain.events import AgentEvent, ErrorEvent, TextDelta, ToolCallFinished, TurnCompleted
from domain.records import ToolCall
from faces.text import call_signature

INLINE_OUTPUT = 200  # a tool's one-line result up to this long is written after its call; a longer one in a block
LONGEST_OUTPUT = 4000  # of a tool's result in the answer (the stored turn keeps it whole)
_BACKTICKS = re.compile(r"`+")

# The agent's failures as HTTP statuses, OpenAI's error types and codes: (status, type, code).
TURN_FAILURES: dict[str, tuple[int, str, str]] = {
    "CONTEXT_OVERFLOW": (400, "invalid_request_error", "context_length_exceeded"),
    "MODEL_NOT_FOUND": (404, "invalid_request_error", "model_not_found"),
    "PROVIDER_UNAVAILABLE": (503, "server_error", "provider_unavailable"),
    "TIMEOUT": (504, "server_error", "timeout"),
}
OTHER_FAILURE = (502, "server_error", "provider_error")


class ApiError(Exception):
    """A request the API refuses or a turn that failed: `{"error": {"message", "type", "code"}}` with a status."""

    def __init__(self, status: int, message: str, kind: str, code: str) -> None:
        super().__init__(message)
        self.status, self.message, self.kind, self.code = status, message, kind, code

    def body(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "type": self.kind, "code": self.code}}


def turn_failure(event: ErrorEvent | None, fallback: str) -> ApiError:
    """A turn that ended in an error, as the API says it (`fallback`: the sentence when no error event came)."""
    if event is None:
        return ApiError(500, fallback, "server_error", "internal_error")
    status, kind, code = TURN_FAILURES.get(event.code, OTHER_FAILURE)
    return ApiError(status, event.message, kind, code if event.code in TURN_FAILURES else event.code.lower())


def models_list(names: list[str]) -> dict[str, Any]:
    created = int(time.time())
    models = [{"id": name, "object": "model", "created": created, "owned_by": "ollama"} for name in names]
    return {"object": "list", "data": models}


def usage(done: TurnCompleted | None) -> dict[str, int]:
    prompt = (done.usage.prompt_tokens or 0) if done else 0
    completion = (done.usage.completion_tokens or 0) if done else 0
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


@dataclass(frozen=True)
class Reply:
    """One completion's identity: its id, its time and the model it names."""

    model: str
    id: str = field(default_factory=lambda: f"chatcmpl-{uuid.uuid4().hex}")
    created: int = field(default_factory=lambda: int(time.time()))

    def completion(self, content: str, done: TurnCompleted | None) -> dict[str, Any]:
        """The whole answer: one `chat.completion`."""
        message = {"role": "assistant", "content": content}
        choice = {"index": 0, "message": message, "finish_reason": "stop", "logprobs": None}
        return {**self._head("chat.completion"), "choices": [choice], "usage": usage(done)}

    def chunk(self, delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
        """One `chat.completion.chunk` as a server-sent event."""
        choice = {"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}
        return event({**self._head("chat.completion.chunk"), "choices": [choice]})

    def usage_chunk(self, done: TurnCompleted | None) -> bytes:
        """The chunk with the usage and no choice (asked for with `stream_options: {"include_usage": true}`)."""
        return event({**self._head("chat.completion.chunk"), "choices": [], "usage": usage(done)})

    def _head(self, kind: str) -> dict[str, Any]:
        return {"id": self.id, "object": kind, "created": self.created, "model": self.model}


def event(payload: dict[str, Any]) -> bytes:
    """`data: <JSON>` and the blank line that ends a server-sent event."""
    return b"data: " + json.dumps(payload, separators=(",", ":")).encode() + b"\n\n"


DONE = b"data: [DONE]\n\n"


class Content:
    """The answer's content as it grows, event by event: each tool's result as the other faces show it (a
    calculation as the report lays it out), and the model's text, in the order they came."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._tail = ""  # the last characters written, to know what separates the next piece
        self.failure: ErrorEvent | None = None
        self.done: TurnCompleted | None = None

    @property
    def text(self) -> str:
        return "".join(self._parts)

    def add(self, item: AgentEvent) -> str:
        """What `item` adds to the content ("" for nothing); a failure and the completed turn are kept."""
        if isinstance(item, TextDelta):
            return self._written(item.text)
        if isinstance(item, ToolCallFinished):
            return self._written(self._apart() + tool_markdown(item.call) + "\n\n")
        if isinstance(item, ErrorEvent):
            self.failure = item
        elif isinstance(item, TurnCompleted):
            self.done = item
        return ""

    def _apart(self) -> str:
        """What separates a tool's block from the text before it."""
        if not self._tail or self._tail.endswith("\n\n"):
            return ""
        return "\n" if self._tail.endswith("\n") else "\n\n"

    def _written(self, piece: str) -> str:
        if piece:
            self._parts.append(piece)
            self._tail = (self._tail + piece)[-2:]
        return piece


def tool_markdown(call: ToolCall) -> str:
    """`**Tool** \\`add(a=2, b=3)\\` → 5.0`; a calculation with its results, checks and verdict as the report lays
    them out; a long result in a block; an error in a sentence."""
    head = f"**Tool** {_code(call_signature(call.name, call.arguments))}"
    if call.error:
        return f"{head} failed: {call.error}"
    if call.calculation is not None:
        return "\n".join([head, "", *calculation_markdown(call.calculation)]).rstrip()
    output = call.output.strip()
    if "\n" not in output and len(output) <= INLINE_OUTPUT:
        return f"{head} → {output}"
    shown = output if len(output) <= LONGEST_OUTPUT else output[:LONGEST_OUTPUT] + "\n…"
    return f"{head}\n\n{fenced(shown)}"


def _code(text: str) -> str:
    """`text` as inline code, whatever backticks it holds."""
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{padding}{text}{padding}{fence}"
