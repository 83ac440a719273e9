"""What the terminal can do, and text fitted for it: styles, widths, tool lines.

Model, tool and file text is stripped of control characters before it reaches
the terminal, so it cannot move the cursor, retitle the window or worse; its
bidirectional controls (U+202E and kin) are written out, so a diff or an answer
cannot show its characters in another order than the one they are in.
"""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from datetime import UTC, datetime
from typing import TextIO

from app.presentation.formatting import BIDI_SHOWN, pretty_units, shortened
from domain.records import ToolCall
from faces.cli.calculations import DIM, FAILED, calculation_lines
from faces.text import call_signature


def is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is a terminal that understands cursor movement (not a pipe, a file or TERM=dumb)."""
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except ValueError:  # closed
        return False


def colour_wanted(stream: TextIO) -> bool:
    """A terminal, and NO_COLOR (https://no-color.org) unset or empty."""
    return is_terminal(stream) and not os.environ.get("NO_COLOR")


class Style:
    """ANSI styles, used only when the stream is a terminal and NO_COLOR is unset."""

    def __init__(self, stream: TextIO) -> None:
        self.enabled = colour_wanted(stream)

    def __call__(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.enabled else text


_CONTROL: dict[int, str | None] = {c: None for c in [*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0)]}
_TERMINAL_UNSAFE = {**_CONTROL, **BIDI_SHOWN}


def printable(text: str) -> str:
    """Text without control characters, and its bidi controls written out: model or file text cannot drive
    the terminal, nor reorder what it shows."""
    return text.translate(_TERMINAL_UNSAFE)


def printable_lines(text: str) -> list[str]:
    """Text as lines fit for the terminal (control characters removed)."""
    return [printable(line) for line in text.splitlines()]


def one_line(text: str, limit: int = 100) -> str:
    """`text` on one line of at most `limit` characters, a longer one cut at a word with "…"."""
    return shortened(" ".join(text.split()), limit)


def terminal_width(stream: TextIO | None = None) -> int:
    """The columns of `stream`'s terminal (default: standard output's): COLUMNS if set, 80 when there is none."""
    if stream is None or os.environ.get("COLUMNS"):
        return max(shutil.get_terminal_size().columns, 20)
    try:
        return max(os.get_terminal_size(stream.fileno()).columns, 20)
    except (OSError, ValueError):
        return 80


def width_of(stream: TextIO) -> int | None:
    """The columns to fit text into on `stream`: its terminal's width, or None off a terminal (a pipe has none)."""
    return terminal_width(stream) if is_terminal(stream) else None


_COLUMN_GAP = re.compile(r"^\s*\S.*?\S {2,}(?=\S)")  # "  /new NAME    start…": the second column's start


def fit(text: str, width: int | None) -> list[str]:
    """`text` as the lines a terminal `width` columns wide shows, broken between words (None: as written).

    A line's continuation lines up with its second column (after a gap of two spaces or more) when it has
    one, else it is indented two more than the line; a word longer than the line is broken as a last resort.
    """
    lines: list[str] = []
    for line in text.split("\n"):
        if width is None or len(line) <= width:
            lines.append(line)
            continue
        gap = _COLUMN_GAP.match(line)
        hang = gap.end() if gap and gap.end() <= width // 2 else len(line) - len(line.lstrip(" ")) + 2
        lines += textwrap.wrap(line, width, subsequent_indent=" " * hang, break_on_hyphens=False) or [""]
    return lines


def two_columns(rows: list[tuple[str, str]], width: int, narrowest: int = 24) -> list[str]:
    """Names and descriptions within `width` columns: each description wraps in its own column,
    or, when that column would be narrower than `narrowest`, below its name."""
    name_width = max((len(name) for name, _ in rows), default=0)
    indent = 2 + name_width + 2
    beside = width - indent >= narrowest
    lines = []
    for name, description in rows:
        if beside:
            wrapped = textwrap.wrap(printable(description), width - indent) or [""]
            lines.append(f"  {printable(name):<{name_width}}  {wrapped[0]}")
            lines += [" " * indent + line for line in wrapped[1:]]
        else:
            lines.append(f"  {printable(name)}")
            lines += textwrap.wrap(printable(description), width, initial_indent="      ", subsequent_indent="      ")
    return lines


def tool_call_lines(call: ToolCall) -> list[tuple[str, str]]:
    """`→ sqrt(x=144) = 12.0`; or the call, then a calculation's substitution, results and checks, or the error.

    Each line comes with its ANSI style: dim, a warning (an input far outside practice) in yellow, a failed
    check (NG) or an error in red.
    """
    signature = call_signature(call.name, call.arguments)
    if not call.error and call.calculation is None:
        return [(DIM, printable(one_line(f"→ {signature} = {call.output}")))]
    lines = [(DIM, printable(one_line(f"→ {signature}", 160)))]
    if call.error or call.calculation is None:
        return [*lines, (FAILED, printable(one_line(f"    ✗ {pretty_units(call.error or '')}", 300)))]
    return lines + [(style, printable(f"    {line}")) for style, line in calculation_lines(call.calculation)]


def local_stamp(stored: str | None) -> str:
    """ "2026-11-23 00:30": a time the store keeps in UTC, on this computer's clock ("" if there is none)."""
    if not stored:
        return ""
    try:
        moment = datetime.fromisoformat(stored)
    except ValueError:
        return stored[:16]
    return f"{(moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone():%Y-%m-%d %H:%M}"
