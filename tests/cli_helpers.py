"""Running the real CLI (`python main.py`) in a subprocess: from a script, or on a terminal as a user would."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

from fakes.ollama import FakeOllama, wait_until
from tests.waiting import wait_for_wait

MAIN = Path(__file__).resolve().parents[1] / "main.py"
# The test's folder holds the chat history, named as a server's .env would name it, so that the CLI does not say
# which store it uses on every run (tests/test_cli_store_choice.py runs it with nothing named).
NAMED_STORE = {"CHAT_HISTORY_DB_PATH": "chat_history.sqlite"}


def run_cli(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MAIN), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **NAMED_STORE, **(env or {})},
    )


def interrupt_while_waiting(
    fake: FakeOllama, typed: str, requests: int, then: str, *args: str, waiting_in: str = "do_epoll_wait"
) -> tuple[str, str, int]:
    """Type into the CLI, press Ctrl-C while the fake server is answering request number `requests` (once the
    reply has reached its Hang, everything before it sent, and the CLI sleeps in the kernel's `waiting_in`: by
    default its event loop waiting for the rest), type more."""
    process = subprocess.Popen(
        [sys.executable, str(MAIN), "--server", fake.url, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None
    process.stdin.write(typed)
    process.stdin.flush()
    assert wait_until(lambda: len(fake.chat_requests) == requests and fake.hanging > 0, timeout=30)
    wait_for_wait(process.pid, waiting_in)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(then, timeout=15)
    return out, err, process.returncode


def interrupt_after_line(fake: FakeOllama, typed: str, line: str, waiting_in: str) -> tuple[str, str, int]:
    """Type into the CLI, wait until it writes a line holding `line` and then sleeps in the kernel's `waiting_in`,
    press Ctrl-C. (A wait seen before the line could be another one: the end of a turn, whose Ctrl-C handler
    takes the signal and does nothing once the answer is in.)"""
    process = subprocess.Popen(
        [sys.executable, str(MAIN), "--server", fake.url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdin.write(typed)
    process.stdin.close()
    lines: list[str] = []
    seen = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for text in process.stdout:
            lines.append(text)
            if line in text:
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert seen.wait(30), f"the CLI never wrote {line!r}: {''.join(lines)}"
        wait_for_wait(process.pid, waiting_in)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    finally:
        process.kill()
    reader.join(30)
    return "".join(lines), process.stderr.read(), process.returncode


def run_in_terminal(
    *args: str, typed: str = "", columns: int = 80, env: dict[str, str] | None = None, timeout: float = 30
) -> tuple[int, str]:
    """`python main.py ARGS` with standard input, output and error on one pseudo-terminal of `columns` columns,
    as in a user's shell; what it wrote (escape sequences included) once it exits, and its exit code."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    environment = {**os.environ, **NAMED_STORE, "TERM": "xterm-256color", **(env or {})}
    for name in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
        if name not in (env or {}):
            environment.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, str(MAIN), *args], stdin=slave, stdout=slave, stderr=slave, env=environment, close_fds=True
    )
    os.close(slave)
    if typed:
        os.write(master, typed.encode())
    output = _read_until_closed(master, time.monotonic() + timeout)
    os.close(master)
    return process.wait(timeout=30), output.decode("utf-8", errors="replace")


def _read_until_closed(master: int, deadline: float) -> bytes:
    output = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if not ready:
            continue
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: every copy of the terminal's other end is closed (the CLI has exited)
            break
        if not data:
            break
        output += data
    return output


_SEQUENCE = re.compile(r"\x1b\[([0-9;?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[^\[\]]|[\s\S]")


class Screen:
    """Just enough of a terminal to see what a user is left looking at: text, CR and LF, cursor moves, erasing.
    Colours and modes are ignored; every character takes one cell. The cursor cannot go above the `lines`
    rows on screen, as on a real terminal, so a redraw taller than the screen leaves its top behind."""

    def __init__(self, output: str, columns: int = 80, lines: int = 24) -> None:
        self.columns, self.lines = columns, lines
        self.rows: list[list[str]] = [[]]
        self.row = self.col = 0
        self.wrapped_rows: list[str] = []  # rows the terminal itself ended, the line being wider than the screen
        for match in _SEQUENCE.finditer(output):
            if match.group(2):
                self._control(match.group(1), match.group(2))
            elif not match.group(0).startswith("\x1b"):
                self._put(match.group(0))

    @property
    def text(self) -> str:
        return "\n".join("".join(row).rstrip() for row in self.rows).strip("\n")

    def _put(self, char: str) -> None:
        if char == "\r":
            self.col = 0
        elif char == "\n":  # a line feed also ends a wrap pending after the last column
            self._move_to(self.row + 1)
            self.col = min(self.col, self.columns - 1)
        elif char == "\b":
            self.col = max(self.col - 1, 0)
        elif char >= " " or char == "\t":
            if self.col >= self.columns:
                self.wrapped_rows.append("".join(self.rows[self.row]))
                self._move_to(self.row + 1)
                self.col = 0
            line = self.rows[self.row]
            line.extend(" " * (self.col + 1 - len(line)))
            line[self.col] = " " if char == "\t" else char
            self.col += 1

    def _move_to(self, row: int) -> None:
        while len(self.rows) <= row:
            self.rows.append([])
        self.row = row

    def _control(self, parameters: str, final: str) -> None:
        number = int(parameters) if parameters.isdigit() else 0
        line = self.rows[self.row]
        if final == "A":
            self.row = max(self.row - max(number, 1), len(self.rows) - self.lines, 0)
        elif final == "B":
            self._move_to(self.row + max(number, 1))
        elif final == "C":
            self.col += max(number, 1)
        elif final == "D":
            self.col = max(self.col - max(number, 1), 0)
        elif final == "G":
            self.col = max(number - 1, 0)
        elif final == "K":
            self.rows[self.row] = line[: self.col] if number == 0 else [] if number == 2 else [" "] * self.col
        elif final == "J" and number == 0:
            self.rows[self.row] = line[: self.col]
            del self.rows[self.row + 1 :]
