"""Users, their API keys, who owns each workspace and with whom it is shared.

A password is kept only as its argon2id hash and an API key only as the SHA-256 of its secret (the
application makes both); a removed user's keys, shares and ownerships go in the same transaction.
"""

from __future__ import annotations

from typing import Any

from domain.accounts import EVERYONE, Role, Share, ShareRole, User, UserOverview
from store.base import StoreBase
from store.sql import timestamp
from store.visibility import visible_to

USER_COLUMNS = "users.id AS user_id, users.name, users.role, users.email, users.created_at, users.display_name"


def _user(row: Any) -> User:
    values = dict(row)
    return User.model_validate({key: values[key] for key in User.model_fields if key in values})


class AccountStore(StoreBase):
    """Users, API keys, owners and shares."""

    # Users -----------------------------------------------------------------------------

    def add_user(
        self, name: str, role: Role, password_hash: str, email: str | None = None, display_name: str | None = None
    ) -> int:
        """A new user; ValueError when the name (or the e-mail) is taken."""
        with self._write() as db:
            taken = db.execute(
                "SELECT 1 FROM users WHERE lower(name) = lower(?) OR lower(email) = lower(?)", (name, email or "")
            ).fetchone()
            if taken is not None:
                raise ValueError(f"There is already a user called {name!r} (or with that e-mail).")
            row = db.execute(
                """INSERT INTO users (name, role, email, password_hash, created_at, display_name)
                   VALUES (?, ?, ?, ?, ?, ?) RETURNING id""",
                (name, role, email, password_hash, timestamp(), display_name),
            ).fetchone()
        return int(row[0])

    def get_user(self, name: str) -> User | None:
        with self._query() as db:
            row = db.execute(f"SELECT {USER_COLUMNS} FROM users WHERE lower(name) = lower(?)", (name,)).fetchone()  # noqa: S608
        return _user(row) if row is not None else None

    def user_by_id(self, user_id: int) -> User | None:
        with self._query() as db:
            row = db.execute(f"SELECT {USER_COLUMNS} FROM users WHERE id = ?", (user_id,)).fetchone()  # noqa: S608
        return _user(row) if row is not None else None

    def user_by_email(self, email: str) -> User | None:
        with self._query() as db:
            row = db.execute(
                f"SELECT {USER_COLUMNS} FROM users WHERE lower(email) = lower(?)",  # noqa: S608
                (email.strip(),),
            ).fetchone()
        return _user(row) if row is not None else None

    def password_hash(self, name: str) -> tuple[User, str] | None:
        """The user and their password's hash ('' when they have none), for signing in."""
        with self._query() as db:
            row = db.execute(
                f"SELECT {USER_COLUMNS}, users.password_hash FROM users WHERE lower(name) = lower(?)",  # noqa: S608
                (name,),
            ).fetchone()
        if row is None:
            return None
        values = dict(row)
        return User.model_validate(values), str(values["password_hash"])

    def list_users(self) -> list[User]:
        with self._query() as db:
            rows = db.execute(f"SELECT {USER_COLUMNS} FROM users ORDER BY lower(name)").fetchall()  # noqa: S608
        return [_user(row) for row in rows]

    def users_overview(self) -> list[UserOverview]:
        """Every user, with their last sign-in and how many of their API keys are in use, in one statement."""
        with self._query() as db:
            rows = db.execute(
                f"""SELECT {USER_COLUMNS}, users.last_sign_in_at,
                        (SELECT COUNT(*) FROM api_keys WHERE api_keys.user_id = users.id
                                                         AND api_keys.revoked_at IS NULL) AS keys
                    FROM users ORDER BY lower(users.name)"""  # noqa: S608 - fixed columns
            ).fetchall()
        return [
            UserOverview(user=_user(row), last_sign_in_at=dict(row)["last_sign_in_at"], keys=int(dict(row)["keys"]))
            for row in rows
        ]

    def set_display_name(self, user_id: int, display_name: str | None) -> bool:
        with self._write() as db:
            return bool(db.execute("UPDATE users SET display_name = ? WHERE id = ?", (display_name, user_id)).rowcount)

    def note_sign_in(self, user_id: int) -> None:
        """The user signed in now (with a password, an office account, or into a new session)."""
        with self._write() as db:
            db.execute("UPDATE users SET last_sign_in_at = ? WHERE id = ?", (timestamp(), user_id))

    def remove_user(self, user_id: int) -> bool:
        """Remove a user with their keys, sessions and shares; their workspaces are left without an owner."""
        with self._write() as db:
            db.execute("DELETE FROM api_keys WHERE user_id = ?", (user_id,))
            db.execute("DELETE FROM sign_in_sessions WHERE user_id = ?", (user_id,))
            db.execute("DELETE FROM shares WHERE user_id = ?", (user_id,))
            db.execute("DELETE FROM workspace_owners WHERE user_id = ?", (user_id,))
            return bool(db.execute("DELETE FROM users WHERE id = ?", (user_id,)).rowcount)

    def set_role(self, user_id: int, role: Role) -> bool:
        with self._write() as db:
            return bool(db.execute("UPDATE users SET role = ? WHERE id = ?", (role, user_id)).rowcount)

    def set_password_hash(self, user_id: int, password_hash: str) -> bool:
        with self._write() as db:
            return bool(
                db.execute("UPDATE users SET password_hash = ? WHERE id = ?", (password_hash, user_id)).rowcount
            )

    # API keys --------------------------------------------------------------------------

    def add_api_key(self, user_id: int, key_hash: str) -> int:
        """Keep a new key's hash; its id is part of the key, so the key is found without comparing hashes."""
        with self._write() as db:
            row = db.execute(
                "INSERT INTO api_keys (user_id, key_hash, created_at) VALUES (?, ?, ?) RETURNING id",
                (user_id, key_hash, timestamp()),
            ).fetchone()
        return int(row[0])

    def api_key(self, key_id: int) -> tuple[User, str] | None:
        """The user of a key that is not revoked, and the key's hash."""
        with self._query() as db:
            row = db.execute(
                f"""SELECT {USER_COLUMNS}, api_keys.key_hash FROM api_keys JOIN users ON users.id = api_keys.user_id
                    WHERE api_keys.id = ? AND api_keys.revoked_at IS NULL""",  # noqa: S608
                (key_id,),
            ).fetchone()
        if row is None:
            return None
        values = dict(row)
        return User.model_validate(values), str(values["key_hash"])

    def revoke_keys(self, user_id: int) -> int:
        """Revoke every key of a user; how many were in use."""
        with self._write() as db:
            return int(
                db.execute(
                    "UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                    (timestamp(), user_id),
                ).rowcount
            )

    # Owners and shares -----------------------------------------------------------------

    def set_owner(self, chat_id: int, user_id: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM workspace_owners WHERE chat_id = ?", (chat_id,))
            db.execute("INSERT INTO workspace_owners (chat_id, user_id) VALUES (?, ?)", (chat_id, user_id))

    def owner_of(self, chat_id: int) -> User | None:
        with self._query() as db:
            row = db.execute(
                f"""SELECT {USER_COLUMNS} FROM workspace_owners JOIN users ON users.id = workspace_owners.user_id
                    WHERE workspace_owners.chat_id = ?""",  # noqa: S608
                (chat_id,),
            ).fetchone()
        return _user(row) if row is not None else None

    def owned_counts(self, user_id: int) -> tuple[int, int]:
        """How many workspaces user `user_id` owns, and how many of them are shared with everyone (one statement)."""
        with self._query() as db:
            row = db.execute(
                """SELECT COUNT(*), COUNT(shares.chat_id) FROM workspace_owners
                   LEFT JOIN shares ON shares.chat_id = workspace_owners.chat_id AND shares.user_id = ?
                   WHERE workspace_owners.user_id = ?""",
                (EVERYONE, user_id),
            ).fetchone()
        return int(row[0]), int(row[1])

    def share(self, chat_id: int, user_id: int, role: ShareRole) -> None:
        """Share a workspace with a user (EVERYONE: everyone in the office), replacing an earlier share."""
        with self._write() as db:
            db.execute("DELETE FROM shares WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))
            db.execute("INSERT INTO shares (chat_id, user_id, role) VALUES (?, ?, ?)", (chat_id, user_id, role))

    def unshare(self, chat_id: int, user_id: int) -> bool:
        with self._write() as db:
            return bool(db.execute("DELETE FROM shares WHERE chat_id = ? AND user_id = ?", (chat_id, user_id)).rowcount)

    def shares_of(self, chat_id: int) -> list[Share]:
        with self._query() as db:
            rows = db.execute(
                """SELECT shares.chat_id, shares.user_id, users.name AS user_name, shares.role
                   FROM shares LEFT JOIN users ON users.id = shares.user_id
                   WHERE shares.chat_id = ? ORDER BY shares.user_id""",
                (chat_id,),
            ).fetchall()
        return [Share.model_validate(dict(row)) for row in rows]

    def owners(self, viewer: int | None = None) -> dict[int, str]:
        """The owner's name of each owned workspace user `viewer` may see (None: every one)."""
        seen, parameters = visible_to(viewer, "workspace_owners.chat_id")
        with self._query() as db:
            rows = db.execute(
                f"""SELECT workspace_owners.chat_id, users.name FROM workspace_owners
                    JOIN users ON users.id = workspace_owners.user_id WHERE {seen}""",  # noqa: S608 - fixed condition
                parameters,
            ).fetchall()
        return {int(row[0]): str(row[1]) for row in rows}
