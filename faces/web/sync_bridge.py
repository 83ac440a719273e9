"""Driving the async agent from synchronous code (the Streamlit script thread).

A face may keep one event loop (not running between calls) and pass it in, so
that the agent's connection to Ollama survives from one turn to the next; with
no loop given, each call gets its own, closed afterwards. No nested-loop
patching is needed either way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine, Generator
from typing import Any, TypeVar

T = TypeVar("T")


def usable(loop: asyncio.AbstractEventLoop | None) -> asyncio.AbstractEventLoop | None:
    """`loop`, unless it is closed or busy in another thread (then None: use a loop of its own)."""
    return loop if loop is not None and not loop.is_closed() and not loop.is_running() else None


def run_sync(coroutine: Coroutine[Any, Any, T], loop: asyncio.AbstractEventLoop | None = None) -> T:
    """Run one coroutine to completion, on `loop` or on a fresh loop."""
    own = usable(loop) is None
    runner = asyncio.new_event_loop() if own else loop
    assert runner is not None
    try:
        return runner.run_until_complete(coroutine)
    finally:
        if own:
            runner.close()


def iterate_sync(
    stream: AsyncIterator[T], heartbeat: float | None = None, loop: asyncio.AbstractEventLoop | None = None
) -> Generator[T | None, None, None]:
    """Iterate an async generator from sync code, on `loop` or on a loop of its own.

    With `heartbeat`, `None` is yielded whenever no item arrives for that many
    seconds, so the caller can show progress (and a UI framework can interrupt
    it between items). Closing this iterator cancels and closes the generator.
    """
    own = usable(loop) is None
    runner = asyncio.new_event_loop() if own else loop
    assert runner is not None
    pending: asyncio.Future[T] | None = None
    try:
        while True:
            pending = runner.create_task(_next(stream))
            while not pending.done():
                runner.run_until_complete(asyncio.wait({pending}, timeout=heartbeat))
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
                runner.run_until_complete(pending)
        aclose = getattr(stream, "aclose", None)
        try:
            if aclose is not None:
                runner.run_until_complete(aclose())
        finally:
            if own:
                runner.close()


async def _next(stream: AsyncIterator[T]) -> T:
    return await anext(stream)
