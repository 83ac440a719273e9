"""Webhooks: the office's other programs told of what happens here, signed, in the background.

`config` reads WEBHOOKS_CONFIG (the hooks: URL, events, secret), `events` makes an event's body and its signature,
`deliverer` attempts the stored deliveries in a thread of its own with retries, and `webhooks` is the application's
part, which the use cases hand their events to inside their unit of work.
"""

from __future__ import annotations

from app.webhooks.config import Hook, load_webhooks
from app.webhooks.deliverer import Deliverer
from app.webhooks.events import SIGNATURE_HEADER, signature, signature_matches
from app.webhooks.webhooks import Webhooks

__all__ = ["Deliverer", "Hook", "SIGNATURE_HEADER", "Webhooks", "load_webhooks", "signature", "signature_matches"]
