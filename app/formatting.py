"""Text both faces and the reports share: units for reading, tool-call lines, usage captions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tools.quantity_text import engineering_units

# Characters that reorder how text is displayed (Trojan Source, CVE-2021-42574): embeddings, overrides, isolates.
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
BIDI_SHOWN = {ord(c): f"[U+{ord(c):04X}]" for c in BIDI_CONTROLS}


_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_LINE_BREAKING = [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029]  # controls, NEL and the separators
NAME_SHOWN = {
    **{c: _ESCAPES.get(chr(c), f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in _LINE_BREAKING},
    **BIDI_SHOWN,
}


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


def local_stamp(stored: str | None) -> str:
    """ "2026-11-23 00:30": a time the store keeps in UTC, on this computer's clock ("" if there is none)."""
    if not stored:
        return ""
    try:
        moment = datetime.fromisoformat(stored)
    except ValueError:
        return stored[:16]
    return f"{(moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone():%Y-%m-%d %H:%M}"


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


def check_ratio(check: dict[str, Any]) -> str:
    """ " · ratio 0.87 (87 %)", or nothing when the check carries no ratio."""
    ratio = check.get("ratio")
    return f" · ratio {ratio:.2f} ({ratio:.0%})".replace("%", " %") if isinstance(ratio, int | float) else ""


WARNING_MARK = "Warning:"


def calculation_lines(data: dict[str, Any]) -> list[str]:
    """A calculation result as short lines: warnings first, formula, substitution, results, checks, reference."""
    lines = [f"{WARNING_MARK} {warning}" for warning in data.get("warnings", [])]
    if data.get("substituted"):
        lines.append(pretty_units(data["substituted"]))
    elif data.get("formula"):
        lines.append(data["formula"])
    results = " · ".join(f"{key} {result_text(value)}" for key, value in data.get("results", {}).items())
    if results:
        lines.append(results)
    for check in data.get("checks", []):
        clause = f" [{check['clause']}]" if check.get("clause") else ""
        lines.append(
            f"{check['status']}: {check['name']} ({pretty_units(check['value'])} vs {pretty_units(check['limit'])})"
            f"{check_ratio(check)}{clause}"
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
