"""Accounts: signing in (argon2id verify, an API key), what the access check adds to a request, and the audit
trail's size per 1,000 turns, on SQLite and (where its binaries are) PostgreSQL."""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.accounts.throttle import SignInThrottle
from app.accounts.users import Accounts
from bench.harness import Result, single, summarise, timed_ms
from fakes.postgres import PostgresServer, unavailable
from store import ChatHistoryDB

PASSWORD = "a long enough password"
WORKSPACES = 200  # in the store, of which the user sees a tenth
CROWD, SEEN = 3_000, 10  # a store of CROWD workspaces, of which one user sees SEEN
TOOL_CALLS_PER_TURN = 2  # a typical calculation turn: the question, then two tool calls
DETAIL = '{"designation": "W18x50", "span": "35 ft", "dead_load": "0.45 kip/ft"} result sha256 ' + "ab" * 32
QUESTION = "Check a W18x50 over 35 ft with 0.45 kip/ft dead and 0.75 kip/ft live load, unbraced 11.67 ft."


def _accounts(store: ChatHistoryDB) -> tuple[Accounts, AuditTrail]:
    audit = AuditTrail(store, "(server)")
    return Accounts(store, Access(store, None, audit), audit, SignInThrottle()), audit


def sign_in(target: str, runs: int, label: str) -> list[Result]:
    store = ChatHistoryDB(target)
    try:
        accounts, _ = _accounts(store)
        accounts.add("ann", "engineer", PASSWORD)
        key = accounts.issue_key("ann")
        password = timed_ms(lambda: accounts.sign_in("ann", PASSWORD), runs)
        api_key = timed_ms(lambda: accounts.sign_in_with_key(key), runs * 20)
    finally:
        store.close()
    return [
        summarise(f"Sign-in by password, argon2id ({label})", password, "ms", "info", None),
        summarise(f"Sign-in by API key, each request ({label})", api_key, "ms", "info", None),
    ]


def access_check(target: str, runs: int, label: str) -> list[Result]:
    """The same reads without a user and for one: one workspace through the access policy, and the list the store
    filters for the user."""
    store = ChatHistoryDB(target)
    try:
        accounts, audit = _accounts(store)
        user = accounts.add("ann", "engineer", PASSWORD)
        chats = [store.create_chat(f"Workspace {number}") for number in range(WORKSPACES)]
        for chat_id in chats[:: WORKSPACES // (WORKSPACES // 10)]:
            store.set_owner(chat_id, user.user_id)
        access = Access(store, user, audit.acting_as("ann"))
        chat_id = chats[0]
        raw_one = timed_ms(lambda: store.get_chat(chat_id), runs * 20)
        seen_one = timed_ms(lambda: access.read(chat_id), runs * 20)
        raw_list = timed_ms(lambda: store.recent_chats(50), runs)
        seen_list = timed_ms(lambda: store.recent_chats(50, viewer=user.user_id), runs)
    finally:
        store.close()
    one = statistics.median(seen_one) - statistics.median(raw_one)
    listed = statistics.median(seen_list) - statistics.median(raw_list)
    return [
        single(f"Access check per request: one workspace ({label})", one, "ms", "info", None),
        single(f"Access check: list of {WORKSPACES} workspaces, a tenth visible ({label})", listed, "ms", "info", None),
    ]


def _one_users_list(target: str, others: int, runs: int) -> list[float]:
    """The list of a user who owns 10 workspaces, in a store where others own `others` more."""
    store = ChatHistoryDB(target)
    try:
        accounts, _ = _accounts(store)
        user = accounts.add("ann", "engineer", PASSWORD)
        somebody = accounts.add("bob", "engineer", PASSWORD)
        step = (others + SEEN) // SEEN  # every step-th workspace is the user's
        for number in range(others + SEEN):
            store.create_chat(f"Workspace {number}", owner=(user if number % step == 0 else somebody).user_id)
        assert len(store.recent_chats(viewer=user.user_id)) == SEEN
        return timed_ms(lambda: store.recent_chats(viewer=user.user_id), runs)
    finally:
        store.close()


def crowded_list(many: str, few: str, runs: int, label: str) -> list[Result]:
    """What 2,990 other workspaces cost one user's list of their 10: the access policy filters in the query."""
    crowded = statistics.median(_one_users_list(many, CROWD - SEEN, runs))
    alone = statistics.median(_one_users_list(few, 0, runs))
    ratio = crowded / alone
    name = f"A user's list of {SEEN} among {CROWD:,} workspaces, against a store of just those {SEEN} ({label})"
    return [single(name, ratio, "×", "≤ 3×", ratio <= 3.0)]


def audit_bytes_sqlite(folder: Path, turns: int) -> float:
    """The SQLite file's growth for the records of `turns` turns (each an ask and its tool calls)."""
    path = folder / "audit.sqlite"
    store = ChatHistoryDB(path)
    try:
        _append_turns(store, turns)
        store.backup(folder / "compact.sqlite")  # the pages in use, without the write-ahead log
    finally:
        store.close()
    empty = folder / "empty.sqlite"
    ChatHistoryDB(empty).close()
    return ((folder / "compact.sqlite").stat().st_size - empty.stat().st_size) * 1000 / turns


def audit_bytes_postgres(url: str, turns: int) -> float:
    import psycopg

    store = ChatHistoryDB(url)
    try:
        _append_turns(store, turns)
    finally:
        store.close()
    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT pg_total_relation_size('audit')").fetchone()
    return float(row[0]) * 1000 / turns if row else 0.0


def _append_turns(store: ChatHistoryDB, turns: int) -> None:
    for number in range(turns):
        store.append_audit("ann", "ask", number % 20 + 1, "Riverside Offices — level 3", QUESTION)
        for _ in range(TOOL_CALLS_PER_TURN):
            store.append_audit(
                "ann", "tool call", number % 20 + 1, "Riverside Offices — level 3", f"steel_beam_check {DETAIL}"
            )


def run(quick: bool) -> list[Result]:
    runs = 5 if quick else 30
    turns = 200 if quick else 1000
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="accounts-bench-") as name:
        folder = Path(name)
        results += sign_in(str(folder / "sign-in.sqlite"), runs, "SQLite")
        results += access_check(str(folder / "access.sqlite"), runs, "SQLite")
        results += crowded_list(str(folder / "crowd.sqlite"), str(folder / "few.sqlite"), runs * 4, "SQLite")
        per_thousand = audit_bytes_sqlite(folder, turns)
        results.append(single("Audit trail per 1,000 turns (SQLite file)", per_thousand / 1024, "KiB", "info", None))
        if unavailable() is None:
            with PostgresServer() as server:
                results += sign_in(server.new_database(), runs, "PostgreSQL")
                results += access_check(server.new_database(), runs, "PostgreSQL")
                results += crowded_list(server.new_database(), server.new_database(), runs * 4, "PostgreSQL")
                size = audit_bytes_postgres(server.new_database(), turns)
                results.append(
                    single("Audit trail per 1,000 turns (PostgreSQL table)", size / 1024, "KiB", "info", None)
                )
    return results
