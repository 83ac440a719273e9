"""Holding back streamed text that may turn out to be a tool call the model wrote as text.

`TextCallFilter` is fed the reply as it streams and returns what is safe to show
now. A reply that may be nothing but a call (it starts with `{`, a fence, or a
marker such as `<tool_call>`, `functions.` or `[TOOL_CALLS]`) is held whole; later
in the reply, everything from a marker on is held. When the reply ends, `finish`
finds the calls (`engine.text_calls.formats`) and releases the rest of the text.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from engine.text_calls.formats import (
    LINE_START_MARKER,
    MARKERS,
    MAX_INDENT,
    extract_text_tool_calls,
    find_marker,
    marker_start,
)
from engine.text_calls.requested import RequestedCall

_REPLY_STARTS = (*MARKERS, LINE_START_MARKER)
_FENCE_LANGUAGES = ("json", "tool_call", "tool_code")
_LONGEST_MARKER = max(map(len, _REPLY_STARTS)) + MAX_INDENT
_MARKER_FIRST_CHARACTERS = "<[`\n"  # a marker, or a part of one, begins with one of these (or a line)
# A line start that may still become `LINE_JSON` (engine.text_calls.formats): "{", "[ {", "{&#3", …
_PARTIAL_LINE_JSON = re.compile(rf"(?:^|\n)[ \t]{{0,{MAX_INDENT}}}((?:\[\s*)?\{{\s*(?:&[#\w]{{0,4}})?)\Z")
_PARTIAL_SEARCH_CHARS = 48


def _could_open_call(text: str) -> bool:
    """Whether a reply that starts with `text` may still turn out to be only a tool call."""
    start = text.lstrip()
    if not start or start[0] == "{":
        return True
    if any(marker.startswith(start[: len(marker)]) for marker in _REPLY_STARTS):
        return True
    if start[0] == "[":
        after = start[1:].lstrip()
        return not after or after[0] == "{"
    if not (start.startswith("```") or "```".startswith(start)):
        return False
    first_line, newline, rest = start.partition("\n")
    language = first_line.strip("`").strip()
    if not newline:
        return any(name.startswith(language) for name in _FENCE_LANGUAGES)
    if language not in ("", *_FENCE_LANGUAGES):
        return False
    return not rest.strip() or rest.lstrip()[0] in "{["


def _partial_marker_length(text: str) -> int:
    """Length of the longest end of `text` that may be the start of a marker."""
    tail_start = max(0, len(text) - _PARTIAL_SEARCH_CHARS)
    if line_json := _PARTIAL_LINE_JSON.search(text, tail_start):
        return len(text) - line_json.start(1)
    longest = max(_marker_start_at_end(text, marker, len(marker) - 1) for marker in MARKERS)
    return max(longest, _marker_start_at_end(text, LINE_START_MARKER, len(LINE_START_MARKER), at_line_start=True))


def _marker_start_at_end(text: str, marker: str, most: int, at_line_start: bool = False) -> int:
    """Length of the longest end of `text`, of at most `most` characters, that `marker` starts with (0: none).

    Such an end begins with the marker's first character, so only where that character is, among the last
    `most`, is tried: a few `find`s, where trying every length was a `endswith` each (once a reply, at its first
    text, but for every marker).
    """
    position = text.find(marker[0], max(len(text) - most, 0))
    while position != -1:
        if marker.startswith(text[position:]) and (not at_line_start or _at_line_start(text, position)):
            return len(text) - position
        position = text.find(marker[0], position + 1)
    return 0


def _at_line_start(text: str, end: int) -> bool:
    """Whether `text[end]` begins a line (after an indentation of at most `MAX_INDENT`)."""
    start = end
    while start > 0 and text[start - 1] in " \t" and end - start < MAX_INDENT:
        start -= 1
    return start == 0 or text[start - 1] == "\n"


@dataclass
class TextCallFilter:
    """Feed it streamed text; it returns what is safe to show now."""

    known: Collection[str]
    content: str = ""
    shown: int = 0
    holding_all: bool = True

    def feed(self, delta: str) -> str:
        content = self.content
        if (
            not self.known
            or (
                self.shown == len(content)  # nothing held,
                and not self.holding_all  # past the reply's start,
                and not _may_hold(delta)  # no marker's first character in the piece,
                and not (content[-1:] in " \t\n" and _at_line_start(content, len(content)))  # nor a line's start
            )
        ):  # the common case, once per streamed piece: all of it is shown
            self.content = content + delta
            self.shown = len(self.content)
            return delta
        return self._feed_holding(delta)

    def _feed_holding(self, delta: str) -> str:
        """`feed` for a piece that may be or begin a call: what is safe to show of the text so far."""
        self.content += delta
        if self.holding_all:
            if _could_open_call(self.content):
                return ""
            self.holding_all = False
        marker = find_marker(self.content, max(self.shown - _LONGEST_MARKER, 0))
        if marker:
            return self._release(marker_start(marker))
        return self._release(len(self.content) - _partial_marker_length(self.content))

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


def _may_hold(delta: str) -> bool:
    """Whether `delta` has one of `_MARKER_FIRST_CHARACTERS` (four `in` tests: a streamed piece is a few characters,
    for which they take half a regex search's time, and this runs for every piece of every answer)."""
    return "<" in delta or "[" in delta or "`" in delta or "\n" in delta
