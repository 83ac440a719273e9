"""Tool calls that small models write into their text instead of `tool_calls`.

Recognised for known tool names only:
- `<tool_call>{"name": "sqrt", "arguments": {"x": 144}}</tool_call>` anywhere in the text;
- a reply that is nothing but such a JSON object (or a list of them), bare or in a ```json fence.
`TextCallFilter` holds back streamed text that may turn out to be such a call, so
the user never sees raw JSON that was really a tool call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from engine.tool_runner import RequestedCall

_TAG_OPEN = "<tool_call>"
_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_TRAILING_SEARCH_CHARS = 4_000
_FENCED = re.compile(r"^```(?:json|tool_call)?\s*\n?(.*?)\n?```$", re.DOTALL)


def _as_call(candidate: Any, known: Collection[str]) -> RequestedCall | None:
    if not isinstance(candidate, dict):
        return None
    if isinstance(candidate.get("function"), dict):
        candidate = candidate["function"]
    name = candidate.get("name")
    arguments = candidate.get("arguments", candidate.get("parameters", {}))
    if not isinstance(name, str) or name not in known or not isinstance(arguments, (dict, str)):
        return None
    return RequestedCall(name, arguments)


def _calls_in_json(text: str, known: Collection[str]) -> list[RequestedCall] | None:
    try:
        decoded = json.loads(text)
    except ValueError:
        return None
    items = decoded if isinstance(decoded, list) else [decoded]
    calls = [_as_call(item, known) for item in items]
    if not calls or any(call is None for call in calls):
        return None
    return [call for call in calls if call is not None]


def extract_text_tool_calls(content: str, known: Collection[str]) -> tuple[str, list[RequestedCall]]:
    """The text without the tool calls written in it, and those calls."""
    if not known:
        return content, []
    if _TAG_OPEN in content:
        calls: list[RequestedCall] = []
        for body in _TAGGED.findall(content):
            calls.extend(_calls_in_json(body, known) or [])
        if calls:
            return _TAGGED.sub("", content), calls
    stripped = content.strip()
    fenced = _FENCED.match(stripped)
    body = fenced.group(1).strip() if fenced else stripped
    if body[:1] in ("{", "["):
        calls = _calls_in_json(body, known) or []
        if calls:
            return "", calls
    return _trailing_call(content, known)


def _trailing_call(content: str, known: Collection[str]) -> tuple[str, list[RequestedCall]]:
    """Prose that ends with a tool call as a bare or fenced JSON object ("Let me compute: {...}")."""
    text = content.rstrip()
    if text.endswith("```"):
        fence = text.rfind("```", 0, len(text) - 3)
        if fence >= 0:
            _, calls = extract_text_tool_calls(text[fence:], known)
            return (text[:fence].rstrip(), calls) if calls else (content, [])
    if not text.endswith("}"):
        return content, []
    decoder = json.JSONDecoder()
    search_from = max(0, len(text) - _TRAILING_SEARCH_CHARS)
    start = text.find("{", search_from)
    while start >= 0:
        try:
            decoded, end = decoder.raw_decode(text, start)
        except ValueError:
            decoded, end = None, -1
        if end == len(text) and (call := _as_call(decoded, known)) is not None:
            return text[:start].rstrip(), [call]
        start = text.find("{", start + 1)
    return content, []


def _could_open_call(text: str) -> bool:
    """Whether a reply that starts with `text` may still turn out to be only a tool call."""
    start = text.lstrip()
    if not start or start[0] == "{":
        return True
    if start[0] == "[":
        after = start[1:].lstrip()
        return not after or after[0] == "{"
    if _TAG_OPEN.startswith(start[: len(_TAG_OPEN)]):
        return True
    if not (start.startswith("```") or "```".startswith(start)):
        return False
    first_line, newline, rest = start.partition("\n")
    language = first_line.strip("`").strip()
    if not newline:
        return any(name.startswith(language) for name in ("json", "tool_call"))
    if language not in ("", "json", "tool_call"):
        return False
    return not rest.strip() or rest.lstrip()[0] in "{["


def _partial_tag_suffix(text: str) -> int:
    """Length of the longest end of `text` that could be the start of `<tool_call>`."""
    if "<" not in text[-(len(_TAG_OPEN) - 1) :]:
        return 0  # the common case, checked once per streamed piece
    for length in range(min(len(_TAG_OPEN) - 1, len(text)), 0, -1):
        if _TAG_OPEN.startswith(text[-length:]):
            return length
    return 0


@dataclass
class TextCallFilter:
    """Feed it streamed text; it returns what is safe to show now."""

    known: Collection[str]
    content: str = ""
    shown: int = 0
    holding_all: bool = field(default=True)

    def feed(self, delta: str) -> str:
        nothing_held = self.shown == len(self.content)
        self.content += delta
        if not self.known or (nothing_held and not self.holding_all and "<" not in delta):
            return self._release(len(self.content))  # the common case, once per streamed piece
        if self.holding_all:
            if _could_open_call(self.content):
                return ""
            self.holding_all = False
        tag = self.content.find(_TAG_OPEN, max(self.shown - len(_TAG_OPEN), 0))
        if tag >= 0:
            return self._release(tag)
        return self._release(len(self.content) - _partial_tag_suffix(self.content))

    def finish(self) -> tuple[str, str, list[RequestedCall]]:
        """(text still to show, the answer's text without the calls, the calls found).

        Text already shown that turns out to be a call (a call at the end of the
        prose) cannot be unshown; it is left out of the answer's text.
        """
        visible, calls = extract_text_tool_calls(self.content, self.known)
        if not calls:
            return self._release(len(self.content)), self.content, []
        already = self.content[: self.shown]
        rest = visible[len(already) :] if visible.startswith(already) else ""
        self.shown = len(self.content)
        return rest, visible, calls

    def held(self) -> str:
        """Text received but not shown yet (kept when the turn ends early)."""
        return self.content[self.shown :]

    def _release(self, upto: int) -> str:
        if upto <= self.shown:
            return ""
        piece = self.content[self.shown : upto]
        self.shown = upto
        return piece
