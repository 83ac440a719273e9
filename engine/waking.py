"""A turn waiting in a line, woken on its own event loop: turns run on several loops (a web tab each), and
whoever frees a place may be on another loop or thread."""

from __future__ import annotations

import asyncio
import contextlib


class LoopWaiter:
    """One waiting turn: `sleep` on its loop until `wake` is called from any thread."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._event = asyncio.Event()

    def wake(self) -> None:
        with contextlib.suppress(RuntimeError):  # its loop is closed: nothing waits there any more
            self.loop.call_soon_threadsafe(self._event.set)

    async def sleep(self, longest: float | None = None) -> None:
        """Until woken, or `longest` seconds have passed (None: until woken)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(longest):
                await self._event.wait()
        self._event.clear()
