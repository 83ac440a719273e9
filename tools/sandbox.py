"""The parent's side of the maths worker: start it once, time-limit every request, replace it if killed."""

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


class MathsWorker:
    """One worker process, shared by every thread of this process, used one request at a time."""

    def __init__(self, time_limit: float = TIME_LIMIT_SECONDS) -> None:
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
                raise ValueError(
                    f"it is too expensive to evaluate (stopped after {self.time_limit:g} s); "
                    "simplify it or split it into steps"
                ) from None
            if line is None:
                self.stop()
                raise ValueError("the maths worker stopped unexpectedly; try again")
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
            [sys.executable, "-m", "tools.sympy_worker"],
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
            raise ValueError("the maths worker could not start; symbolic maths is unavailable")
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


worker = MathsWorker()
atexit.register(worker.stop)
