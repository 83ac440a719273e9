"""Failed sign-ins, counted in the store so that every process of an office slows the same guesser: per key (a
user name and an address, or an address), the failures in a row, until when the next attempt must wait, and the
failures not yet in the audit trail (which records them a minute at a time)."""

from __future__ import annotations

from store.base import StoreBase


class SignInFailureStore(StoreBase):
    """Attempts reserved before a password or key is checked, failures and successes."""

    def reserve_attempt(self, key: str, now: float, free: int, longest: float) -> float:
        """Count an attempt for `key` as failed before it is checked (so that attempts made at once count too);
        the seconds it must wait instead (0: it may go on). After `free` failures in a row, each attempt makes
        the next wait twice as long as the last, at most `longest` seconds."""
        with self._write() as db:
            row = db.execute("SELECT failures, wait_until FROM sign_in_failures WHERE key = ?", (key,)).fetchone()
            failures, wait_until = (int(row[0]), float(row[1])) if row is not None else (0, 0.0)
            if wait_until > now:
                return wait_until - now
            failures += 1
            wait = min(longest, 2.0 ** (failures - free)) if failures >= free else 0.0
            db.execute(
                """INSERT INTO sign_in_failures (key, failures, wait_until) VALUES (:key, :failures, :until)
                   ON CONFLICT (key) DO UPDATE SET failures = :failures, wait_until = :until""",
                {"key": key, "failures": failures, "until": now + wait},
            )
        return 0.0

    def clear_attempts(self, key: str) -> None:
        """The attempt succeeded: `key` starts afresh."""
        with self._write() as db:
            db.execute("DELETE FROM sign_in_failures WHERE key = ?", (key,))

    def count_for_audit(self, key: str, now: float, every: float) -> int:
        """One more event of `key` (a failed sign-in, a key's use) for the audit trail: how many to record now
        (0: within `every` seconds of the last record, it waits to be counted in the next)."""
        with self._write() as db:
            db.execute(
                """INSERT INTO sign_in_failures (key, unrecorded) VALUES (?, 1)
                   ON CONFLICT (key) DO UPDATE SET unrecorded = sign_in_failures.unrecorded + 1""",
                (key,),
            )
            row = db.execute("SELECT unrecorded, recorded_at FROM sign_in_failures WHERE key = ?", (key,)).fetchone()
            if now - float(row[1]) < every:
                return 0
            db.execute("UPDATE sign_in_failures SET unrecorded = 0, recorded_at = ? WHERE key = ?", (now, key))
        return int(row[0])
