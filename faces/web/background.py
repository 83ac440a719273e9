"""What happens without a click: a reply finished after its tab was closed, and the page redrawn when work
done in the background ends.

Streamlit stops a tab's script run when the tab goes away (its next element raises
`StopException`). A reply streaming then is handed to a thread that runs it to the end on the
tab's own event loop, so the turn is stored whole, as the protocol server finishes a turn
whose client hung up; Stop and the other clicks (a rerun, not a stop) still end a reply at
once. A page opened meanwhile says an answer is being written, as for any turn running in
its workspace (`faces.web.live`), and shows it as soon as it is stored; at exit, a reply still
running is stopped and stored with what had arrived.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from collections.abc import Callable, Generator
from typing import Any

import streamlit as st

from app import Application
from faces.web.timers import redraw_when

logger = logging.getLogger(__name__)
WATCH_SECONDS = 1.0
EXIT_WAIT_SECONDS = 5.0


class LiveReply:
    """A reply streaming in a tab, which the tab hands over to a thread of its own if it goes away."""

    def __init__(
        self,
        events: Generator[Any, None, None],
        stop: Callable[[], None],
        finished: threading.Event,
        replies: LiveReplies,
    ) -> None:
        self.events, self.stop = events, stop
        self._finished, self._replies = finished, replies
        self._handed_over = False
        finished.clear()

    def end(self) -> None:
        """The tab is done with the reply: close its stream (a cut-off turn is stored with what arrived)."""
        if not self._handed_over:
            self._close()

    def finish_without_the_tab(self) -> None:
        """The tab went away: run the reply to its end in a thread of its own, which stores it whole."""
        self._handed_over = True
        self._replies.run_to_the_end(self)

    def run_to_the_end(self) -> None:
        try:
            for _ in self.events:
                pass
        except Exception:  # a bug: what arrived is stored when the stream is closed below
            logger.exception("finishing a reply whose tab was closed failed")
        finally:
            self._close()

    def _close(self) -> None:
        try:
            self.events.close()
        finally:
            self._finished.set()


class LiveReplies:
    """The replies this process finishes for tabs that went away; shared by every tab (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._without_tab: dict[threading.Thread, LiveReply] = {}

    def run_to_the_end(self, reply: LiveReply) -> None:
        thread = threading.Thread(target=self._run, args=(reply,), name="reply-without-its-tab", daemon=True)
        with self._lock:
            self._without_tab[thread] = reply
        thread.start()

    def _run(self, reply: LiveReply) -> None:
        try:
            reply.run_to_the_end()
        finally:
            with self._lock:
                self._without_tab.pop(threading.current_thread(), None)

    def stop_all(self, timeout: float = EXIT_WAIT_SECONDS) -> None:
        """At exit: stop the replies still running without their tab, and wait for them to be stored."""
        with self._lock:
            running = dict(self._without_tab)
        for reply in running.values():
            reply.stop()
        deadline = time.monotonic() + timeout
        for thread in running:
            thread.join(max(deadline - time.monotonic(), 0.0))


@st.cache_resource(show_spinner=False)
def live_replies() -> LiveReplies:
    """The process's one record of replies being written (made once, shared by every tab)."""
    replies = LiveReplies()
    atexit.register(replies.stop_all)
    return replies


def watch_summaries(service: Application) -> None:
    """While digital-twin summaries are written in the background, draw the page again when they are done,
    so their note appears without a click."""
    if not service.summaries.pending():
        return

    redraw_when(lambda: not service.summaries.pending(), WATCH_SECONDS)
