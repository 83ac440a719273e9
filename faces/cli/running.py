"""Running turns from the terminal: one event loop for the whole run, Ctrl-C stopping only the reply.

SIGTERM (a service manager, `docker stop`, `kill`) stops the reply as Ctrl-C does, so
what arrived is stored, marked as stopped; then it ends the CLI (`Terminated`).
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Coroutine, Iterator
from contextlib import aclosing, contextmanager
from types import FrameType
from typing import Any, TypeVar

from app import Application, Consent
from domain.events import TurnCompleted
from domain.records import CleanImage
from faces.cli.renderer import Renderer

T = TypeVar("T")
TICK_SECONDS = 0.1


class EventLoop:
    """One event loop for the whole run, so the connection to Ollama is kept between turns."""

    def __init__(self) -> None:
        self._runner = asyncio.Runner()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self._runner.run(coroutine)

    def close(self, service: Application) -> None:
        try:
            self._runner.run(service.aclose())
        finally:
            self._runner.close()
            service.close()


class Terminated(BaseException):
    """SIGTERM asked the CLI to end (raised once the reply in progress, if any, is stopped and stored)."""

    def __init__(self, stopped_reply: bool = False) -> None:
        super().__init__()
        self.stopped_reply = stopped_reply


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def sigterm_ends_the_run() -> Iterator[None]:
    """While the block runs, SIGTERM raises `Terminated` (during a reply, it first stops and stores it)."""
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread: SIGTERM keeps its usual meaning
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


async def _answer(
    service: Application, question: str, renderer: Renderer, consent: Consent | None, images: tuple[CleanImage, ...]
) -> TurnCompleted | None:
    """Stream one turn in the open workspace (made if there is none) to `renderer`; Ctrl-C or SIGTERM stops the
    reply (the service stores what arrived), and after SIGTERM, `Terminated` is raised."""
    loop = asyncio.get_running_loop()
    terminated: list[int] = []
    previous = _stop_on_signals(loop, service.turns.stop, terminated)
    renderer.begin(service.models.current)
    ticker = asyncio.create_task(_tick(renderer))
    try:
        async with aclosing(service.turns.ask(question, consent=consent, images=images)) as events:
            async for event in events:
                renderer.render(event)
    finally:
        ticker.cancel()
        renderer.finish()
        _restore_signals(loop, previous)
    if terminated:
        raise Terminated(stopped_reply=True)
    return renderer.completed


def _stop_on_signals(
    loop: asyncio.AbstractEventLoop, stop: Callable[[], None], terminated: list[int]
) -> dict[int, Any]:
    """Ctrl-C and SIGTERM call `stop` (SIGTERM noted in `terminated`); the handlers they had, to put back."""

    def stopper(signum: int) -> Callable[[], None]:
        def handle() -> None:
            if signum == signal.SIGTERM:
                terminated.append(signum)
            stop()

        return handle

    previous: dict[int, Any] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(signum)
        try:
            loop.add_signal_handler(signum, stopper(signum))
        except (NotImplementedError, RuntimeError, ValueError):
            continue  # not the main thread, or a platform without them: the signal ends the turn as an exception
        previous[signum] = handler
    return previous


def _restore_signals(loop: asyncio.AbstractEventLoop, previous: dict[int, Any]) -> None:
    for signum, handler in previous.items():
        try:
            loop.remove_signal_handler(signum)
            signal.signal(signum, handler)  # the loop leaves the default behind; put back what was there
        except (NotImplementedError, RuntimeError, ValueError):
            pass


async def _tick(renderer: Renderer) -> None:
    """Keep the spinner turning and the streamed answer current while the turn runs."""
    while True:
        await asyncio.sleep(TICK_SECONDS)
        renderer.tick()


def ask(
    service: Application,
    question: str,
    renderer: Renderer,
    loop: EventLoop,
    consent: Consent | None = None,
    images: tuple[CleanImage, ...] = (),
) -> TurnCompleted | None:
    """Answer one turn, with `images` (cleaned) if any; None when Ctrl-C cut it off before it completed (it is
    stored as stopped). `consent` asks the user before an outside tool runs (None: nobody can be asked, so such a
    call is refused). A model that cannot see the pictures is ImageRefusedError, before anything is sent."""
    if images:
        loop.run(service.turns.check_images(service.workspaces.current_id))  # before the spinner starts
    try:
        return loop.run(_answer(service, question, renderer, consent, images))
    except KeyboardInterrupt:
        renderer.note("[stopped]")
        return None
