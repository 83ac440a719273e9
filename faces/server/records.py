"""The application's events and records in the protocol's shapes: turn events, ToolCall, Turn, sessions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from domain.events import (
    AgentEvent,
    ErrorEvent,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnCompleted,
    WaitingForServer,
    WarningEvent,
)
from domain.records import ToolCall, Turn, Workspace
from faces.server.protocol import ErrorCode, Event, error_event, event

# The agent's own failure kinds, as the protocol's codes (the kind goes in `details`).
ERROR_CODES: dict[str, ErrorCode] = {
    "TIMEOUT": "TIMEOUT",
    "TOOL_ERROR": "TOOL_ERROR",
    "INTERNAL_ERROR": "INTERNAL_ERROR",
}
STOP_REASONS = {"end_turn": "end_turn", "max_tool_rounds": "tool_use", "error": "error", "stopped": "cancelled"}


def tool_call(call: ToolCall) -> dict[str, Any]:
    """The seed's ToolCall: {id, name, input, output, error?}."""
    shown: dict[str, Any] = {"id": call.id, "name": call.name, "input": call.arguments, "output": call.output}
    if call.error:
        shown["error"] = call.error
    return shown


def usage(prompt: int | None, completion: int | None) -> dict[str, int]:
    inputs, outputs = prompt or 0, completion or 0
    return {"inputTokens": inputs, "outputTokens": outputs, "totalTokens": inputs + outputs}


def milliseconds(stamp: str | None) -> int | None:
    """The store's UTC text time as Unix milliseconds."""
    if not stamp:
        return None
    parsed = datetime.fromisoformat(stamp.replace(" ", "T"))
    return int(parsed.replace(tzinfo=parsed.tzinfo or UTC).timestamp() * 1000)


def turn(record: Turn, images: list[str] | None = None) -> dict[str, Any]:
    """The seed's Turn: {id, request: {content, images?}, response: {content}, toolCalls, usage, timestamp}, its
    pictures in base64."""
    return {
        "id": str(record.turn_id),
        "request": {"content": record.user, **({"images": images} if images else {})},
        "response": {"content": record.assistant},
        "toolCalls": [tool_call(call) for call in record.tool_calls],
        "usage": usage(record.prompt_tokens, record.completion_tokens),
        "timestamp": milliseconds(record.created_at),
        "status": record.status,
    }


def session_entry(chat: Workspace, turns: int) -> dict[str, Any]:
    return {
        "sessionID": str(chat.chat_id),
        "name": chat.chat_name,
        "updatedAt": milliseconds(chat.last_active_at or chat.created_at),
        "turns": turns,
    }


async def turn_events(
    events: AsyncIterator[AgentEvent], request_id: str, turn_id: str, session_id: str
) -> AsyncIterator[Event]:
    """A dispatch's events after `turn-started`: chunks, tool calls and results, its place in line while every
    server is busy, errors, and `turn-completed` last."""
    cut_short = False
    async for item in events:
        if isinstance(item, TextDelta):
            yield event("response-chunk", request_id, delta=item.text)
        elif isinstance(item, ToolCallStarted):
            yield event("tool-call", request_id, toolID=item.id, name=item.name, input=item.arguments)
        elif isinstance(item, ToolCallFinished):
            yield tool_result(request_id, item.call)
            if item.call.error:
                details = {"tool": item.call.name, "toolID": item.call.id}
                yield error_event(request_id, "TOOL_ERROR", item.call.error, details=details)
        elif isinstance(item, WarningEvent):
            cut_short = cut_short or item.code == "ANSWER_CUT"
        elif isinstance(item, WaitingForServer):
            yield event(
                "turn-waiting",
                request_id,
                position=item.position,
                ahead=item.ahead,
                servers=item.servers,
                message=item.message,
            )
        elif isinstance(item, ErrorEvent):
            code = ERROR_CODES.get(item.code, "PROVIDER_ERROR")
            yield error_event(request_id, code, item.message, item.recoverable, {"kind": item.code})
        elif isinstance(item, TurnCompleted):
            yield completed(request_id, turn_id, session_id, item, cut_short)


def tool_result(request_id: str, call: ToolCall) -> Event:
    extra = {"error": call.error} if call.error else {}
    return event(
        "tool-result", request_id, toolID=call.id, output=call.output, duration=round(call.duration_ms), **extra
    )


def completed(request_id: str, turn_id: str, session_id: str, done: TurnCompleted, cut_short: bool) -> Event:
    reason = "max_tokens" if cut_short and done.stop_reason == "end_turn" else STOP_REASONS[done.stop_reason]
    return event(
        "turn-completed",
        request_id,
        turnID=turn_id,
        sessionID=session_id,
        storedTurnID=None if done.turn_id is None else str(done.turn_id),
        content=done.content,
        toolCalls=[tool_call(call) for call in done.tool_calls],
        usage=usage(done.usage.prompt_tokens, done.usage.completion_tokens),
        stopReason=reason,
    )


@dataclass
class TurnSoFar:
    """What a dispatch's events said so far, to end it with `turn-completed` when the turn itself cannot (the
    chat history could not store it, or the server failed): the text and tool calls that arrived, not stored."""

    request_id: str
    turn_id: str
    session_id: str
    chunks: list[str] = field(default_factory=list)
    calls: dict[str, dict[str, Any]] = field(default_factory=dict)
    ended: bool = False

    def saw(self, item: Event) -> None:
        kind = item["type"]
        if kind == "response-chunk":
            self.chunks.append(item["delta"])
        elif kind == "tool-call":
            self.calls[item["toolID"]] = {"id": item["toolID"], "name": item["name"], "input": item["input"],
                                          "output": ""}  # fmt: skip
        elif kind == "tool-result" and item["toolID"] in self.calls:
            shown = self.calls[item["toolID"]]
            shown["output"] = item["output"]
            if "error" in item:
                shown["error"] = item["error"]
        elif kind == "turn-completed":
            self.ended = True

    def failed(self, message: str) -> list[Event]:
        """An `error` saying why, then `turn-completed` with stopReason `error` (nothing if the turn had ended)."""
        if self.ended:
            return []
        return [
            error_event(self.request_id, "INTERNAL_ERROR", message),
            event(
                "turn-completed", self.request_id, turnID=self.turn_id, sessionID=self.session_id, storedTurnID=None,
                content="".join(self.chunks), toolCalls=list(self.calls.values()), usage=usage(None, None),
                stopReason="error",
            ),
        ]  # fmt: skip
