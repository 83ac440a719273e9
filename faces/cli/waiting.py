"""The line on standard error that says the model (or a tool) is at work, until there is something to show.

On a terminal it is a spinner with the seconds waited, redrawn in place and
cleared when text, a tool call or an error arrives. Anywhere else (a pipe, a
log file) it never animates: it writes at most one plain line, and only when
the wait is long enough to be worth a line.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from faces.cli.terminal import Style, is_terminal, one_line, terminal_width

FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
ASCII_FRAMES = "|/-\\"
FRAMES_PER_SECOND = 10
PLAIN_LINE_AFTER_SECONDS = 1.0
CLEAR_LINE = "\r\033[2K"


def _can_encode(stream: TextIO, text: str) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


class Waiting:
    """`start` a wait, `tick` it about ten times a second, `stop` it when something arrives."""

    def __init__(
        self,
        stream: TextIO,
        animate: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        plain_after: float = PLAIN_LINE_AFTER_SECONDS,
    ) -> None:
        self.stream = stream
        self.animate = is_terminal(stream) if animate is None else animate
        self.frames = FRAMES if _can_encode(stream, FRAMES) else ASCII_FRAMES
        self.style = Style(stream)
        self.plain_after = plain_after
        self._clock = clock
        self._label: str | None = None
        self._plain: str | None = None
        self._since = 0.0
        self._drawn = False
        self._said = False  # the one plain line has been written

    def start(self, label: str, plain: str | None = None) -> None:
        """Wait with `label` from now; off a terminal, `plain` is the line to write if the wait grows long."""
        self._label, self._plain, self._since = label, plain, self._clock()
        self.tick()

    def relabel(self, label: str) -> None:
        """Say `label` for the wait in progress, its seconds still counted from its start (a new wait if none)."""
        if self._label is None:
            self.start(label)
            return
        self._label = label
        self.tick()

    def stop(self) -> None:
        self.clear()
        self._label = None

    def clear(self) -> None:
        """Take the spinner off the screen for a moment (the next tick draws it again while the wait goes on)."""
        if self._drawn:
            self._write(CLEAR_LINE)
            self._drawn = False

    def tick(self) -> None:
        if self._label is None:
            return
        elapsed = self._clock() - self._since
        if self.animate:
            self._draw(elapsed)
        elif self._plain and not self._said and elapsed >= self.plain_after:
            self._said = True
            self._write(self._plain + "\n")

    def _draw(self, elapsed: float) -> None:
        frame = self.frames[int(elapsed * FRAMES_PER_SECOND) % len(self.frames)]
        seconds = f" {int(elapsed)} s"
        room = terminal_width(self.stream) - 1 - len(frame) - 1 - len(seconds)  # never wrap: \r must reach it
        label = one_line(self._label or "", max(room, 1))
        self._write(CLEAR_LINE + self.style("2", f"{frame} {label}{seconds}"))
        self._drawn = True

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # standard error closed: the wait is only a courtesy
            self._label = None
