"""The replies the fake Ollama can be scripted with: streamed text, tool calls, HTTP errors, and faults.

A `Reply` is a list of steps: each dict is one NDJSON chunk as Ollama sends it;
`Hang`, `Pause`, `Gate`, `Drop` and `Raw` act out what real servers and networks do.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Hang:
    """Stop answering (until the server shuts down or `seconds` pass)."""

    seconds: float = 60.0


@dataclass(frozen=True)
class Pause:
    """Wait `seconds`, then go on streaming (a model that thinks between pieces)."""

    seconds: float


@dataclass(frozen=True)
class Gate:
    """Wait until the test opens `gate` (or `seconds` pass), then go on streaming: a model that is still
    writing while the test does something (closes the page), with no sleep to guess how long that takes."""

    gate: threading.Event = field(default_factory=threading.Event)
    seconds: float = 60.0


@dataclass(frozen=True)
class Drop:
    """Close the connection abruptly, mid-body."""


@dataclass(frozen=True)
class Raw:
    """A line sent exactly as given (garbage, or an `{"error": …}` line)."""

    line: str


Step = dict[str, Any] | Hang | Pause | Gate | Drop | Raw
CHARS_PER_TOKEN = 4  # how the fake counts an answer's tokens


@dataclass
class Reply:
    """One scripted answer to `/api/chat`: an HTTP status, or a sequence of streamed steps."""

    steps: list[Step] = field(default_factory=list)
    status: int = 200
    error: str | dict[str, Any] | None = None  # the body's "error": Ollama's sentence, or llama.cpp's object

    @classmethod
    def text(
        cls,
        text: str,
        *,
        pieces: int = 3,
        thinking: str = "",
        prompt_tokens: int = 42,
        completion_tokens: int | None = None,
        done_reason: str = "stop",
    ) -> Reply:
        """A streamed answer split into `pieces` content chunks (after any thinking chunks)."""
        steps: list[Step] = [chunk(thinking=part) for part in _split(thinking, pieces)]
        steps += [chunk(content=part) for part in _split(text, pieces)]
        steps.append(final(done_reason, prompt_tokens, completion_tokens or max(len(text) // CHARS_PER_TOKEN, 1)))
        return cls(steps)

    @classmethod
    def slow(cls, text: str, seconds: float, pieces: int = 3) -> Reply:
        """A streamed answer with a pause of `seconds` before each piece."""
        steps: list[Step] = []
        for step in cls.text(text, pieces=pieces).steps:
            steps += [Pause(seconds), step]
        return cls(steps)

    @classmethod
    def tool_calls(cls, *calls: tuple[str, Any], content: str = "", prompt_tokens: int = 42) -> Reply:
        """A message asking for tools: `("sqrt", {"x": 144})`, …"""
        wire = [
            {"id": f"call_{i}", "function": {"index": i, "name": n, "arguments": a}} for i, (n, a) in enumerate(calls)
        ]
        steps: list[Step] = [chunk(content=part) for part in _split(content, 2)]
        steps += [chunk(tool_calls=wire), final("stop", prompt_tokens, 12)]
        return cls(steps)

    @classmethod
    def http_error(cls, status: int, message: str | dict[str, Any]) -> Reply:
        return cls(status=status, error=message)

    @classmethod
    def context_exceeded(cls, n_prompt_tokens: int = 9_000, n_ctx: int = 8_192, status: int = 400) -> Reply:
        """A llama.cpp-based server refusing a prompt longer than its context (ggml-org/llama.cpp#15780)."""
        return cls.http_error(
            status,
            {
                "code": status,
                "message": f"request ({n_prompt_tokens} tokens) exceeds the available context size "
                f"({n_ctx} tokens), try increasing it",
                "type": "exceed_context_size_error",
                "n_prompt_tokens": n_prompt_tokens,
                "n_ctx": n_ctx,
            },
        )

    @classmethod
    def input_exceeds_context(cls) -> Reply:
        """Ollama refusing an input longer than the context length."""
        return cls.http_error(500, "input length exceeds the context length")

    @classmethod
    def then(cls, text: str, fault: Step) -> Reply:
        """Some streamed text, then a fault step (no final chunk)."""
        return cls([*(chunk(content=part) for part in _split(text, 2)), fault])


def _split(text: str, pieces: int) -> list[str]:
    if not text:
        return []
    size = max(1, -(-len(text) // pieces))
    return [text[i : i + size] for i in range(0, len(text), size)]


def chunk(content: str = "", thinking: str = "", tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if thinking:
        message["thinking"] = thinking
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {"message": message, "done": False}


def final(done_reason: str, prompt_tokens: int, completion_tokens: int) -> dict[str, Any]:
    return {
        "message": {"role": "assistant", "content": ""},
        "done": True,
        "done_reason": done_reason,
        "total_duration": 1_000_000,
        "load_duration": 10_000,
        "prompt_eval_count": prompt_tokens,
        "prompt_eval_duration": 100_000,
        "eval_count": completion_tokens,
        "eval_duration": 500_000,
    }


def bounded(steps: Sequence[Step], num_predict: int | None) -> list[Step]:
    """The steps as a server whose answers may take `num_predict` tokens sends them (Ollama's `num_predict`;
    none, 0 or below: no bound): content beyond that many tokens, at `CHARS_PER_TOKEN`, is cut, and the reply
    ends with done_reason "length"."""
    if not num_predict or num_predict < 0:
        return list(steps)
    room = num_predict * CHARS_PER_TOKEN
    sent: list[Step] = []
    for step in steps:
        content = step["message"].get("content", "") if isinstance(step, dict) else ""
        if len(content) <= room:
            room -= len(content)
            sent.append(step)
            continue
        assert isinstance(step, dict)
        sent.append({**step, "message": {**step["message"], "content": content[:room]}})
        prompt_tokens = next((s["prompt_eval_count"] for s in steps if isinstance(s, dict) and s.get("done")), 42)
        return [*sent, final("length", prompt_tokens, num_predict)]
    return sent


def aggregate(steps: Sequence[Step]) -> dict[str, Any]:
    """The non-streaming body for a scripted reply: the chunks merged into one message."""
    message: dict[str, Any] = {"role": "assistant", "content": ""}
    final: dict[str, Any] = {}
    for step in steps:
        if not isinstance(step, dict):
            continue
        part = step["message"]
        message["content"] += part.get("content", "")
        if part.get("thinking"):
            message["thinking"] = message.get("thinking", "") + part["thinking"]
        if part.get("tool_calls"):
            message.setdefault("tool_calls", []).extend(part["tool_calls"])
        if step.get("done"):
            final = {k: v for k, v in step.items() if k != "message"}
    return {**final, "message": message}
