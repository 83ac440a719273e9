"""The webhooks part of the application: events told to the office's other programs, in the transaction of what
they tell.

Each use case that makes an event (a turn stored, from whichever face; a package checked or approved; a workspace
shared) hands it here inside its unit of work: one delivery per hook that wants the event is written beside the
change itself, so the event exists exactly when the change does, and the deliverer (`app.webhooks.deliverer`)
sends it after the transaction, in the background. Without hooks nothing is written and nothing runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.accounts.policy import Access
from app.ports import WebhookRecords
from app.webhooks.deliverer import Deliverer
from app.webhooks.events import event_body, new_event_id
from domain.accounts import EVERYONE, Share, User
from domain.events import TurnCompleted
from domain.webhooks import WebhookDelivery, WebhookEvent

if TYPE_CHECKING:
    from app.packages.desk import SignoffRecord  # the packages are loaded only where one is signed off

LISTED = 100  # deliveries `webhooks` lists unless asked for more


class Webhooks:
    """Webhook events of one user's view (None: one person, or the server's owner), and the deliveries made."""

    def __init__(self, store: WebhookRecords, deliverer: Deliverer | None, user: User | None, access: Access) -> None:
        self._store = store
        self._deliverer = deliverer
        self._user = user
        self._access = access

    def turn_completed(self, chat_id: int, turn_id: int, question: str, completed: TurnCompleted) -> None:
        """A turn was stored (however it ended: `status` says complete, stopped or error)."""
        done = completed.stop_reason in ("end_turn", "max_tool_rounds")
        data = {
            "turn": turn_id,
            "question": question,
            "answer": completed.content,
            "status": "complete" if done else completed.stop_reason,
            "model": completed.model,
        }
        self._tell("turn.completed", chat_id, data)

    def signed_off(self, record: SignoffRecord) -> None:
        """A package revision was checked or approved (`user` is the signer)."""
        data: dict[str, Any] = {"revision": record.letter, "signer": record.who.name, "note": record.note}
        if record.sha256:
            data["sha256"] = record.sha256
        self._tell("package.approved" if record.step == "approved" else "package.checked", record.chat_id, data)

    def shared(self, share: Share) -> None:
        """A workspace was shared with a user, or with everyone, as viewer or editor."""
        everyone = share.user_id == EVERYONE
        data = {"with": None if everyone else share.user_name, "everyone": everyone, "as": share.role}
        self._tell("workspace.shared", share.chat_id, data)

    def deliveries(self, limit: int | None = LISTED) -> list[WebhookDelivery]:
        """The deliveries made, the newest first (an admin's, or the server's owner's, to read)."""
        self._access.admin("list the webhook deliveries")
        return self._store.webhook_deliveries(limit)

    def keep_delivering(self) -> None:
        """This process serves for a while (the protocol server, the web app): it delivers what any process on the
        store left pending too."""
        if self._deliverer is not None:
            self._deliverer.keep_delivering()

    def _tell(self, event: WebhookEvent, chat_id: int, data: dict[str, Any]) -> None:
        hooks = self._deliverer.wanting(event) if self._deliverer is not None else []
        workspace = self._store.get_chat(chat_id) if hooks else None
        if self._deliverer is None or workspace is None:
            return
        event_id = new_event_id()
        body = event_body(event, event_id, workspace, self._user, data)
        self._deliverer.made([self._store.add_webhook_delivery(event_id, event, hook.url, body) for hook in hooks])

    def close(self) -> None:
        """Stop delivering (a command that exits at once first tries its own deliveries, for a while)."""
        if self._deliverer is not None:
            self._deliverer.close()
