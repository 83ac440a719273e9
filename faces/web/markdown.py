"""Markdown for the browser: user text escaped, model and file text made inert.

Model text is rendered as Markdown, but nothing in it may make the browser fetch
something (an image) or run something (a `javascript:` link); user text is
shown as typed, so it is escaped.
"""

from __future__ import annotations

import re

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
