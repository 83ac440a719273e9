"""Webhook deliveries: each event for each receiver's URL, kept from before its first attempt until a 2xx answer or
until it is given up.

A delivery is written in the transaction of what it tells (a turn, a sign-off, a share), so it exists exactly when
that does. Several processes may deliver from one store: a process *holds* a delivery for the time of one attempt
(`hold_webhook_deliveries`, a conditional update that only one of them wins) and lets it go with the attempt's
outcome, so no two processes send the same delivery at once, and one answered 2xx is never taken again. A hold
whose process ended (on this machine, seen at once) or whose time ran out is free for another. Times that decide
(when an attempt is due, how long a hold lasts) are the database's clock, shared by every process on the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from domain.webhooks import WebhookDelivery
from store.base import StoreBase
from store.holders import holder_gone
from store.sql import Database, timestamp

Outcome = Literal["delivered", "retry", "gave up"]
_COLUMNS = "id AS delivery_id, event_id, event, url, body, created_at, attempts, last_status, delivered_at, gave_up_at"
_PENDING = "delivered_at IS NULL AND gave_up_at IS NULL"


class WebhookStore(StoreBase):
    """Deliveries of webhook events, held by one process at a time while it attempts them."""

    def add_webhook_delivery(self, event_id: str, event: str, url: str, body: bytes) -> int:
        """Keep one event for one URL, due at once (inside the caller's unit of work, when one is open)."""
        now = self._dialect.now_seconds
        with self._write() as db:
            row = db.execute(
                f"""INSERT INTO webhook_deliveries (event_id, event, url, body, created_at, created_seconds,
                        next_attempt_at) VALUES (?, ?, ?, ?, ?, {now}, {now}) RETURNING id""",  # noqa: S608 - clock
                (event_id, event, url, body, timestamp()),
            ).fetchone()
        return int(row[0])

    def hold_webhook_deliveries(
        self, urls: Sequence[str], seconds: float, limit: int, ids: Sequence[int] | None = None, early: bool = False
    ) -> list[WebhookDelivery]:
        """Hold, for `seconds`, up to `limit` pending deliveries to `urls` that are due (`early`: due or not;
        `ids`: only these) and that no other living process holds; the deliveries this store now holds."""
        if not urls or (ids is not None and not ids):
            return []
        now = self._dialect.now_seconds
        among, parameters = _among(urls, self._dialect.id_list(ids) if ids is not None else None)
        due = "" if early else f"AND next_attempt_at <= {now}"
        held: list[WebhookDelivery] = []
        with self._write() as db:
            rows = db.execute(
                f"""SELECT id, holder, held_until < {now} AS lapsed FROM webhook_deliveries
                    WHERE {_PENDING} {due} AND {among} ORDER BY next_attempt_at, id LIMIT ?""",  # noqa: S608
                (*parameters, limit),
            ).fetchall()
            for row in rows:
                if row["holder"] is None or row["lapsed"] or holder_gone(row["holder"]):
                    taken = self._hold(db, int(row["id"]), row["holder"], seconds)
                    held += [taken] if taken is not None else []
        return held

    def _hold(self, db: Database, delivery_id: int, was: str | None, hold_seconds: float) -> WebhookDelivery | None:
        """Take one delivery if it is still as it was read (another process may have taken it meanwhile)."""
        row = db.execute(
            f"""UPDATE webhook_deliveries SET holder = ?, held_until = {self._dialect.now_seconds} + ?
                WHERE id = ? AND COALESCE(holder, '') = ? AND {_PENDING}
                RETURNING {_COLUMNS}""",  # noqa: S608 - the dialect's clock, fixed columns
            (self.holder, hold_seconds, delivery_id, was or ""),
        ).fetchone()
        return _delivery(row) if row is not None else None

    def webhook_attempted(self, delivery_id: int, status: str, outcome: Outcome, retry_in: float = 0.0) -> None:
        """Record an attempt of a delivery this store holds, and let it go: delivered, due again in `retry_in`
        seconds, or given up."""
        ended = {"delivered": ", delivered_at = :now", "gave up": ", gave_up_at = :now", "retry": ""}[outcome]
        with self._write() as db:
            db.execute(
                f"""UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = :status, holder = NULL,
                        held_until = NULL, next_attempt_at = {self._dialect.now_seconds} + :retry_in {ended}
                    WHERE id = :id AND holder = :holder""",  # noqa: S608 - the dialect's clock, a fixed choice
                {"status": status, "retry_in": retry_in, "now": timestamp(), "id": delivery_id, "holder": self.holder},
            )

    def webhook_age_seconds(self, delivery_id: int) -> float:
        """How long ago the delivery was made, by the database's clock."""
        with self._query() as db:
            row = db.execute(
                f"SELECT {self._dialect.now_seconds} - created_seconds FROM webhook_deliveries WHERE id = ?",  # noqa: S608
                (delivery_id,),
            ).fetchone()
        return float(row[0]) if row is not None else 0.0

    def next_webhook_due(self, urls: Sequence[str], ids: Sequence[int] | None = None) -> float | None:
        """Seconds until the next pending delivery to `urls` (of `ids`, if given) is due (0 or less: now); None
        when none is pending."""
        if not urls or (ids is not None and not ids):
            return None
        among, parameters = _among(urls, self._dialect.id_list(ids) if ids is not None else None)
        with self._query() as db:
            row = db.execute(
                f"""SELECT MIN(CASE WHEN holder IS NULL THEN next_attempt_at ELSE held_until END)
                        - {self._dialect.now_seconds}
                    FROM webhook_deliveries WHERE {_PENDING} AND {among}""",  # noqa: S608 - the dialect's clock
                parameters,
            ).fetchone()
        return float(row[0]) if row is not None and row[0] is not None else None

    def webhook_deliveries(self, limit: int | None = None) -> list[WebhookDelivery]:
        """Deliveries, the newest first."""
        with self._query() as db:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM webhook_deliveries ORDER BY id DESC LIMIT ?",  # noqa: S608 - fixed columns
                (limit if limit is not None else 2**62,),
            ).fetchall()
        return [_delivery(row) for row in rows]


def _among(urls: Sequence[str], id_list: tuple[str, Any] | None) -> tuple[str, list[Any]]:
    """The condition keeping deliveries to `urls` (and of `ids`), with its parameters in order."""
    condition = f"url IN ({', '.join('?' * len(urls))})"
    parameters: list[Any] = list(urls)
    if id_list is not None:
        condition += f" AND id IN ({id_list[0]})"
        parameters.append(id_list[1])
    return condition, parameters


def _delivery(row: Any) -> WebhookDelivery:
    found = dict(row)
    return WebhookDelivery.model_validate({**found, "body": bytes(found["body"])})
