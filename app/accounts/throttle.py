"""Failed sign-ins slow down the next ones, per user name and per address, so a password cannot be guessed fast.

After `FREE_FAILURES` failures in a row for a name or an address, each next attempt must wait a delay that
doubles with every failure (1 s, 2 s, 4 s … at most `MAX_DELAY` s); an attempt made sooner is refused
without checking the password. A success clears the name and the address. The counts are the process's own
(each server process keeps its own), and are forgotten after `FORGET_AFTER` s without a failure.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

FREE_FAILURES = 3
MAX_DELAY = 60.0
FORGET_AFTER = 900.0


@dataclass
class _Failures:
    count: int
    last: float


class SignInThrottle:
    """Failures per user name and per address, and how long each must wait."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, _Failures] = {}

    def wait_left(self, name: str, address: str) -> float:
        """Seconds before `name` from `address` may try again (0: now)."""
        now = self._clock()
        with self._lock:
            return max(self._left(f"user:{name.lower()}", now), self._left(f"address:{address}", now))

    def failed(self, name: str, address: str) -> None:
        now = self._clock()
        with self._lock:
            for key in (f"user:{name.lower()}", f"address:{address}"):
                failures = self._failures.get(key)
                if failures is None or now - failures.last > FORGET_AFTER:
                    failures = self._failures[key] = _Failures(0, now)
                failures.count += 1
                failures.last = now

    def succeeded(self, name: str, address: str) -> None:
        with self._lock:
            self._failures.pop(f"user:{name.lower()}", None)
            self._failures.pop(f"address:{address}", None)

    def _left(self, key: str, now: float) -> float:
        failures = self._failures.get(key)
        if failures is None or failures.count < FREE_FAILURES:
            return 0.0
        delay = min(MAX_DELAY, 2.0 ** (failures.count - FREE_FAILURES))
        return max(0.0, failures.last + delay - now)
