"""Markdown for the browser: user text escaped, model and file text made inert.

Model text is rendered as Markdown, but nothing in it may make the browser fetch
something (an image) or run something (a `javascript:` link); user text is
shown as typed, so it is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=])")
_INLINE_IMAGE = re.compile(r"!\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+[^)]*)?\)")
_REFERENCE_IMAGE = re.compile(r"!\[([^\]]*)\]\[[^\]]*\]")
_REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+.*$", re.MULTILINE)
_UNSAFE_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?\s*(?:javascript|vbscript|data|file):[^)]*\)", re.IGNORECASE)
_BARE_UNSAFE_URL = re.compile(r"\b(?:javascript|vbscript):", re.IGNORECASE)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(`+).+?\1", re.DOTALL)
_SINGLE_BREAK = re.compile(r"(?<=\S)\n(?=[^\n])")  # a line break inside a paragraph, not a blank line


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


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """Apply `change` to the text outside code blocks and `code spans` (code stays exactly as written)."""
    parts: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        opening = _FENCE.match(line)
        if fence is None and opening:
            parts.append(_outside_spans("".join(prose), change))
            prose, fence = [], opening.group(1)
            parts.append(line)
        elif fence is not None:
            parts.append(line)
            if line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
                fence = None
        else:
            prose.append(line)
    parts.append(_outside_spans("".join(prose), change))
    return "".join(parts)


def _outside_spans(prose: str, change: Callable[[str], str]) -> str:
    pieces, end = [], 0
    for span in _INLINE_CODE.finditer(prose):
        pieces += [change(prose[end : span.start()]), span.group(0)]
        end = span.end()
    pieces.append(change(prose[end:]))
    return "".join(pieces)


def keep_line_breaks(text: str) -> str:
    """Model text with its single line breaks shown as breaks (Markdown would join the lines), code untouched."""
    return outside_code(text, lambda prose: _SINGLE_BREAK.sub("  \n", prose))
