"""Notifications and what an open page watches.

A notification is kept for one user until they dismiss it, so none is lost with a closed tab: a revision checked
or approved, a workspace shared with them, a file edit waiting for their approval. `about` names what it is about
("file edit 12"), so that it goes once that is settled. An open page reads `page_activity` every few seconds: one
statement of index lookups, whatever the history's length, which changes when anything it shows of the workspace
(its turns, the turn running in it, its file edits waiting) or of the user's notifications does.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.accounts import EVERYONE, effective_grant
from domain.records import Notification, PageActivity
from store.base import StoreBase
from store.sql import timestamp
from store.visibility import ACCESS_TO

NOBODY = -1  # the viewer when nobody is signed in (AUTH=none): no user has this id

# The open workspace (none: chat 0) as the user may see it, and what its page shows that others change.
_ACTIVITY = ACCESS_TO.format(
    columns="""chats.chat_id, chats.activity_seq, chats.turn_count,
        (SELECT id FROM running_turns WHERE chat_id = :chat) AS running_id,
        (SELECT COUNT(*) FROM file_edits WHERE chat_id = :chat AND status = 'proposed') AS proposed_edits,
        (SELECT MAX(id) FROM notifications WHERE user_id = :viewer) AS latest_notification,
        (SELECT COUNT(*) FROM notifications WHERE user_id = :viewer) AS notifications"""
)


class NotificationStore(StoreBase):
    """Each user's notifications, and the one reading of what an open page shows."""

    def notify(self, user_ids: Iterable[int], text: str, chat_id: int | None = None, about: str | None = None) -> None:
        """Tell each of `user_ids` `text` (about workspace `chat_id`), kept until they dismiss it."""
        rows = [(user_id, chat_id, text, about, timestamp()) for user_id in dict.fromkeys(user_ids)]
        if not rows:
            return
        with self._write() as db:
            db.executemany(
                "INSERT INTO notifications (user_id, chat_id, text, about, created_at) VALUES (?, ?, ?, ?, ?)", rows
            )

    def notifications(self, user_id: int, limit: int = 20) -> list[Notification]:
        """The user's notifications, newest first."""
        with self._query() as db:
            rows = db.execute(
                """SELECT id AS notification_id, chat_id, text, created_at FROM notifications
                   WHERE user_id = ? ORDER BY id DESC LIMIT ?""",
                (user_id, limit),
            ).fetchall()
        return [Notification.model_validate(dict(row)) for row in rows]

    def dismiss_notification(self, notification_id: int, user_id: int) -> bool:
        """Remove one of the user's notifications; False when it was not theirs, or is gone already."""
        with self._write() as db:
            cursor = db.execute("DELETE FROM notifications WHERE id = ? AND user_id = ?", (notification_id, user_id))
            return bool(cursor.rowcount)

    def clear_notifications(self, chat_id: int, about: str) -> int:
        """Remove every notification about `about` in workspace `chat_id` (it is settled); how many."""
        with self._write() as db:
            cursor = db.execute("DELETE FROM notifications WHERE chat_id = ? AND about = ?", (chat_id, about))
            return int(cursor.rowcount)

    def page_activity(self, chat_id: int | None, viewer: int | None) -> PageActivity:
        """What a page open on `chat_id` (None: none) for user `viewer` (None: nobody signed in) shows that others
        change, in one statement; of a workspace the user may not see, only their notifications."""
        parameters = {"chat": chat_id or 0, "viewer": NOBODY if viewer is None else viewer, "everyone": EVERYONE}
        with self._query() as db:
            row = dict(db.execute(_ACTIVITY, parameters).fetchone())
        notes = {"latest_notification": row["latest_notification"] or 0, "notifications": row["notifications"]}
        grant = effective_grant(row["viewer_role"], row["owned"] is not None, row["shared"])
        if row["chat_id"] is None or (viewer is not None and grant is None):
            return PageActivity(**notes)
        return PageActivity(
            seen=True,
            activity=row["activity_seq"],
            turns=row["turn_count"],
            running_id=row["running_id"],
            proposed_edits=row["proposed_edits"],
            **notes,
        )
