"""A tool call the model asked for: in Ollama's `tool_calls`, or written in its text (read by this package)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RequestedCall:
    """A call the model asked for, in `tool_calls` or written in its text."""

    name: str
    arguments: dict[str, Any] | str
