"""Waiting for another process to reach a state, instead of sleeping and hoping it has.

Linux names, in /proc/PID/wchan, the kernel function a sleeping process waits in: a read of a
pipe (`pipe_read`), a timed sleep such as SQLite's busy handler (`hrtimer_nanosleep`), an
event loop waiting for its sockets (`do_epoll_wait`).
"""

from __future__ import annotations

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
