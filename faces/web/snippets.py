"""Search hits as a person reads them: plain words, with the words searched for in bold.

The store's snippet is a raw cut of a message, which may be JSON a model wrote or
Markdown; here it becomes plain text, escaped, with the matches emphasised.
"""

from __future__ import annotations

import re

from faces.web.markdown import escape_markdown

_CODE_NOISE = re.compile(r"\\[nrt\"]|&#34;|&quot;|[{}\[\]\"`*#>|~]")  # JSON and Markdown punctuation
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([,:;.!?])")
_QUERY_WORD = re.compile(r"[^\W_]+")  # as the index splits words: letters and digits ("pad_footing" is two)


def readable(snippet: str) -> str:
    """`{"span": "6 m", "load": **12 kN/m**}` → `span: 6 m, load: 12 kN/m`: one line of plain words."""
    text = _CODE_NOISE.sub(" ", snippet)
    return _SPACE_BEFORE_PUNCTUATION.sub(r"\1", " ".join(text.split()))


def _matches(query: str) -> re.Pattern[str]:
    """The words of `query` as the index matches them: from the start of a word, any ending, any case."""
    words = _QUERY_WORD.findall(query)
    if not words:  # punctuation only: the store looked it up literally
        return re.compile(re.escape(query.strip()))
    return re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, words)) + r")[^\W_]*", re.IGNORECASE)


def highlighted(text: str, query: str) -> str:
    """`text` as escaped Markdown with each match of `query` in bold."""
    parts, end = [], 0
    for match in _matches(query).finditer(text):
        if match.end() == match.start():
            continue
        parts += [escape_markdown(text[end : match.start()]), f"**{escape_markdown(match.group(0))}**"]
        end = match.end()
    parts.append(escape_markdown(text[end:]))
    return "".join(parts)


def hit_snippet(snippet: str, query: str) -> str:
    """A search hit's snippet, readable and with its matches in bold ("" when nothing is left)."""
    return highlighted(readable(snippet), query)
