"""Accounts: signing in (password, API key, or an e-mail the office's single sign-on vouched for) and looking
after users, their roles, passwords and keys.

A password is kept as its argon2id hash (`argon2-cffi`); an API key is `eak_<id>_<secret>` and only the
SHA-256 of its secret is kept, compared in constant time. A wrong password and an unknown user give the
same sentence after the same work (a hash is checked either way), and failed attempts are slowed per user
and per address (`app.accounts.throttle`). Passwords and keys never reach the audit trail, a log or an error.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access, SignInError
from app.accounts.throttle import SignInThrottle
from app.accounts.user_names import check_user_name
from app.ports import AccountRecords
from domain.accounts import ROLES, Role, User, UserOverview

if TYPE_CHECKING:
    from argon2 import PasswordHasher

WRONG_PASSWORD = "The user name or password is wrong."
WRONG_KEY = "The API key is missing, wrong or revoked; ask an admin for a new one."
SLOW_DOWN = "Too many failed sign-ins; wait {seconds} s and try again."
_KEY = re.compile(r"eak_([0-9]{1,18})_([A-Za-z0-9_-]{20,100})")
_SESSION = re.compile(r"ess_([0-9]{1,18})_([A-Za-z0-9_-]{20,100})")
SESSION_ENDED = "You were signed out (here or elsewhere, or your password or role changed); sign in again."
SESSION_EXPIRED = "Your session has expired; sign in again."
MIN_PASSWORD = 8
DISPLAY_NAME_LENGTH = 100


@functools.cache
def _hasher() -> PasswordHasher:
    """argon2id with the library's current parameters, loaded when a password is first checked or set."""
    from argon2 import PasswordHasher

    return PasswordHasher()


@functools.cache
def _dummy_hash() -> str:
    """A hash checked for an unknown user, so both take as long; made on the first sign-in, not at import (argon2id
    takes 64 MiB and a fifth of a second, which every process importing the application would pay)."""
    return _hasher().hash(secrets.token_hex(16))


def _password_matches(stored: str, password: str) -> bool:
    """Whether `password` is the one `stored` was hashed from (argon2's check, its time whatever the answer)."""
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return bool(_hasher().verify(stored, password))
    except (VerificationError, InvalidHashError):
        return False


def _free(name: str, taken: list[str]) -> bool:
    """Whether a name made for a new user is one that no user has and none looks like."""
    try:
        check_user_name(name, taken)
    except ValueError:
        return False
    return name.casefold() not in {other.casefold() for other in taken}


def _key_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class OfficeSignOn:
    """Who single sign-on may make a user of on their first sign-in: e-mails of these domains
    (SSO_ALLOWED_DOMAINS), with the role the identity provider's claim gives (SSO_ROLE_CLAIM)."""

    allowed_domains: frozenset[str] = frozenset()
    role_claim: str = "roles"

    @classmethod
    def of(cls, domains: str, role_claim: str) -> OfficeSignOn:
        found = frozenset(part.strip().lower().lstrip("@") for part in domains.split(",") if part.strip())
        return cls(found, role_claim.strip() or "roles")

    def admits(self, email: str) -> bool:
        return "@" in email and email.rsplit("@", 1)[1].strip().lower() in self.allowed_domains

    def role(self, claims: Mapping[str, object]) -> Role:
        """The most the claim names of admin, engineer and viewer (a text or a list); engineer when none."""
        value = claims.get(self.role_claim)
        named = {str(item).strip().lower() for item in (value if isinstance(value, list | tuple) else [value])}
        return next((role for role in ROLES if role in named), "engineer")


def check_role(role: str) -> Role:
    if role not in ROLES:
        raise ValueError(f"{role!r} is not a role; use admin, engineer or viewer.")
    return role


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"A password needs at least {MIN_PASSWORD} characters.")
    return password


