"""How the command line shows a turn's events: the answer, tool lines, notices, and the wait before them."""

from __future__ import annotations

import importlib
import math
import threading
from typing import Protocol, TextIO

from domain.events import (
    AgentEvent,
    ErrorEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnCompleted,
    WaitingForServer,
    WarningEvent,
)
from faces.cli.terminal import Style, colour_wanted, fit, printable, tool_call_lines, width_of
from faces.cli.waiting import Waiting
from faces.text import call_signature

MARKDOWN_MODULE = "faces.cli.markdown"  # imports Rich: about 70 ms, kept off the start-up's path


class AnswerView(Protocol):
    """Where the answer's text goes as it streams: `add` pieces (already printable), `end` leaves a clean line."""

    def add(self, text: str) -> None: ...

    def tick(self) -> None: ...

    def end(self) -> None: ...


class PlainAnswer:
    """The text as it comes, each piece written at once."""

    def __init__(self, out: TextIO, style: Style | None = None, code: str = "") -> None:
        self.out = out
        self.style, self.code = style, code
        self.mid_line = False

    def add(self, text: str) -> None:
        if not text:
            return
        self.out.write(self.style(self.code, text) if self.style else text)
        self.out.flush()
        self.mid_line = not text.endswith("\n")

    def tick(self) -> None:
        pass

    def end(self) -> None:
        if self.mid_line:
            self.out.write("\n")
            self.out.flush()
            self.mid_line = False


def markdown_wanted(out: TextIO, plain: bool) -> bool:
    """Markdown is rendered on a terminal that takes colour, unless --plain asks for the text as written."""
    return not plain and colour_wanted(out)


def load_markdown_in_background() -> None:
    """Import Rich while the rest starts up and the model thinks, so that the first words do not wait for it."""
    threading.Thread(target=importlib.import_module, args=(MARKDOWN_MODULE,), name="import-rich", daemon=True).start()


class DeferredMarkdown:
    """`markdown.MarkdownAnswer`, made when the first text arrives: Rich is loaded only when it draws."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.view: AnswerView | None = None

    def add(self, text: str) -> None:
        if self.view is None:
            self.view = importlib.import_module(MARKDOWN_MODULE).MarkdownAnswer(self.out)
        self.view.add(text)

    def tick(self) -> None:
        if self.view is not None:
            self.view.tick()

    def end(self) -> None:
        if self.view is not None:
            self.view.end()


def answer_view(out: TextIO, plain: bool) -> AnswerView:
    """Rendered Markdown where `markdown_wanted`; elsewhere the text as written."""
    return DeferredMarkdown(out) if markdown_wanted(out, plain) else PlainAnswer(out)


def is_empty(completed: TurnCompleted) -> bool:
    """Whether a turn ended without a word of answer (whatever its tool calls did)."""
    return not completed.content.strip()


class Renderer:
    """Prints the agent's events: the answer on `out`, tool lines and notices on `notes`, the wait on `waiting`."""

    def __init__(
        self,
        out: TextIO,
        notes: TextIO,
        show_thinking: bool,
        waiting: Waiting | None = None,
        answer: AnswerView | None = None,
    ) -> None:
        self.out, self.notes = out, notes
        self.note_style = Style(notes)
        self.show_thinking = show_thinking
        self.waiting = waiting or Waiting(notes, animate=False, plain_after=math.inf)
        self.answer = answer or PlainAnswer(out)
        self.thinking = PlainAnswer(out, Style(out), "2")
        self.completed: TurnCompleted | None = None
        self._model = "the model"
        self._thinking_started = False
        self._said_in_line = False

    def begin(self, model: str) -> None:
        """The question is on its way: wait for the model's first word."""
        self._model = printable(model)
        self._said_in_line = False
        self._wait_for_model()

    def _wait_for_model(self) -> None:
        self.waiting.start(f"{self._model} is thinking…", plain=f"{self._model} is thinking…")

    def render(self, event: AgentEvent) -> None:
        self._show(event)

    def _show(self, event: AgentEvent) -> None:
        if isinstance(event, TextDelta):
            self.waiting.stop()
            self.thinking.end()
            self.answer.add(printable(event.text))
        elif isinstance(event, ThinkingDelta) and self.show_thinking:
            self.waiting.stop()
            self.answer.end()
            self.thinking.add(("" if self._thinking_started else "thinking: ") + printable(event.text))
            self._thinking_started = True
        elif isinstance(event, ToolCallStarted):
            self._end_lines()
            self.waiting.start(f"running {printable(call_signature(event.name, event.arguments))}")
        elif isinstance(event, ToolCallFinished):
            self.waiting.stop()
            for code, line in tool_call_lines(event.call):
                self._note(code, line)
            self._wait_for_model()
        elif isinstance(event, WarningEvent):
            self._note("33", f"! {printable(event.message)}")
        elif isinstance(event, WaitingForServer):
            self._in_line(event)
        elif isinstance(event, ErrorEvent):
            self.waiting.stop()
            self._note("31", printable(event.message))
        elif isinstance(event, TurnCompleted):
            self.waiting.stop()
            self._completed(event)

    def _in_line(self, event: WaitingForServer) -> None:
        """Every server with the model is busy: the spinner says the turn's place in line (off a terminal, one
        line says it the first time); when the wait is over, the model is thinking again."""
        if not event.position:
            self._wait_for_model()
        elif self.waiting.animate:
            self.waiting.relabel(printable(event.message))
        elif not self._said_in_line:
            self._said_in_line = True
            self._note("2", printable(event.message))

    def _completed(self, event: TurnCompleted) -> None:
        self.completed = event
        if event.stop_reason == "stopped":
            self._line(self.notes, self.note_style("2", "[stopped]"))
        self._end_lines()

    def tick(self) -> None:
        """About ten times a second while the turn runs: the spinner turns, a streamed answer catches up."""
        self.waiting.tick()
        self.answer.tick()

    def finish(self) -> None:
        """The turn is over, however it ended: nothing left moving, the cursor at the start of a line."""
        self.waiting.stop()
        self._end_lines()

    def note(self, text: str) -> None:
        """A line on the notes stream, after the answer's current line."""
        self._line(self.notes, text)

    def _note(self, code: str, text: str) -> None:
        """A line on the notes stream in ANSI style `code`, broken between words to its terminal's width."""
        for line in fit(text, width_of(self.notes)):
            self._line(self.notes, self.note_style(code, line))

    def _line(self, stream: TextIO, text: str) -> None:
        self.waiting.clear()
        self._end_lines()
        stream.write(text + "\n")
        stream.flush()
        self.waiting.tick()

    def _end_lines(self) -> None:
        self.thinking.end()
        self.answer.end()
        self._thinking_started = False
