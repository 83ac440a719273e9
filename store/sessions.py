"""Sign-in sessions: a browser stays signed in across reloads and restarts of the web process until the session
expires or is ended (sign-out, a password or role change, the user's removal). Only the SHA-256 of a session's
secret is kept; its id is part of the token, so it is found by id and its secret compared in constant time."""

from __future__ import annotations

from typing import Any

from domain.accounts import User
from store.accounts import USER_COLUMNS
from store.base import StoreBase
from store.sql import timestamp


class SessionStore(StoreBase):
    """Sessions of signed-in users."""

    def add_session(self, user_id: int, secret_hash: str, expires_at: float) -> int:
        """A new session of `user_id` until `expires_at` (seconds since 1970); its id."""
        with self._write() as db:
            row = db.execute(
                """INSERT INTO sign_in_sessions (user_id, secret_hash, created_at, expires_at)
                   VALUES (?, ?, ?, ?) RETURNING id""",
                (user_id, secret_hash, timestamp(), expires_at),
            ).fetchone()
        return int(row[0])

    def session(self, session_id: int) -> tuple[User, str, float] | None:
        """The user of a session (as they are now), its secret's hash and when it expires; None when it was ended,
        or its user removed. One statement."""
        with self._query() as db:
            row = db.execute(
                f"""SELECT {USER_COLUMNS}, sign_in_sessions.secret_hash, sign_in_sessions.expires_at
                    FROM sign_in_sessions JOIN users ON users.id = sign_in_sessions.user_id
                    WHERE sign_in_sessions.id = ?""",  # noqa: S608 - fixed columns
                (session_id,),
            ).fetchone()
        if row is None:
            return None
        values: dict[str, Any] = dict(row)
        return User.model_validate(values), str(values["secret_hash"]), float(values["expires_at"])

    def end_session(self, session_id: int) -> bool:
        with self._write() as db:
            return bool(db.execute("DELETE FROM sign_in_sessions WHERE id = ?", (session_id,)).rowcount)

    def end_sessions(self, user_id: int, expired_before: float | None = None) -> int:
        """End every session of `user_id` (or, with `expired_before`, only those expired by then); how many."""
        with self._write() as db:
            if expired_before is None:
                cursor = db.execute("DELETE FROM sign_in_sessions WHERE user_id = ?", (user_id,))
            else:
                cursor = db.execute(
                    "DELETE FROM sign_in_sessions WHERE user_id = ? AND expires_at < ?", (user_id, expired_before)
                )
            return int(cursor.rowcount)
