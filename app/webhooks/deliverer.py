"""Webhook deliveries attempted in the background, one thread per store, never on a turn's way.

A delivery is in the store before its first attempt (written in the transaction of what it tells). This thread
holds a few due deliveries at a time (`store.webhooks`: one process at a time holds one), POSTs each to its URL
with a time limit per attempt, and lets it go with the outcome: delivered on a 2xx answer, else due again after
1, 2, 4 … s with ±20 % jitter, the gap capped at MAX_GAP_SECONDS (never less than five minutes once capped),
until RETRY_FOR_SECONDS have passed since the event, when it is given up.

Only the hooks' own URLs are ever contacted: no redirect is followed, no proxy from the environment is used, and a
delivery to a URL not in this process's hooks is never taken. A process that serves (`keep_delivering`: the
protocol server, the web app) delivers what any process on the store left pending, the first round at once, then
what comes due, looking for new deliveries every POLL_SECONDS. A command that exits at once delivers only its own
deliveries; on closing it tries them for at most FLUSH_SECONDS, unless a serving process on the same store holds
the SERVING claim, to which it leaves them.
"""

from __future__ import annotations

import contextlib
import logging
import random
import ssl
import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

import httpx

from app.ports import WebhookRecords
from app.webhooks.config import Hook
from app.webhooks.events import SIGNATURE_HEADER, signature
from domain.webhooks import WebhookDelivery
from store import HistoryError

logger = logging.getLogger(__name__)

ATTEMPT_TIMEOUT = httpx.Timeout(10.0, connect=5.0)  # an attempt ends within about 25 s, whatever the receiver does
HOLD_SECONDS = 60.0  # how long a process holds a delivery it attempts: longer than any attempt
BATCH = 8  # deliveries attempted at once (each in a worker thread)
FIRST_GAP_SECONDS = 1.0
MAX_GAP_SECONDS = 300.0
JITTER = 0.2
RETRY_FOR_SECONDS = 24 * 3600.0
POLL_SECONDS = 5.0  # a serving process looks for deliveries other processes made this often
FLUSH_SECONDS = 30.0
SERVING = "webhook deliveries"  # the claim of a serving process
CLAIM_EVERY_SECONDS = 30.0
STOP_SECONDS = 10.0  # for the attempts in flight when the process closes (one cut short is sent again later)
USER_AGENT = "engineering-assistant-webhooks"


def retry_gap(attempts: int, rng: random.Random | None = None) -> float:
    """Seconds before the next attempt after `attempts` failed ones: 1, 2, 4 … with ±20 % jitter; once the gap
    reaches MAX_GAP_SECONDS, that with up to +20 %."""
    draw = (rng or random).uniform
    base = FIRST_GAP_SECONDS * 2.0 ** min(attempts - 1, 30)
    if base >= MAX_GAP_SECONDS:
        return MAX_GAP_SECONDS * draw(1.0, 1.0 + JITTER)
    return base * draw(1.0 - JITTER, 1.0 + JITTER)


