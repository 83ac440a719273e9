"""Waiting for another process to reach a state, instead of sleeping and hoping it has.

Linux names, in /proc/PID/wchan, the kernel function a sleeping process waits in: a read of a
pipe (`pipe_read`), a timed sleep such as SQLite's busy handler (`hrtimer_nanosleep`), an
event loop waiting for its sockets (`do_epoll_wait`).
"""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

from fakes.ollama import wait_until

KNOWS_WAITS = Path("/proc/self/wchan").exists()
GUESS_SECONDS = 1.0  # without /proc (macOS, Windows): time for the process to get there, as a guess


def waits_in(pid: int, call: str) -> bool:
    """Whether process `pid`'s main thread is asleep in the kernel function `call` now."""
    try:
        return call in Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return False


def wait_for_wait(pid: int, call: str, timeout: float = 30) -> None:
    """Block until process `pid` sleeps in `call` (a generous bound: it only catches a process that never does).
    Where the kernel does not say (no /proc), wait a moment instead."""
    if not KNOWS_WAITS:
        time.sleep(GUESS_SECONDS)
        return
    assert wait_until(lambda: waits_in(pid, call), timeout=timeout), f"process {pid} never waited in {call}"


def reads_standard_input(pid: int) -> bool:
    """Whether process `pid`'s main thread is blocked reading its standard input (a pipe, file descriptor 0):
    the first argument of the system call it sleeps in (/proc/PID/syscall) is 0x0, and it sleeps in a pipe read."""
    try:
        arguments = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return False
    return len(arguments) > 1 and arguments[1] == "0x0" and waits_in(pid, "pipe_read")


def wait_for_stdin_read(pid: int, timeout: float = 30) -> None:
    """Block until process `pid` waits for a line on its standard input (where /proc cannot say, a moment)."""
    if not KNOWS_WAITS:
        time.sleep(GUESS_SECONDS)
        return
    assert wait_until(lambda: reads_standard_input(pid), timeout=timeout), f"process {pid} never read its input"


def wait_for_output(process: subprocess.Popen[str], text: str, timeout: float = 30) -> list[str]:
    """Read the process's standard output as it comes, until `text` has appeared; the reader's pieces so far
    (the reader goes on collecting into the same list until the output closes)."""
    assert process.stdout is not None
    stream = process.stdout
    pieces: list[str] = []
    seen = threading.Event()

    def read() -> None:
        while piece := stream.read(1):
            pieces.append(piece)
            if text in "".join(pieces):
                seen.set()

    threading.Thread(target=read, daemon=True).start()
    assert seen.wait(timeout), f"{text!r} never appeared: {''.join(pieces)!r}"
    return pieces
