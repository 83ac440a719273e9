"""The answer as Markdown rendered by Rich, while it streams; imported only when a terminal will show it.

Streaming never waits for the whole answer, and never re-draws what has scrolled away:
each Markdown block (paragraph, list, table, code block) is printed for good once a
blank line ends it, and only the block still arriving is drawn in a live preview,
cut to the screen's height, and redrawn as text comes in.

The text reaches Rich as a `Markdown` object, never as a string to print, so Rich's
own markup (`[bold red]…`) in the model's text is shown as written; control
characters are gone before it gets here (`terminal.printable`), and links are shown
with their address instead of being hidden in terminal hyperlinks. HTML is not
Markdown here: Rich would drop it, and engineers write tag-like text ("an <M20>
bolt"), so the parser reads it as text and it is shown as written.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from typing import TextIO

from markdown_it import MarkdownIt
from rich.console import Console, ConsoleOptions, RenderResult
from rich.live import Live
from rich.markdown import Markdown
from rich.segment import Segment

REFRESHES_PER_SECOND = 20
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
# Rich's own parser (CommonMark, tables, strikethrough), with HTML read as text
_PARSER = MarkdownIt("commonmark", {"html": False}).enable("strikethrough").enable("table")


class _TextMarkdown(Markdown):
    """Rich's Markdown with nothing taken for HTML: tag-like text is shown, not dropped."""

    def __init__(self, markup: str) -> None:
        super().__init__("", hyperlinks=False, justify="default")  # no padding to copy with the text
        self.markup, self.parsed = markup, _PARSER.parse(markup)


def settled_blocks(text: str) -> tuple[list[str], str]:
    """The Markdown blocks at the start of `text` that are complete, and the rest, still arriving.

    A block is complete when a blank line outside a fenced code block is followed by a
    line that starts at the margin; an indented line may still continue a list item.
    """
    lines = text.split("\n")
    blocks: list[str] = []
    start, fence, blank_at = 0, "", -1
    for index, line in enumerate(lines):
        whole = index < len(lines) - 1  # the last line may still be arriving
        if fence:
            if whole and _closes(line, fence):
                fence = ""
        elif not line.strip():
            if whole and blank_at < 0:
                blank_at = index
        else:
            if blank_at >= 0 and not line[0].isspace():
                if block := "\n".join(lines[start:blank_at]).strip("\n"):
                    blocks.append(block)
                start = index
            blank_at = -1
            if whole and (opening := _FENCE.match(line)):
                fence = opening.group(1)
    return blocks, "\n".join(lines[start:])


def _closes(line: str, fence: str) -> bool:
    closing = _FENCE.match(line)
    return bool(closing) and not line.strip().strip(fence[0]) and len(line.strip()) >= len(fence)


class _Block:
    """One block of the answer as Rich renders it, less the blank line Rich puts before a lone list or table
    (the blank line between blocks is placed here, as in a whole document); `last` keeps only the last lines."""

    def __init__(self, text: str, last: int | None = None) -> None:
        self.markdown = _TextMarkdown(text)
        self.last = last

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = console.render_lines(self.markdown, options, pad=False)
        while lines and not any(segment.text for segment in lines[0]):
            lines.pop(0)
        if self.last is not None:
            lines = lines[-self.last :]
        preview = self.last is not None  # a live preview ends on its last line, not below it
        for number, line in enumerate(lines):
            if number and preview:
                yield Segment.line()
            yield from line
            if not preview:
                yield Segment.line()


class MarkdownAnswer:
    """Renders the streamed answer as Markdown on a terminal (see the module's docstring)."""

    def __init__(self, out: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.console = Console(file=out, markup=False, emoji=False, highlight=False)
        self._clock = clock
        self._tail = ""
        self._live: Live | None = None
        self._gap = False  # a block was printed: the next one starts after a blank line
        self._dirty = False
        self._drawn_at = -math.inf

    def add(self, text: str) -> None:
        if not text:
            return
        self._tail += text
        if "\n" in text:
            blocks, self._tail = settled_blocks(self._tail)
            if blocks:
                self._stop_preview()
                for block in blocks:
                    self._print(block)
        self._dirty = True
        if self._clock() - self._drawn_at >= 1 / REFRESHES_PER_SECOND:
            self._preview()

    def tick(self) -> None:
        if self._dirty:
            self._preview()

    def end(self) -> None:
        """Print what is left for good; the next text starts a new stretch of Markdown."""
        self._stop_preview()
        if self._tail.strip():
            self._print(self._tail)
        self._tail, self._gap, self._dirty = "", False, False

    def _print(self, block: str) -> None:
        self._separate()
        self.console.print(_Block(block))
        self._gap = True

    def _separate(self) -> None:
        if self._gap:
            self.console.line()
            self._gap = False

    def _preview(self) -> None:
        self._dirty, self._drawn_at = False, self._clock()
        if not self._tail.strip():
            return
        if self._live is None:
            self._separate()
            self._live = Live(
                console=self.console,
                auto_refresh=False,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
                vertical_overflow="crop",
            )
            self._live.start()
        height = max(self.console.size.height - 1, 1)
        self._live.update(_Block(self._tail, last=height), refresh=True)

    def _stop_preview(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None
