"""Markdown for the browser: user text escaped, model and file text made inert.

Model text is rendered as Markdown, but nothing in it may make the browser fetch
something (an image) or run something (a `javascript:` link); user text is
shown as typed, so it is escaped.

Every image in CommonMark, inline or by reference, nested or in a blockquote,
starts with `!` directly before `[`; so outside code every such `!` is escaped
(the reader sees `!` and a link), and nothing has to guess where an image ends.
Whether a `![` is inside code is the one judgement left: wherever one remains,
a real CommonMark parser (markdown-it-py) reads the result, and unless it puts
every such `![` inside code, the whole text is shown escaped instead. Streamlit's
renderer reads more than CommonMark: maths (`$…$`, `$$…$$`, remark-math, on when
the text looks like it holds some) and directives (`:name[…]{…}`, remark-directive)
are read before code spans, so a backtick inside either is no code delimiter, and
`$`$![x](…)$`$` is an image there though CommonMark sees code. Neither crosses a
blank line outside a fenced block (and a `$$` block that takes a fence's opening
line ends on a `$$` line before the image), so a `![` is left in code only in a
block (up to a blank line) with neither; such a block is shown escaped instead.
Streamlit renders no raw HTML from `st.markdown`, and the page's
Content-Security-Policy (`faces/web/headers.py`) lets the browser load images only
from the app itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from app.presentation.formatting import shown_name, visible_bidi_controls

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=])")
_IMAGE_START = re.compile(r"(?<!\\)((?:\\\\)*)!(?=\[)")  # a `!` before `[`, itself not escaped
_UNSAFE_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?\s*(?:javascript|vbscript|data|file):[^)]*\)", re.IGNORECASE)
_BARE_UNSAFE_URL = re.compile(r"\b(?:javascript|vbscript):", re.IGNORECASE)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# A code span: closed by a backtick run of the same length, within one paragraph (no blank line in between).
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)", re.DOTALL)
_ONE_LINE_CODE = re.compile(r"(?<!`)`[^`\n]+`(?!`)")  # `ollama serve`: one backtick each side, on one line
_SINGLE_BREAK = re.compile(r"(?<=\S)\n(?=[^\n])")  # a line break inside a paragraph, not a blank line
# What Streamlit's renderer reads before code spans, beyond CommonMark: maths (`$`) and directives (`:name`).
_READ_BEFORE_CODE = re.compile(r"\$|:[A-Za-z]")


def escape_markdown(text: str) -> str:
    """User text shown exactly as typed: Markdown and HTML characters escaped, line breaks kept, bidi controls
    written out (`[U+202E]`) so that they cannot reorder what is shown."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", visible_bidi_controls(text)).replace("\n", "  \n")


def escape_name(name: str) -> str:
    """A name (a file's, a workspace's) as escaped Markdown on one line: a line break in it is shown as `\\n`."""
    return escape_markdown(shown_name(name))


def sentence_markdown(text: str) -> str:
    """A sentence of the application's (an error, a notice) escaped like user text, except its `code` spans
    (`ollama serve`), shown as code instead of with their backticks. Only a span on one line, between single
    backticks, is kept: with everything around it escaped, CommonMark reads it as code, where nothing renders."""
    pieces, end = [], 0
    for span in _ONE_LINE_CODE.finditer(text):
        pieces += [escape_markdown(text[end : span.start()]), span.group(0)]
        end = span.end()
    pieces.append(escape_markdown(text[end:]))
    return "".join(pieces)


def safe_markdown(text: str) -> str:
    """Model Markdown with no image left (each becomes `!` and a link) and script links turned into plain text."""
    inert = "".join(map(_inert_block, _blocks(text)))
    if _IMAGE_START.search(inert) and not _only_in_code(inert):  # the code finder was fooled: no Markdown at all
        return escape_markdown(text)
    return inert


def _inert_block(block: str) -> str:
    inert = outside_code(block, _inert_prose)
    if _IMAGE_START.search(inert) and _READ_BEFORE_CODE.search(block):
        return escape_markdown(block)  # maths or a directive may take the backticks of its "code": shown plain
    return inert


def _blocks(text: str) -> list[str]:
    """The text cut after each blank line outside a fenced code block (joined, they are the text again)."""
    blocks: list[str] = []
    lines: list[str] = []
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        lines.append(line)
        opening = _FENCE.match(line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None:
            fence = None if _closes(line, fence) else fence
        elif not line.strip():
            blocks.append("".join(lines))
            lines = []
    return [*blocks, "".join(lines)]


def _closes(line: str, fence: str) -> bool:
    """Whether `line` closes a code block opened by `fence` (as many of its characters or more, nothing else)."""
    return line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0])


def _inert_prose(prose: str) -> str:
    prose = _IMAGE_START.sub(lambda m: f"{m.group(1)}\\!", prose)
    prose = _UNSAFE_LINK.sub(lambda m: m.group(1), prose)
    return _BARE_UNSAFE_URL.sub(lambda m: m.group(0).replace(":", "\\:"), prose)


@cache
def _parser() -> MarkdownIt:
    """CommonMark with GitHub's tables and strikethrough, raw HTML recognised (as Streamlit's renderer parses it)."""
    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def _only_in_code(markdown: str) -> bool:
    """Whether every unescaped `![` in `markdown` lies in code, as a CommonMark parser (markdown-it-py) reads it."""
    in_code = sum(
        len(_IMAGE_START.findall(token.content))
        for token in _tokens(_parser().parse(markdown))
        if token.type in ("code_inline", "fence", "code_block")
    )
    return in_code >= len(_IMAGE_START.findall(markdown))


def _tokens(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _tokens(token.children)


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
            if _closes(line, fence):
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
