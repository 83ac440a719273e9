"""Failed sign-ins slow down the guesser, not the account, in every process of an office alike.

Failures are counted in the store (`store.sign_in_failures`), per canonical user name and address (the name
trimmed, NFKC-normalised and case-folded, so "bob", " bob" and "BOB" count as one) and, for a name that is no
user's, per address alone. After `FREE_FAILURES` in a row for a key, each attempt makes the next one wait twice
as long, at most `LONGEST_WAIT`; an attempt made sooner is refused without checking anything. An attempt counts
as soon as it is made (before its password is checked), so attempts made at once cannot all slip through. A
success clears its key. The user's right password from another address is never refused for someone else's
guesses: nobody can lock a user out of every address.

The audit trail records failures a minute at a time per name (only a user's name: a password typed into the
name field is never kept) and address, with their count, never one record a request. An API key's uses are
recorded likewise, a minute at a time with their count, but counted in the process that serves them: a request
signed in by its key then costs no write (each process records its own).
"""

from __future__ import annotations

import threading
import time
import unicodedata
from collections.abc import Callable
from typing import Protocol

FREE_FAILURES = 3
LONGEST_WAIT = 900.0
RECORD_EVERY = 60.0


class FailureRecords(Protocol):
    def reserve_attempt(self, key: str, now: float, free: int, longest: float) -> float: ...
    def clear_attempts(self, key: str) -> None: ...
    def count_for_audit(self, key: str, now: float, every: float) -> int: ...


def canonical_name(name: str) -> str:
    """A user name as it is compared: trimmed, NFKC-normalised, case-folded, inner spaces as one."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


class SignInThrottle:
    """The keys attempts count under, and their waits, on the store's counts and this clock."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._uses: dict[str, tuple[int, float]] = {}  # uses not recorded yet, and when the last record was
        self._lock = threading.Lock()

    def key(self, name: str, address: str, known: bool) -> str:
        """What an attempt counts under: the user name with the address, or the address for nobody's name."""
        where = address or "here"
        return f"user {canonical_name(name)} at {where}" if known else f"nobody at {where}"

    def reserve(self, store: FailureRecords, key: str) -> float:
        """Count the attempt; the seconds it must wait instead (0: go on)."""
        return store.reserve_attempt(key, self._clock(), FREE_FAILURES, LONGEST_WAIT)

    def succeeded(self, store: FailureRecords, key: str) -> None:
        store.clear_attempts(key)

    def to_record(self, store: FailureRecords, what: str) -> int:
        """How many events of `what` to put in the audit trail now (0: not yet, within the minute)."""
        return store.count_for_audit(f"audit: {what}", self._clock(), RECORD_EVERY)

    def uses_to_record(self, what: str) -> int:
        """One more use of `what` (an API key from an address): how many to put in the audit trail now (0: not yet,
        within the minute of the last record), counted in this process."""
        now = self._clock()
        with self._lock:
            count, last = self._uses.get(what, (0, float("-inf")))
            if now - last < RECORD_EVERY:
                self._uses[what] = (count + 1, last)
                return 0
            self._uses[what] = (0, now)
            return count + 1
