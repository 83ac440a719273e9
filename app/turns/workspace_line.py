"""One turn at a time in a workspace, whichever process asks.

A question asked while another is answered in its workspace (in another tab, by a colleague on another web
process, over the protocol, at a terminal) waits for that answer, told by the `WaitingForServer` event a turn
waiting for a busy server gets, so every face already says it (the protocol's `turn-waiting`). The store decides
who goes first (`begin_turn` stores one running turn a workspace, atomically), so two turns never interleave in a
workspace's history, and the question that waited is built from the workspace as the answer before it left it. A
turn whose process ended is stored as stopped by whoever begins next (`store.leases`): no wait outlasts its lease.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable

from app.turns.recording import written_to_the_end
from domain.events import WaitingForServer
from domain.records import RunningTurn
from engine.agent import StopSignal

POLL_SECONDS = 0.25  # how often a waiting question tries again (a write only while it waits)
FREE = "The answer before yours in this workspace is done: your question goes on now."
STOPPED_WAITING = "Stopped while it waited for the answer before it in this workspace; it was not asked."


def busy_message(running: RunningTurn | None, asker: str) -> str:
    """Why a question waits, naming who asks in the workspace now."""
    if running is not None and running.asked_by and running.asked_by == asker:
        return "Your earlier question in this workspace (in another tab or window) is being answered: this one waits."
    if running is not None and running.asked_by:
        return f"{running.asked_by} is asking in this workspace: your question waits for that answer, then goes on."
    return "Another question is being answered in this workspace: yours waits for it, then goes on."


class WorkspaceLine:
    """A question's place in its workspace: begun at once when no other turn runs there, else once it is free.

    `begin` stores the question as the workspace's running turn and gives its id, or None while another runs
    there; `running` reads that other turn; `stop` is the turn's Stop, which ends the wait too.
    """

    def __init__(
        self,
        begin: Callable[[], int | None],
        running: Callable[[], RunningTurn | None],
        stop: StopSignal,
        asker: str = "",
    ) -> None:
        self._begin = begin
        self._running = running
        self._stop = stop
        self._asker = asker
        self.running_id: int | None = None

    async def waits(self) -> AsyncGenerator[WaitingForServer, None]:
        """Begin the turn, after a wait told by `WaitingForServer` events (and a last one, position 0, when it
        ends) while another turn runs in the workspace; `running_id` is then the turn as stored.

        The store's work runs on a worker thread, so the event loop streams the other turns it serves meanwhile;
        cut off while the question is being stored, it is still stored and `running_id` says which turn it is
        (the caller stores it as stopped)."""
        told = ""
        while (running_id := await written_to_the_end(self._begin, self._began)) is None:
            message = busy_message(await asyncio.to_thread(self._running), self._asker)
            if message != told:
                told = message
                yield WaitingForServer(position=1, ahead=1, message=message)
            self._stop.follow()  # a Stop pressed meanwhile ends the wait (CancelledError)
            await asyncio.sleep(POLL_SECONDS)
        self.running_id = running_id
        if told:
            yield WaitingForServer(position=0, message=FREE)

    def _began(self, running_id: int | None) -> None:
        self.running_id = running_id
