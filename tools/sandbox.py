"""The parent's side of a worker process (the maths worker, the document reader): start it once,
time-limit every request, replace it if killed."""

from __future__ import annotations

import atexit
import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

PROJECT_ROOT = Path(__file__).resolve().parents[1]
TIME_LIMIT_SECONDS = 2.0
STARTUP_SECONDS = 60.0


class WorkerProcess:
    """One worker process (`python -m <module>`), shared by every thread of this process, one request at a time.

    `too_slow` and `what` word the errors: "it is too expensive to evaluate (stopped after 2 s)…",
    "the maths worker stopped unexpectedly"."""

    def __init__(self, module: str, what: str, too_slow: str, time_limit: float = TIME_LIMIT_SECONDS) -> None:
        self.module, self.what, self.too_slow = module, what, too_slow
        self.time_limit = time_limit
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    def request(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The worker's answer, or a ValueError saying why there is none."""
        with self._lock:
            process = self._running()
            assert process.stdin is not None
            process.stdin.write(json.dumps(payload) + "\n")
            process.stdin.flush()
            try:
                line = self._lines.get(timeout=self.time_limit)
            except queue.Empty:
                self.stop()
                raise ValueError(self.too_slow.format(seconds=self.time_limit)) from None
            if line is None:
                self.stop()
                raise ValueError(f"the {self.what} stopped unexpectedly (out of memory?); try again")
        reply = json.loads(line)
        if "error" in reply:
            raise ValueError(reply["error"])
        result: dict[str, Any] = reply["ok"]
        return result

    def _running(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._lines = queue.Queue()
        environment = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(PROJECT_ROOT), os.environ.get("PYTHONPATH", "")]),
        }
        self._process = subprocess.Popen(
            [sys.executable, "-m", self.module],
            cwd=PROJECT_ROOT,
            env=environment,
            text=True,
            bufsize=1,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        threading.Thread(target=_pump, args=(self._process.stdout, self._lines), daemon=True).start()
        try:
            ready = self._lines.get(timeout=STARTUP_SECONDS)
        except queue.Empty:
            ready = None
        if ready is None:
            self.stop()
            raise ValueError(f"the {self.what} could not start")
        return self._process

    def stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None


def _pump(stream: IO[str] | None, lines: queue.Queue[str | None]) -> None:
    assert stream is not None
    for line in stream:
        lines.put(line)
    lines.put(None)


worker = WorkerProcess(
    "tools.sympy_worker",
    "maths worker",
    "it is too expensive to evaluate (stopped after {seconds:g} s); simplify it or split it into steps",
)
atexit.register(worker.stop)
