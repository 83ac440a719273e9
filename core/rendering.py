"""Text for the faces: safe Markdown, tool-call lines, captions and the Markdown export.

Model text is rendered as Markdown, but nothing in it may make the browser fetch
something (an image) or run something (a `javascript:` link); user text is
shown as typed, so it is escaped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from core.records import Chat, Turn

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=])")
_INLINE_IMAGE = re.compile(r"!\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+[^)]*)?\)")
_REFERENCE_IMAGE = re.compile(r"!\[([^\]]*)\]\[[^\]]*\]")
_REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+.*$", re.MULTILINE)
_UNSAFE_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?\s*(?:javascript|vbscript|data|file):[^)]*\)", re.IGNORECASE)
_BARE_UNSAFE_URL = re.compile(r"\b(?:javascript|vbscript):", re.IGNORECASE)


def escape_markdown(text: str) -> str:
    """User text shown exactly as typed: Markdown and HTML characters escaped, line breaks kept."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text).replace("\n", "  \n")


def safe_markdown(text: str) -> str:
    """Model Markdown with images turned into plain links and script links into plain text."""
    text = _INLINE_IMAGE.sub(lambda m: f"[image: {m.group(1) or 'untitled'}] ({escape_markdown(m.group(2))})", text)
    text = _REFERENCE_IMAGE.sub(lambda m: f"[image: {m.group(1) or 'untitled'}]", text)
    text = _REFERENCE_DEFINITION.sub(lambda m: escape_markdown(m.group(0)), text)
    text = _UNSAFE_LINK.sub(lambda m: m.group(1), text)
    return _BARE_UNSAFE_URL.sub(lambda m: m.group(0).replace(":", "\\:"), text)


_UNIT_DISPLAY = ((" ** 2", "²"), (" ** 3", "³"), (" ** 4", "⁴"), (" * ", "·"), (" / ", "/"))


def pretty_units(text: str) -> str:
    """ "54 kN * m" → "54 kN·m", "10 m ** 3" → "10 m³": for reading, not for parsing back."""
    for plain, pretty in _UNIT_DISPLAY:
        text = text.replace(plain, pretty)
    return text


def calculation_lines(data: dict[str, Any]) -> list[str]:
    """A calculation result as short lines: formula, substitution, results, checks, reference."""
    lines = []
    if data.get("substituted"):
        lines.append(pretty_units(data["substituted"]))
    elif data.get("formula"):
        lines.append(data["formula"])
    results = " · ".join(f"{key} {pretty_units(value)}" for key, value in data.get("results", {}).items())
    if results:
        lines.append(results)
    for check in data.get("checks", []):
        lines.append(
            f"{check['status']}: {check['name']} ({pretty_units(check['value'])} vs {pretty_units(check['limit'])})"
        )
    if data.get("reference"):
        lines.append(f"[{data['reference']}]")
    return lines


def call_signature(name: str, arguments: dict[str, Any]) -> str:
    """`sqrt(x=144)`: a tool call as one readable line."""
    return f"{name}({', '.join(f'{key}={value!r}' for key, value in arguments.items())})"


def usage_caption(
    model: str | None, prompt_tokens: int | None, completion_tokens: int | None, duration_ms: float | None
) -> str:
    """`qwen3:4b · 812 → 64 tokens · 3.2 s`."""
    parts = [model] if model else []
    if prompt_tokens or completion_tokens:
        parts.append(f"{prompt_tokens or 0:,} → {completion_tokens or 0:,} tokens")
    if duration_ms is not None:
        parts.append(f"{duration_ms / 1000:.1f} s")
    return " · ".join(parts)


def _fenced(text: str, language: str = "") -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def _turn_markdown(number: int, turn: Turn) -> list[str]:
    lines = [f"## Turn {number} · {(turn.created_at or '')[:19]}", "", "**You:**", "", _fenced(turn.user), ""]
    for call in turn.tool_calls:
        outcome = "error" if call.error else "result"
        lines += [
            f"**Tool `{call.name}`** ({call.duration_ms:.1f} ms)",
            "",
            _fenced(json.dumps(call.arguments, indent=2, ensure_ascii=False), "json"),
            "",
            f"{outcome}:",
            "",
            _fenced(call.output),
            "",
        ]
    status = "" if turn.status == "complete" else f" *({turn.status}{': ' + turn.error if turn.error else ''})*"
    lines += [f"**Assistant:**{status}", "", turn.assistant or "*(no answer)*", ""]
    if caption := usage_caption(turn.model, turn.prompt_tokens, turn.completion_tokens, turn.duration_ms):
        lines += [f"*{caption}*", ""]
    return lines


def workspace_markdown(chat: Chat, turns: Iterable[Turn]) -> str:
    """The whole workspace as a Markdown document: summary, then every turn with its tool calls."""
    lines = [
        f"# {chat.chat_name}",
        "",
        f"Created {(chat.created_at or '')[:19]} UTC.",
        "",
        "## Summary (digital twin)",
        "",
    ]
    if chat.context_summary:
        lines += [f"*Updated {(chat.context_updated_at or '')[:19]} UTC.*", "", chat.context_summary, ""]
    else:
        lines += ["*No summary yet.*", ""]
    for number, turn in enumerate(turns, start=1):
        lines += _turn_markdown(number, turn)
    return "\n".join(lines).rstrip() + "\n"
