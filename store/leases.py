"""Work that one process of several does at a time, and turns stored from the moment they start.

Several processes (web servers, protocol servers, command lines) may share one store. A *claim*
(`claim("summary 12")`) belongs to one store at a time: a workspace's summary is written once,
and the workspace folder is indexed by one process at a time. A *running turn* is stored when the
question is asked (`begin_turn`) and finished when the answer is (`add_to_history(running_id=…)`),
so a process killed mid-answer leaves the question behind, owned by a store that no longer renews it.

Each store renews what it holds every RENEW_SECONDS on the database's clock; what was not renewed
for LEASE_SECONDS is free for whoever notices (a running turn is then stored as stopped, with the
question). On one machine a dead holder is noticed at once: the holder's name says which process
made it, in which process namespace of which boot, and when it started.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from domain.records import FinishedTurn, RunningTurn
from store.base import HistoryError
from store.holders import holder_gone
from store.sql import Database, timestamp
from store.turns import TurnStore

LEASE_SECONDS = 60.0
RENEW_SECONDS = 15.0
RETRY_SECONDS = 1.0  # how often a turn the database was away for is tried again
CUT_OFF = "The answer was cut off: the program answering it stopped before it could store it."

logger = logging.getLogger(__name__)


class LeaseStore(TurnStore):
    """Claims and running turns, renewed while this store holds them."""

    def claim(self, name: str) -> bool:
        """Take the claim `name` for this store, unless another store holds it; whether this store holds it now."""
        now = self._dialect.now_seconds
        with self._write(flushed=False) as db:  # a claim lapses anyway: lost with the power, nothing is
            # Free, this store's own or lapsed: taken in one statement (a claim had taken three).
            held = db.execute(
                f"""INSERT INTO claims (name, owner, expires_at) VALUES (?, ?, {now} + ?)
                    ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
                    WHERE claims.owner = excluded.owner OR claims.expires_at < {now}
                    RETURNING owner""",  # noqa: S608 - the dialect's clock
                (name, self.holder, LEASE_SECONDS),
            ).fetchone() is not None or self._take_from_gone_holder(db, name)
        if held:
            self._held_claims.add(name)
            self._keep_renewing()
        return held

    def _take_from_gone_holder(self, db: Database, name: str) -> bool:
        """Take the claim `name` another store holds if that store's process has ended (on this machine)."""
        row = db.execute("SELECT owner FROM claims WHERE name = ?", (name,)).fetchone()
        if row is None or not holder_gone(row[0]):
            return False
        now = self._dialect.now_seconds
        taken = db.execute(
            f"UPDATE claims SET owner = ?, expires_at = {now} + ? WHERE name = ? AND owner = ?",  # noqa: S608
            (self.holder, LEASE_SECONDS, name, row[0]),
        )
        return bool(taken.rowcount == 1)

    def release(self, name: str) -> None:
        """Give the claim `name` up (nothing happens if this store does not hold it)."""
        self._held_claims.discard(name)
        with self._write(flushed=False) as db:
            db.execute("DELETE FROM claims WHERE name = ? AND owner = ?", (name, self.holder))

    def set_running_server(self, running_id: int, server: str) -> None:
        """The Ollama server a running turn of this store runs on."""
        with self._write(flushed=False) as db:
            db.execute("UPDATE running_turns SET server = ? WHERE id = ?", (server, running_id))

    def busy_servers(self) -> dict[str, int]:
        """How many turns other processes (other stores) run on each Ollama server now, by their running turns
        whose leases have not run out."""
        now = self._dialect.now_seconds
        with self._query() as db:
            rows = db.execute(
                f"""SELECT server, COUNT(*) FROM running_turns
                    WHERE server IS NOT NULL AND owner != ? AND expires_at > {now} GROUP BY server""",  # noqa: S608
                (self.holder,),
            ).fetchall()
        return {str(server): int(count) for server, count in rows}

    def begin_turn(
        self, chat_id: int, question: str, model: str | None = None, asked_by: str | None = None
    ) -> int | None:
        """Store a question as it is asked; `add_to_history(…, running_id=…)` finishes it. None, and nothing
        stored, while another turn runs in the workspace (of any store: one at a time, `running_turn` says whose).
        A turn another store left running in the workspace when it stopped is stored as stopped first. Only then
        are the running turns looked through: with many sessions, every question read all the other process's
        running turns (and looked its process up) under the write lock. Those of other workspaces are stored by
        whichever store renews its own next, or opens the history."""
        running = (chat_id, question, model, asked_by or None, timestamp(), self.holder, LEASE_SECONDS)
        with self._write() as db:
            row = self._insert_running(db, running)
            if row is None and self._store_cut_off_turns(db):
                row = self._insert_running(db, running)
        if row is None:
            return None
        running_id = int(row[0])
        self._running_turns.add(running_id)
        self._keep_renewing()
        return running_id

    def _insert_running(self, db: Database, running: tuple[object, ...]) -> Any:
        """The running turn's row made, and its id; None when the workspace has one already."""
        now = self._dialect.now_seconds
        return db.execute(
            f"""INSERT INTO running_turns (chat_id, "user", model, asked_by, created_at, owner, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, {now} + ?)
                ON CONFLICT (chat_id) DO NOTHING RETURNING id""",  # noqa: S608 - the dialect's clock
            running,
        ).fetchone()

    def running_turn(self, chat_id: int) -> RunningTurn | None:
        """The turn being answered in the workspace now, if any (as it was asked, with who asks it)."""
        with self._query() as db:
            row = db.execute(
                """SELECT id, chat_id, "user", asked_by, created_at FROM running_turns WHERE chat_id = ?""",
                (chat_id,),
            ).fetchone()
        if row is None:
            return None
        return RunningTurn(running_id=row[0], chat_id=row[1], question=row[2], asked_by=row[3], started_at=row[4])

    def store_cut_off_turns(self) -> int:
        """Store as stopped the running turns whose holders stopped renewing them (or ended); how many there were."""
        with self._query() as db:
            if db.execute("SELECT COUNT(*) FROM running_turns").fetchone()[0] == 0:
                return 0
        with self._write() as db:
            return self._store_cut_off_turns(db)

    def _opened(self) -> None:
        """Whoever opens the store notices the turns of processes that ended mid-answer."""
        self.store_cut_off_turns()

    def _store_cut_off_turns(self, db: Database) -> int:
        now = self._dialect.now_seconds
        rows = db.execute(
            f"""SELECT id, chat_id, "user", model, asked_by, created_at, owner, expires_at < {now} AS expired
                FROM running_turns WHERE owner != ?""",  # noqa: S608 - the dialect's clock
            (self.holder,),
        ).fetchall()
        # Each holder's process is looked up once (a read of /proc), however many turns it runs: each turn begun
        # under the write lock had looked up the other process once for every turn it ran.
        gone = {owner: holder_gone(owner) for owner in {row["owner"] for row in rows if not row["expired"]}}
        stored = 0
        for row in rows:
            if (row["expired"] or gone[row["owner"]]) and self._end_running(db, row):
                stored += 1
        return stored

    def _end_running(self, db: Database, row: Any) -> bool:
        if db.execute("DELETE FROM running_turns WHERE id = ?", (row["id"],)).rowcount != 1:
            return False  # another store noticed it first
        turn = {
            "chat_id": row["chat_id"], "user": row["user"], "assistant": "", "now": row["created_at"],
            "status": "stopped", "model": row["model"], "prompt_tokens": None, "completion_tokens": None,
            "duration_ms": None, "error": CUT_OFF, "thinking": None, "asked_by": row["asked_by"],
        }  # fmt: skip
        self._insert_turn(db, turn, ())
        logger.warning("turn %s of workspace %s was cut off by its program's end; stored as stopped", *row[:2])
        return True

    # Renewing ---------------------------------------------------------------------------

    def _keep_renewing(self) -> None:
        with self._lock:
            if self._renewer is None and not self._closing.is_set():
                self._renewer = threading.Thread(target=self._renew, name="store-leases", daemon=True)
                self._renewer.start()

    def store_turn_when_back(self, finished: FinishedTurn) -> None:
        """Keep a turn the database was away for (an outage cut it off) and store it as soon as a write succeeds
        again, from the renewing thread; its running turn stays this store's meanwhile, so no other process
        stores it as cut off instead, and nobody waits for this process to end to see it."""
        with self._lock:
            self._unsaved.append(finished)
        self._keep_renewing()

    def _renew(self) -> None:
        """Renew what this store holds every RENEW_SECONDS (every RETRY_SECONDS while a turn waits to be stored),
        until it holds nothing or closes."""
        renewed, away = time.monotonic(), False
        while not self._closing.wait(RETRY_SECONDS):
            with self._lock:
                if self._closing.is_set() or not (self._held_claims or self._running_turns or self._unsaved):
                    self._renewer = None
                    return
                due = time.monotonic() - renewed >= RENEW_SECONDS
                try:
                    if due:
                        self._renew_once()
                        renewed = time.monotonic()
                    self._store_unsaved()
                except HistoryError as error:  # the database is away: the next round tries again, said once
                    if not away:
                        logger.warning("could not renew the store's claims: %s", error)
                    away = True
                    continue
                if away and due:
                    logger.warning("the store's claims are renewed again")
                    away = False

    def _store_unsaved(self) -> None:
        """Store the turns the database was away for, oldest first (HistoryError stops at the first that fails)."""
        while self._unsaved:
            turn_id = self.store_turn(self._unsaved[0])
            kept = self._unsaved.pop(0)
            logger.warning(
                "turn %s of workspace %s, cut off by the database's absence, is stored", turn_id, kept.chat_id
            )

    def _renew_once(self) -> None:
        now = self._dialect.now_seconds
        with self._write() as db:
            for table in ("claims", "running_turns"):
                db.execute(
                    f"UPDATE {table} SET expires_at = {now} + ? WHERE owner = ?",  # noqa: S608 - fixed names
                    (LEASE_SECONDS, self.holder),
                )
            self._store_cut_off_turns(db)
