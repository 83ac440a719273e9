"""Driving the async agent from synchronous code (the Streamlit script thread).

Each call gets its own event loop, closed afterwards, so nothing is bound to a
loop across reruns and no nested-loop patching is needed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine to completion on a fresh event loop."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coroutine)
    finally:
        loop.close()


def iterate_sync(stream: AsyncIterator[T], heartbeat: float | None = None) -> Iterator[T | None]:
    """Iterate an async generator from sync code, on a loop of its own.

    With `heartbeat`, `None` is yielded whenever no item arrives for that many
    seconds, so the caller can show progress (and a UI framework can interrupt
    it between items). Closing this iterator cancels and closes the generator.
    """
    loop = asyncio.new_event_loop()
    pending: asyncio.Future[T] | None = None
    try:
        while True:
            pending = loop.create_task(_next(stream))
            while not pending.done():
                loop.run_until_complete(asyncio.wait({pending}, timeout=heartbeat))
                if not pending.done():
                    yield None
            try:
                item = pending.result()
            except StopAsyncIteration:
                return
            pending = None
            yield item
    finally:
        if pending is not None and not pending.done():
            pending.cancel()
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                loop.run_until_complete(pending)
        aclose = getattr(stream, "aclose", None)
        try:
            if aclose is not None:
                loop.run_until_complete(aclose())
        finally:
            loop.close()


async def _next(stream: AsyncIterator[T]) -> T:
    return await anext(stream)