class Deliverer:
    """The deliveries to the hooks' URLs of one store, attempted by a thread of its own."""

    def __init__(self, store: WebhookRecords, hooks: Sequence[Hook]) -> None:
        self._store = store
        self._hooks = {hook.url: hook for hook in hooks}
        self._urls = tuple(self._hooks)
        self._own: set[int] = set()  # deliveries this process made
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._attempted = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._serving = False
        self._early = False
        self._tls: ssl.SSLContext | None = None

    def wanting(self, event: str) -> list[Hook]:
        """The hooks that get `event`."""
        return [hook for hook in self._hooks.values() if hook.wants(event)]

    def made(self, ids: Iterable[int]) -> None:
        """Deliveries this process has just written (their transaction may still be open: the thread waits for
        the store, and finds them once it commits)."""
        with self._lock:
            self._own.update(ids)
        self._start()

    def keep_delivering(self) -> None:
        """Deliver every pending delivery to the hooks' URLs, whichever process made it: the first round at once."""
        if self._urls and not self._serving:
            self._serving = self._early = True
            self._start()

    def close(self) -> None:
        """Stop, after trying this process's own deliveries for a while if nobody else will (a command that exits
        at once), and after the attempts in flight."""
        if self._thread is None:
            return
        try:
            if not self._serving:
                self._flush()
        except HistoryError as error:  # what is pending stays in the store for the next process
            logger.warning("webhook deliveries left for the next process: %s", error)
        self._stopping.set()
        self._wake.set()
        self._thread.join(STOP_SECONDS)
        if self._serving:
            with contextlib.suppress(HistoryError):
                self._store.release(SERVING)

    # The thread -----------------------------------------------------------------------

    def _start(self) -> None:
        with self._lock:
            if self._thread is None and not self._stopping.is_set():
                self._thread = threading.Thread(target=self._run, name="webhook-deliveries", daemon=True)
                self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        claimed = -CLAIM_EVERY_SECONDS
        while not self._stopping.is_set():
            self._wake.clear()
            try:
                if self._serving and time.monotonic() - claimed >= CLAIM_EVERY_SECONDS:
                    self._store.claim(SERVING)  # tells commands that exit at once that this process delivers
                    claimed = time.monotonic()
                self._round()
                pause = self._pause()
            except HistoryError as error:  # the database is away: try again later
                logger.warning("webhook deliveries wait for the chat history: %s", error)
                pause = POLL_SECONDS
            except Exception:  # noqa: BLE001 - a bug must not end the deliveries: said, and tried again later
                logger.exception("webhook deliveries failed")
                pause = POLL_SECONDS
            self._attempted.set()
            self._wake.wait(pause)

    def _round(self) -> None:
        """Attempt what is due, a batch at a time, until nothing is."""
        early, self._early = self._early, False
        while not self._stopping.is_set():
            held = self._store.hold_webhook_deliveries(self._urls, HOLD_SECONDS, BATCH, self._mine(), early=early)
            early = False
            if not held:
                return
            if len(held) == 1:
                self._attempt(held[0])
                continue
            with ThreadPoolExecutor(len(held), thread_name_prefix="webhook") as pool:
                list(pool.map(self._attempt, held))

    def _mine(self) -> list[int] | None:
        """Which deliveries this process delivers: all (None) when it serves, else its own."""
        if self._serving:
            return None
        with self._lock:
            return sorted(self._own)

    def _pause(self) -> float | None:
        """How long to wait for the next due delivery (None: until woken)."""
        due = self._store.next_webhook_due(self._urls, self._mine())
        if self._serving:
            return POLL_SECONDS if due is None else min(POLL_SECONDS, max(due, 0.05))
        return None if due is None else max(due, 0.05)

    def _flush(self) -> None:
        """Wait, at most FLUSH_SECONDS, for this process's own deliveries; none when a serving process delivers."""
        mine = self._mine()
        if not mine or not self._pending(mine) or not self._store.claim(SERVING):
            return
        try:
            deadline = time.monotonic() + FLUSH_SECONDS
            while (left := deadline - time.monotonic()) > 0 and self._pending(mine):
                self._attempted.clear()
                self._attempted.wait(min(left, 1.0))
        finally:
            self._store.release(SERVING)

    def _pending(self, ids: list[int]) -> bool:
        return self._store.next_webhook_due(self._urls, ids) is not None

    # One attempt ----------------------------------------------------------------------

    def _attempt(self, delivery: WebhookDelivery) -> None:
        status, delivered = self._post(self._hooks[delivery.url], delivery)
        if delivered:
            self._store.webhook_attempted(delivery.delivery_id, status, "delivered")
            logger.info("webhook %s %s delivered to %s (%s)", delivery.event, delivery.event_id, delivery.url, status)
            return
        gap = retry_gap(delivery.attempts + 1)
        if self._store.webhook_age_seconds(delivery.delivery_id) + gap > RETRY_FOR_SECONDS:
            self._store.webhook_attempted(delivery.delivery_id, status, "gave up")
            logger.warning("webhook %s %s to %s given up after %d attempts (last: %s)", delivery.event,
                           delivery.event_id, delivery.url, delivery.attempts + 1, status)  # fmt: skip
            return
        self._store.webhook_attempted(delivery.delivery_id, status, "retry", gap)
        logger.info("webhook %s to %s: %s; again in %.1f s", delivery.event, delivery.url, status, gap)

    def _post(self, hook: Hook, delivery: WebhookDelivery) -> tuple[str, bool]:
        """POST the delivery's body, signed, to its hook's URL: the status (an HTTP code, or the error in a few
        words) and whether it was a 2xx. Only the headers are read of the answer."""
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            SIGNATURE_HEADER: signature(hook.secret, delivery.body),
            "X-Webhook-Event": delivery.event,
            "X-Webhook-Id": delivery.event_id,
        }
        try:
            with (
                httpx.Client(
                    trust_env=False, follow_redirects=False, timeout=ATTEMPT_TIMEOUT, verify=self._context()
                ) as client,
                client.stream("POST", hook.url, content=delivery.body, headers=headers) as response,
            ):
                code = response.status_code
        except httpx.TimeoutException:
            return "timed out", False
        except httpx.HTTPError as error:
            return _why(error), False
        return str(code), 200 <= code < 300

    def _context(self) -> ssl.SSLContext:
        """The system's certificate authorities (where an office installs its own), made once."""
        if self._tls is None:
            self._tls = ssl.create_default_context()
        return self._tls


def _why(error: httpx.HTTPError) -> str:
    """A failed attempt in a few words (never the request's headers)."""
    kind = "cannot connect" if isinstance(error, httpx.ConnectError) else type(error).__name__
    detail = str(error).strip()
    return f"{kind}: {detail}"[:200] if detail else kind
