"""A fair share of the model servers: at most MAX_TURNS_PER_USER turns of one user run at once in a process.

A user's further turns wait in line, first come first served, each told its place with the same
`WaitingForServer` event a turn waiting for a busy server gets, so every face already says it. Turns run
on several event loops (a web tab each), so a waiting turn is woken on its own loop.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncGenerator

from domain.events import WaitingForServer
from engine.waking import LoopWaiter


class _Waiter(LoopWaiter):
    """A user's turn in line."""

    def __init__(self, user: str) -> None:
        super().__init__()
        self.user = user


class UserTurns:
    """How many turns each user runs, and the line of those waiting; shared by a process's applications."""

    def __init__(self, cap: int = 2) -> None:
        self.cap = cap
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}
        self._line: list[_Waiter] = []

    def running(self, user: str) -> int:
        with self._lock:
            return self._running.get(user, 0)

    async def waits(self, user: str) -> AsyncGenerator[WaitingForServer, None]:
        """Take one of `user`'s places: at once when free, else after a wait told by `WaitingForServer` events
        (and a last one with position 0 when the wait is over). Give it back with `release`."""
        waiter = _Waiter(user)
        with self._lock:
            self._line.append(waiter)
        shown = 0
        try:
            while not self._take(waiter):
                if (position := self._position(waiter)) != shown:
                    shown = position
                    yield self._waiting(position)
                await waiter.sleep()
        except BaseException:
            self._leave(waiter)
            raise
        if shown:
            yield WaitingForServer(position=0, message="Your earlier turn finished: this one goes on now.")

    def release(self, user: str) -> None:
        with self._lock:
            self._running[user] = max(0, self._running.get(user, 0) - 1)
        self._wake(user)

    def _take(self, waiter: _Waiter) -> bool:
        with self._lock:
            mine = [other for other in self._line if other.user == waiter.user]
            if mine[0] is not waiter or self._running.get(waiter.user, 0) >= self.cap:
                return False
            self._running[waiter.user] = self._running.get(waiter.user, 0) + 1
            self._line.remove(waiter)
            return True

    def _position(self, waiter: _Waiter) -> int:
        with self._lock:
            before = self._line[: self._line.index(waiter)] if waiter in self._line else []
            return 1 + sum(1 for other in before if other.user == waiter.user)

    def _leave(self, waiter: _Waiter) -> None:
        with self._lock:
            if waiter in self._line:
                self._line.remove(waiter)
        self._wake(waiter.user)

    def _wake(self, user: str) -> None:
        """Wake `user`'s turns in line, whose place may have changed; another user's has not, nor may it go on."""
        with self._lock:
            waiting = [waiter for waiter in self._line if waiter.user == user]
        for waiter in waiting:
            waiter.wake()

    def _waiting(self, position: int) -> WaitingForServer:
        ahead = position - 1
        place = "yours is next" if not ahead else f"{ahead} of your turns ahead of it"
        return WaitingForServer(
            position=position,
            ahead=ahead,
            message=f"You have {self.cap} turns running (MAX_TURNS_PER_USER): this one waits in line, {place}.",
        )
