"""Running turns from the terminal: one event loop for the whole run, Ctrl-C stopping only the reply."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine
from contextlib import aclosing
from typing import Any, TypeVar

from app import WorkspaceService
from domain.events import TurnCompleted
from faces.cli.renderer import Renderer

T = TypeVar("T")
TICK_SECONDS = 0.1


class EventLoop:
    """One event loop for the whole run, so the connection to Ollama is kept between turns."""

    def __init__(self) -> None:
        self._runner = asyncio.Runner()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self._runner.run(coroutine)

    def close(self, service: WorkspaceService) -> None:
        try:
            self._runner.run(service.aclose())
        finally:
            self._runner.close()
            service.close()


async def _answer(service: WorkspaceService, question: str, renderer: Renderer) -> TurnCompleted | None:
    """Stream one turn to `renderer`; Ctrl-C stops the reply (the service stores what arrived)."""
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, service.stop)
    except (NotImplementedError, RuntimeError, ValueError):
        pass  # not the main thread, or a platform without signal handlers: Ctrl-C ends the turn
    renderer.begin(service.model)
    ticker = asyncio.create_task(_tick(renderer))
    try:
        async with aclosing(service.ask(question)) as events:
            async for event in events:
                renderer.render(event)
    finally:
        ticker.cancel()
        renderer.finish()
        try:
            loop.remove_signal_handler(signal.SIGINT)
        except (NotImplementedError, RuntimeError, ValueError):
            pass
    return renderer.completed


async def _tick(renderer: Renderer) -> None:
    """Keep the spinner turning and the streamed answer current while the turn runs."""
    while True:
        await asyncio.sleep(TICK_SECONDS)
        renderer.tick()


def ask(service: WorkspaceService, question: str, renderer: Renderer, loop: EventLoop) -> TurnCompleted | None:
    """Answer one turn; None when Ctrl-C cut it off before it completed (it is stored as stopped)."""
    try:
        return loop.run(_answer(service, question, renderer))
    except KeyboardInterrupt:
        renderer.note("[stopped]")
        return None
