"""How the command line shows the agent's events: the answer, tool lines, notices.

Model, tool and file text is stripped of control characters before it reaches
the terminal, so it cannot move the cursor, retitle the window or worse.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from typing import TextIO

from app.formatting import calculation_lines, call_signature, pretty_units
from domain.events import (
    AgentEvent,
    ErrorEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    TurnCompleted,
    WarningEvent,
)
from domain.records import ToolCall


class Style:
    """ANSI styles, used only when the stream is a terminal and NO_COLOR is unset."""

    def __init__(self, stream: TextIO) -> None:
        self.enabled = stream.isatty() and "NO_COLOR" not in os.environ

    def __call__(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.enabled else text


_CONTROL = {code: None for code in [*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0)]}


def printable(text: str) -> str:
    """Text without control characters, so model or file text cannot drive the terminal."""
    return text.translate(_CONTROL)


def printable_lines(text: str) -> list[str]:
    """Text as lines fit for the terminal (control characters removed)."""
    return [printable(line) for line in text.splitlines()]


def one_line(text: str, limit: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def terminal_width() -> int:
    """The terminal's columns (COLUMNS if set; 80 when there is no terminal)."""
    return max(shutil.get_terminal_size().columns, 20)


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

    Each line comes with its ANSI style: dim, a failed check (NG) or an error in red.
    """
    signature = call_signature(call.name, call.arguments)
    if not call.error and not call.data:
        return [("2", printable(one_line(f"→ {signature} = {call.output}")))]
    lines = [("2", printable(one_line(f"→ {signature}", 160)))]
    if call.error:
        return [*lines, ("31", printable(one_line(f"    ✗ {pretty_units(call.error)}", 300)))]
    for line in calculation_lines(call.data or {}):
        lines.append(("31" if line.startswith("NG") else "2", printable(f"    {line}")))
    return lines


def is_empty(completed: TurnCompleted) -> bool:
    """Whether a turn ended without a word of answer (whatever its tool calls did)."""
    return not completed.content.strip()


def empty_answer_sentence(model: str) -> str:
    return (
        f"{printable(model)} returned an empty answer. Ask again, rephrase the question, "
        "or try another model (--model, or /model at the prompt)."
    )


class Renderer:
    """Prints the agent's events: the answer on `out`, tool lines and notices on `notes`."""

    def __init__(self, out: TextIO, notes: TextIO, show_thinking: bool) -> None:
        self.out, self.notes = out, notes
        self.style, self.note_style = Style(out), Style(notes)
        self.show_thinking = show_thinking
        self.completed: TurnCompleted | None = None
        self.notice_last = False  # the last event was an error or a warning: the turn's end is already explained
        self._mid_line = False
        self._thinking = False

    def render(self, event: AgentEvent) -> None:
        self._show(event)
        self.notice_last = isinstance(event, (WarningEvent, ErrorEvent))

    def _show(self, event: AgentEvent) -> None:
        if isinstance(event, TextDelta):
            if self._thinking:
                self._thinking = False
                self._end_line()
            self._write(self.out, printable(event.text))
        elif isinstance(event, ThinkingDelta) and self.show_thinking:
            prefix = "" if self._thinking else "thinking: "
            self._thinking = True
            self._write(self.out, self.style("2", prefix + printable(event.text)))
        elif isinstance(event, ToolCallFinished):
            self._tool_call(event)
        elif isinstance(event, WarningEvent):
            self._line(self.notes, self.note_style("33", f"! {printable(event.message)}"))
        elif isinstance(event, ErrorEvent):
            self._line(self.notes, self.note_style("31", printable(event.message)))
        elif isinstance(event, TurnCompleted):
            self._completed(event)

    def _completed(self, event: TurnCompleted) -> None:
        self.completed = event
        if event.stop_reason == "stopped":
            self._line(self.notes, self.note_style("2", "[stopped]"))
        elif is_empty(event) and event.stop_reason != "error" and not self.notice_last:
            self._line(self.notes, self.note_style("33", empty_answer_sentence(event.model)))
        self._end_line()

    def _tool_call(self, event: ToolCallFinished) -> None:
        for code, line in tool_call_lines(event.call):
            self._line(self.notes, self.note_style(code, line))

    def _write(self, stream: TextIO, text: str) -> None:
        stream.write(text)
        stream.flush()
        self._mid_line = not text.endswith("\n")

    def note(self, text: str) -> None:
        """A line on the notes stream, after the answer's current line."""
        self._line(self.notes, text)

    def _line(self, stream: TextIO, text: str) -> None:
        self._end_line()
        stream.write(text + "\n")
        stream.flush()

    def _end_line(self) -> None:
        if self._mid_line:
            self.out.write("\n")
            self.out.flush()
            self._mid_line = False
