"""Text every face writes the same way: a tool call as one line."""

from __future__ import annotations

from typing import Any


def call_signature(name: str, arguments: dict[str, Any]) -> str:
    """`sqrt(x=144)`: a tool call as one readable line."""
    return f"{name}({', '.join(f'{key}={value!r}' for key, value in arguments.items())})"
