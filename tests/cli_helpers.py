"""Running the real CLI (`python main.py`) in a subprocess, as a user or a script would."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from fakes.ollama import FakeOllama, wait_until

MAIN = Path(__file__).resolve().parents[1] / "main.py"


def run_cli(
    *args: str, stdin: str = "", env: dict[str, str] | None = None, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MAIN), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def interrupt_while_waiting(fake: FakeOllama, typed: str, requests: int, then: str, *args: str) -> tuple[str, str, int]:
    """Type into the CLI, press Ctrl-C while the fake server is answering request number `requests`, type more."""
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
    assert wait_until(lambda: len(fake.chat_requests) == requests, timeout=10)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(then, timeout=15)
    return out, err, process.returncode
