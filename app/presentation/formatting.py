"""Text the application writes and the faces show too: units for reading, names and text made safe to show,
usage captions. (How each face draws a calculation lives with that face; the report's in `exports`.)"""

from __future__ import annotations

from tools.units.showing import engineering_units

# Characters that reorder how text is displayed (Trojan Source, CVE-2021-42574): embeddings, overrides, isolates.
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
BIDI_SHOWN = {ord(c): f"[U+{ord(c):04X}]" for c in BIDI_CONTROLS}


_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_LINE_BREAKING = [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029]  # controls, NEL and the separators
NAME_SHOWN = {
    **{c: _ESCAPES.get(chr(c), f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _LINE_BREAKING},
    **BIDI_SHOWN,
}


# In a JSON line: what JSON itself leaves raw (C1 controls, NEL, separators, bidi controls) as \u escapes, which
# read back as the same string but cannot move a terminal's cursor or reorder its line.
JSON_SAFE = {c: f"\\u{c:04x}" for c in [0x7F, *range(0x80, 0xA0), 0x2028, 0x2029, *map(ord, BIDI_CONTROLS)]}


def visible_bidi_controls(text: str) -> str:
    """Text with each bidirectional control written out (`[U+202E]`): shown to the reader, never obeyed."""
    return text.translate(BIDI_SHOWN)


def shortened(text: str, limit: int) -> str:
    """`text` in at most `limit` characters: whole, or cut at the last word boundary that keeps at least half
    of it (else mid-word) and ended with "…", never in the middle of a word when a boundary is near."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    boundary = cut.rfind(" ") if not text[limit - 1].isspace() else len(cut)
    if boundary >= limit // 2:
        cut = cut[:boundary]
    return cut.rstrip(" ,;:.-–—") + "…"


def shown_name(name: str) -> str:
    """A name (a file's, a workspace's) as one line that shows what it is: line breaks and control characters
    written as escapes (`\\n`), bidi controls written out (`[U+202E]`), so a name can neither forge a line of a
    listing nor reorder one."""
    return name.translate(NAME_SHOWN)


def pretty_units(text: str) -> str:
    """ "54 kN * m" → "54 kN·m", "10 m ** 3" → "10 m³": the tools' notation, so faces and model read the same."""
    return engineering_units(text)


def result_text(value: str | list[str]) -> str:
    """One result for reading: a quantity, or a list of them (a continuous beam's reactions) joined in order."""
    return ", ".join(map(pretty_units, value)) if isinstance(value, list) else pretty_units(value)


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
