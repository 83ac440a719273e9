"""What the accounts let through, measured: guesses a minute at one user name from several processes with a forged
`X-Forwarded-For`, audit records per 1,000 bad requests, the secrets tried found anywhere in the store afterwards,
and what keeping a browser's session costs each request. On SQLite and (where its binaries are) PostgreSQL."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access, SignInError
from app.accounts.throttle import SignInThrottle
from app.accounts.users import Accounts
from bench.harness import Result, single, summarise, timed_ms
from faces.web.client_address import ClientAddress
from fakes.postgres import PostgresServer, unavailable
from store import ChatHistoryDB
from tests.stores import raw_rows

PASSWORD = "a long enough password"
PROCESSES = 2  # stores on one database, as two web processes have
MINUTE = 60.0
STEP = 0.05  # the guesser's pace: 20 attempts a second from each process
BAD_REQUESTS = 1_000
SPOOFED = [f"198.51.100.{n}" for n in range(1, 255)]  # the addresses a guesser writes into X-Forwarded-For


async def _no_app(scope: object, receive: object, send: object) -> None:
    """The middleware's inner application, never called: the bench asks the middleware's rule alone."""


class Clock:
    """The throttle's clock, moved by the bench: a minute of guessing without a minute of waiting."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _accounts(store: ChatHistoryDB, clock: Clock | None = None) -> tuple[Accounts, AuditTrail]:
    audit = AuditTrail(store, "(server)")
    throttle = SignInThrottle(clock) if clock is not None else SignInThrottle()
    return Accounts(store, Access(store, None, audit), audit, throttle), audit


def guesses_a_minute(target: str, label: str) -> list[Result]:
    """Attempts that reached the password check in a minute, for one name written four ways, from PROCESSES
    stores, each request with another forged X-Forwarded-For (no proxy is trusted: the connection's address counts)."""
    clock = Clock()
    stores = [ChatHistoryDB(target) for _ in range(PROCESSES)]
    try:
        accounts = [_accounts(store, clock)[0] for store in stores]
        accounts[0].add("bob", "engineer", PASSWORD)
        checked = 0
        names = itertools.cycle(("bob", " bob", "BOB", "Bob "))
        forged = itertools.cycle(SPOOFED)
        end = clock.now + MINUTE
        middleware = ClientAddress(_no_app, trusted="")  # only its rule is used
        while clock.now < end:
            for process in accounts:
                address = middleware.client("203.0.113.9", [next(forged)])
                try:
                    process.sign_in(next(names), "guess", address)
                except SignInError as refused:
                    checked += "wait" not in str(refused)  # refused by the slow-down: no password was checked
            clock.now += STEP
        victim = accounts[1].sign_in("bob", PASSWORD, "192.0.2.77")  # the user, from their own address
    finally:
        for store in stores:
            store.close()
    return [
        single(f"Guesses checked a minute at one name, {PROCESSES} processes, forged headers ({label})", checked,
               "guesses", "≤ 10", checked <= 10),
        single(f"The user's own password from another address meanwhile ({label})", float(victim.name == "bob"),
               "accepted", "1", victim.name == "bob"),
    ]  # fmt: skip


def audit_per_bad_requests(target: str, label: str) -> list[Result]:
    """Audit records written by BAD_REQUESTS wrong keys and as many wrong passwords (a password typed as the name
    among them), within a minute, and how often what was typed appears anywhere in the store afterwards."""
    store = ChatHistoryDB(target)
    try:
        accounts, _ = _accounts(store)
        accounts.add("bob", "engineer", PASSWORD)
        before = len(store.audit_records())
        typed = [f"eak_{n}_{'x' * 40}" for n in range(BAD_REQUESTS)]
        for number, key in enumerate(typed):
            try:
                accounts.sign_in_with_key(key, f"203.0.113.{number % 2}")
            except SignInError:
                pass
        secrets = [*typed, "correct horse battery staple", "hunter2 hunter2"]
        for secret in secrets[-2:]:
            try:
                accounts.sign_in(secret, "whatever it was", "203.0.113.5")  # a password typed into the name field
            except SignInError:
                pass
        records = len(store.audit_records()) - before
    finally:
        store.close()
    found = _secrets_in(target, secrets)
    return [
        single(f"Audit records per {BAD_REQUESTS:,} bad requests ({label})", records, "records", "≤ 10", records <= 10),
        single(f"Secrets tried found in the store afterwards ({label})", found, "found", "0", found == 0),
    ]


def _secrets_in(target: str, secrets: list[str]) -> int:
    """How many of `secrets` appear in any text of the audit trail, the failures' counts or the users."""
    texts: list[str] = []
    for table in ("audit", "sign_in_failures", "users"):
        texts += [str(value) for row in raw_rows(target, f"SELECT * FROM {table}") for value in row]  # noqa: S608
    everything = "\n".join(texts)
    return sum(secret in everything for secret in secrets)


def session_check(target: str, runs: int, label: str) -> list[Result]:
    """What a signed-in browser's run costs to check its session (one statement), against an API key's check."""
    store = ChatHistoryDB(target)
    try:
        accounts, _ = _accounts(store)
        ann = accounts.add("ann", "engineer", PASSWORD)
        token = accounts.start_session(ann)
        samples = timed_ms(lambda: accounts.resume(token), runs * 20)
    finally:
        store.close()
    return [summarise(f"Session check per request ({label})", samples, "ms", "≤ 1", 1.0)]


def run(quick: bool) -> list[Result]:
    runs = 5 if quick else 30
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="boundaries-bench-") as name:
        sqlite = [str(Path(name) / f"{n}.sqlite") for n in range(3)]
        results += guesses_a_minute(sqlite[0], "SQLite")
        results += audit_per_bad_requests(sqlite[1], "SQLite")
        results += session_check(sqlite[2], runs, "SQLite")
        if unavailable() is None:
            with PostgresServer() as server:
                results += guesses_a_minute(server.new_database(), "PostgreSQL")
                results += audit_per_bad_requests(server.new_database(), "PostgreSQL")
                results += session_check(server.new_database(), runs, "PostgreSQL")
    return results
