"""A webhook event as its receivers get it: one JSON body, signed as GitHub signs its webhooks.

    {"event": "turn.completed", "id": "evt_…", "created": 1790000000,
     "workspace": {"id": 3, "name": "Footbridge"}, "user": {"id": 2, "name": "ann"} | null, "data": {…}}

The body's bytes are made once and kept with each delivery, so every attempt sends (and signs) exactly the same
bytes; `X-Signature-256: sha256=<hex>` is the HMAC-SHA256 of those bytes with the hook's secret.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid
from typing import Any

from domain.accounts import User
from domain.records import Workspace
from domain.webhooks import WebhookEvent

SIGNATURE_HEADER = "X-Signature-256"


def new_event_id() -> str:
    """An event's id, one per event, the same on every attempt and for every receiver."""
    return f"evt_{uuid.uuid4().hex}"


def event_body(
    event: WebhookEvent, event_id: str, workspace: Workspace, user: User | None, data: dict[str, Any]
) -> bytes:
    """The event's JSON body: compact, and ASCII (any text, even a lone surrogate, is written with `\\u` escapes)."""
    payload = {
        "event": event,
        "id": event_id,
        "created": int(time.time()),
        "workspace": {"id": workspace.chat_id, "name": workspace.chat_name},
        "user": None if user is None else {"id": user.user_id, "name": user.name},
        "data": data,
    }
    return json.dumps(payload, separators=(",", ":")).encode()


def signature(secret: str, body: bytes) -> str:
    """The `X-Signature-256` header's value: `sha256=` and the hex HMAC-SHA256 of the exact body bytes."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def signature_matches(secret: str, body: bytes, header: str) -> bool:
    """Whether a receiver's `X-Signature-256` header is this body's signature (compared in constant time)."""
    return hmac.compare_digest(signature(secret, body).encode(), header.encode())
