"""The records of webhooks: the events the office's other programs may hear of, and one delivery of one event to
one receiver's URL."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

WebhookEvent = Literal["turn.completed", "package.checked", "package.approved", "workspace.shared"]
WEBHOOK_EVENTS: tuple[WebhookEvent, ...] = ("turn.completed", "package.checked", "package.approved", "workspace.shared")


class WebhookDelivery(BaseModel, frozen=True):
    """One event for one URL, kept from before its first attempt until it was answered 2xx or given up: the exact
    body that is signed and sent on every attempt, how many attempts were made and what the last one got (an HTTP
    status, or the error in a few words). Never the secret, which only the settings' file holds."""

    delivery_id: int
    event_id: str
    event: str
    url: str
    body: bytes
    created_at: str
    attempts: int = 0
    last_status: str | None = None
    delivered_at: str | None = None
    gave_up_at: str | None = None

    @property
    def state(self) -> Literal["delivered", "gave up", "pending"]:
        if self.delivered_at is not None:
            return "delivered"
        return "gave up" if self.gave_up_at is not None else "pending"