class Accounts:
    """Sign-in for the faces, and users, roles, passwords and keys for admins and the server's owner."""

    def __init__(
        self,
        store: AccountRecords,
        access: Access,
        audit: AuditTrail,
        throttle: SignInThrottle,
        session_hours: float = 12.0,
        clock: Callable[[], float] = time.time,
        office: OfficeSignOn | None = None,
    ) -> None:
        self._store = store
        self._access = access
        self._audit = audit
        self._throttle = throttle
        self._session_seconds = session_hours * 3600
        self._clock = clock
        self._office = office or OfficeSignOn()

    # Signing in ------------------------------------------------------------------------

    def sign_in(self, name: str, password: str, address: str = "") -> User:
        """The user whose password this is; SignInError with one sentence for a wrong name or password alike (the
        same work either way), or for an attempt the throttle makes wait."""
        wanted = unicodedata.normalize("NFKC", name).strip()
        found = self._store.password_hash(wanted)
        key = self._throttle.key(wanted, address, found is not None)
        left = self._throttle.reserve(self._store, key)
        if left > 0:
            self._failed(found[0].name if found else None, address, "slowed down")
            raise SignInError(SLOW_DOWN.format(seconds=max(1, round(left))))
        stored = found[1] if found is not None and found[1] else _dummy_hash()
        ok = _password_matches(stored, password) and found is not None and bool(found[1])
        if not ok or found is None:
            self._failed(found[0].name if found else None, address, "password")
            raise SignInError(WRONG_PASSWORD)
        self._throttle.succeeded(self._store, key)
        self._signed_in(found[0], f"password from {address or 'here'}")
        return found[0]

    def sign_in_with_key(self, key: str, address: str = "") -> User:
        """The user whose API key this is; SignInError for a missing, malformed, wrong or revoked key. A key's use
        is recorded a minute at a time (counted in this process, so a request writes nothing), and wrong keys per
        address likewise (counted in the store): never one record a request."""
        match = _KEY.fullmatch(key.strip())
        found = self._store.api_key(int(match.group(1))) if match else None
        if match is None or found is None or not hmac.compare_digest(found[1], _key_hash(match.group(2))):
            self._failed(None, address, "API key")
            raise SignInError(WRONG_KEY)
        if used := self._throttle.uses_to_record(f"key {match.group(1)} from {address or 'here'}"):
            detail = f"API key {match.group(1)} from {address or 'here'}, {used} request{'s' * (used != 1)}"
            self._audit.acting_as(found[0].name).record("sign-in", detail=detail)
        return found[0]

    def _failed(self, user_name: str | None, address: str, how: str) -> None:
        """A failed sign-in, for the audit trail a minute at a time: the name only when it is a user's (a password
        typed as a name is never kept), the address, and how many failed so (the first says how)."""
        who = f"for {user_name}" if user_name else "with a name that is no user's" if how != "API key" else "by key"
        what = f"{who} from {address or 'here'}"
        if count := self._throttle.to_record(self._store, what):
            self._audit.record("failed sign-in", detail=f"{count} failed sign-in{'s' * (count != 1)} {what} ({how})")

    def sign_in_by_email(self, email: str, claims: Mapping[str, object] | None = None) -> User:
        """The user with this e-mail, once the office's identity provider has vouched for it (single sign-on); a
        first sign-in from a domain of SSO_ALLOWED_DOMAINS makes the user, with the role the provider's
        SSO_ROLE_CLAIM gives (engineer when it gives none) and the name it knows them by."""
        email = email.strip()
        user = self._store.user_by_email(email) if email else None
        if user is None and self._office.admits(email):
            user = self._first_sign_in(email, claims or {})
        if user is None:
            self._audit.record("failed sign-in", detail="single sign-on: no user has that e-mail")
            raise SignInError("No user here has that e-mail; ask an admin to add you.")
        self._signed_in(user, "single sign-on")
        return user

    def _first_sign_in(self, email: str, claims: Mapping[str, object]) -> User:
        role = self._office.role(claims)
        shown = " ".join(str(claims.get("name") or "").split())[:DISPLAY_NAME_LENGTH] or None
        taken = [user.name for user in self._store.list_users()]
        base = re.sub(r"[^\w.-]+", "-", email.split("@", 1)[0]).strip("-.")[:56] or "user"
        name = next(f"{base}{suffix}" for suffix in ("", *(f"-{n}" for n in range(2, 10_000)))
                    if _free(f"{base}{suffix}", taken))  # fmt: skip
        with self._store.unit_of_work():
            user_id = self._store.add_user(name, role, "", email, shown)
            self._audit.record("user added", detail=f"{name} as {role}, by single sign-on as {email}")
        found = self._store.user_by_id(user_id)
        assert found is not None
        return found

    def _signed_in(self, user: User, how: str) -> None:
        with self._store.unit_of_work():
            self._store.note_sign_in(user.user_id)
            self._audit.acting_as(user.name).record("sign-in", detail=how)

    # Sessions: a browser stays signed in across reloads ---------------------------------

    def start_session(self, user: User) -> str:
        """A session token for `user`, valid for SESSION_HOURS unless ended first: `ess_<id>_<secret>`, of which
        only the SHA-256 of the secret is kept (expired sessions of the user are cleared meanwhile)."""
        secret = secrets.token_urlsafe(32)
        now = self._clock()
        with self._store.unit_of_work():
            self._store.end_sessions(user.user_id, expired_before=now)
            session_id = self._store.add_session(user.user_id, _key_hash(secret), now + self._session_seconds)
        return f"ess_{session_id}_{secret}"

    def resume(self, token: str) -> User:
        """The user of a session, as they are now (their role too); SignInError when the token is not a session's,
        or it expired, was ended (sign-out, a password or role change) or its user was removed. One statement."""
        match = _SESSION.fullmatch(token.strip())
        found = self._store.session(int(match.group(1))) if match else None
        if match is None or found is None or not hmac.compare_digest(found[1], _key_hash(match.group(2))):
            raise SignInError(SESSION_ENDED)
        if found[2] <= self._clock():
            raise SignInError(SESSION_EXPIRED)
        return found[0]

    def view_stands(self, token: str, key: str) -> User:
        """The user of a view opened with an API key and a session (a terminal's prompt), as they are now;
        SignInError with the sentence once the key was revoked, or the session ended (a password or role change,
        a removal, its time)."""
        user = self.resume(token)
        if self.sign_in_with_key(key).user_id != user.user_id:
            raise SignInError(WRONG_KEY)
        return user

    def end_session(self, token: str) -> None:
        """Sign out: the session no longer resumes, in any tab or browser that holds it."""
        match = _SESSION.fullmatch(token.strip())
        if match is not None:
            self._store.end_session(int(match.group(1)))

    # Users -----------------------------------------------------------------------------

    def users(self) -> list[User]:
        self._access.admin("list the users")
        return self._store.list_users()

    def overview(self) -> list[UserOverview]:
        """Every user with their last sign-in and keys in use (admins only)."""
        self._access.admin("list the users")
        return self._store.users_overview()

    def set_display_name(self, name: str, display_name: str) -> User:
        """The name packages and the audit trail show for `name` (their own, or anyone's for an admin)."""
        user = self.user(name)
        if self._access.user is None or self._access.user.user_id != user.user_id:
            self._access.admin("change another user's display name")
        shown = " ".join(display_name.split())[:DISPLAY_NAME_LENGTH] or None
        with self._store.unit_of_work():
            self._store.set_display_name(user.user_id, shown)
            self._audit.record("display name changed", detail=f"{user.name}: {shown or '(none)'}")
        return self.user(name)

    def change_own_password(self, current: str, new: str) -> None:
        """The signed-in user's own password, once their current one is given; every session of theirs ends (the
        face that changed it signs in again at once)."""
        me = self._access.user
        if me is None:
            raise SignInError("Only a signed-in user changes their own password.")
        found = self._store.password_hash(me.name)
        if not _password_matches(found[1] if found and found[1] else _dummy_hash(), current):
            raise SignInError("The current password is wrong; nothing was changed.")
        self.set_password(me.name, new)

    def user(self, name: str) -> User:
        """A user by name; LookupError says there is none."""
        user = self._store.get_user(name.strip())
        if user is None:
            raise LookupError(f"There is no user called {name.strip()!r}.")
        return user

    def add(
        self, name: str, role: str, password: str, email: str | None = None, display_name: str | None = None
    ) -> User:
        self._access.admin("add users")
        others = [user.name for user in self._store.list_users() if user.name.casefold() != name.strip().casefold()]
        name = check_user_name(name, others)  # a taken name itself is the store's to refuse, in its own sentence
        hashed = _hasher().hash(check_password(password))
        with self._store.unit_of_work():
            shown = " ".join((display_name or "").split())[:DISPLAY_NAME_LENGTH] or None
            user_id = self._store.add_user(name, check_role(role), hashed, (email or "").strip() or None, shown)
            self._audit.record("user added", detail=f"{name} as {role}")
        user = self._store.user_by_id(user_id)
        assert user is not None
        return user

    def remove(self, name: str) -> None:
        self._access.admin("remove users")
        user = self.user(name)
        with self._store.unit_of_work():  # the count and the change in one transaction: two admins removed at once
            self._keep_an_admin(user, "removed")  # by two processes leave one
            self._store.remove_user(user.user_id)
            self._audit.record("user removed", detail=user.name)

    def set_role(self, name: str, role: str) -> User:
        self._access.admin("change roles")
        user = self.user(name)
        with self._store.unit_of_work():
            if check_role(role) != "admin":
                self._keep_an_admin(user, f"made {role}")
            self._store.set_role(user.user_id, check_role(role))
            self._store.end_sessions(user.user_id)  # the role counts at once: signed in again, with it
            self._audit.record("role changed", detail=f"{user.name}: {user.role} to {role}")
        return self.user(name)

    def _keep_an_admin(self, user: User, what: str) -> None:
        """ValueError when `user` is the last admin: the office would have nobody to look after its users."""
        if user.role == "admin" and sum(other.role == "admin" for other in self._store.list_users()) <= 1:
            raise ValueError(f"{user.name} is the last admin and cannot be {what}; make another user an admin first.")

    def set_password(self, name: str, password: str) -> None:
        user = self.user(name)
        if self._access.user is None or self._access.user.user_id != user.user_id:
            self._access.admin("set another user's password")
        hashed = _hasher().hash(check_password(password))
        with self._store.unit_of_work():
            self._store.set_password_hash(user.user_id, hashed)
            self._store.end_sessions(user.user_id)  # every browser signed in with the old password signs in again
            self._audit.record("password changed", detail=user.name)

    def issue_key(self, name: str) -> str:
        """A new API key for `name`, returned once: only the hash of its secret is kept."""
        self._access.admin("issue API keys")
        user = self.user(name)
        secret = secrets.token_urlsafe(32)
        with self._store.unit_of_work():
            key_id = self._store.add_api_key(user.user_id, _key_hash(secret))
            self._audit.record("key issued", detail=f"{user.name}: key {key_id}")
        return f"eak_{key_id}_{secret}"

    def revoke_keys(self, name: str) -> int:
        """Revoke every key of `name`; how many were in use."""
        self._access.admin("revoke API keys")
        user = self.user(name)
        with self._store.unit_of_work():
            count = self._store.revoke_keys(user.user_id)
            self._audit.record("key revoked", detail=f"{user.name}: {count} key{'s' * (count != 1)}")
        return count
