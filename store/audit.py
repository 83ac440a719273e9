"""The audit trail: append-only records, each carrying the SHA-256 of the one before, and the chain's head.

The head (`audit_head`, one row: the last record's id and hash) is kept apart from the records and
updated in the same transaction as each append. The append first updates the head row, which locks it
(PostgreSQL) or is already inside the one writer's transaction (SQLite's `BEGIN IMMEDIATE`), so appends
from several processes follow one another on one chain. A record changed anywhere no longer matches its
hash, one deleted breaks the next one's link (or the head, when it was the last), so `verify_audit` finds
it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from pydantic import ValidationError

from domain.accounts import AuditRecord, ChainCheck
from store.base import HistoryError, StoreBase
from store.sql import AuditRow, Database, timestamp

GENESIS = "0" * 64  # the "previous hash" of the first record
_COLUMNS = "id AS record_id, at, user_name, action, chat_id, workspace_name, detail, prev_hash, hash"
_BATCH = 1000


def record_hash(
    record_id: int,
    at: str,
    user_name: str,
    action: str,
    chat_id: int | None,
    workspace_name: str | None,
    detail: str,
    prev_hash: str,
) -> str:
    """The SHA-256 of a record's fields and the previous record's hash, as one canonical JSON array."""
    fields = [record_id, at, user_name, action, chat_id, workspace_name, detail, prev_hash]
    return hashlib.sha256(json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()


def _recomputed(record: AuditRecord) -> str:
    return record_hash(
        record.record_id,
        record.at,
        record.user_name,
        record.action,
        record.chat_id,
        record.workspace_name,
        record.detail,
        record.prev_hash,
    )


class AuditStore(StoreBase):
    """Append to the audit trail, read it filtered, check its chain."""

    def append_audit(
        self,
        user_name: str,
        action: str,
        chat_id: int | None = None,
        workspace_name: str | None = None,
        detail: str = "",
    ) -> AuditRecord:
        """Add one record at the end of the chain, in one transaction with the head."""
        with self._write() as db:
            head = db.execute(
                "UPDATE audit_head SET last_id = last_id + 1 WHERE id = 1 RETURNING last_id, hash"
            ).fetchone()
            if head is None:
                raise HistoryError(f"Nothing was recorded: {_NO_HEAD}; restore the chat history from a backup.")
            record_id, prev_hash = int(head[0]), str(head[1])
            at = timestamp()
            digest = record_hash(record_id, at, user_name, action, chat_id, workspace_name, detail, prev_hash)
            row = AuditRow(record_id, at, user_name, action, chat_id, workspace_name, detail, prev_hash, digest)
            self._dialect.add_audit_record(db, row)
        stored = row._asdict()
        return AuditRecord(record_id=stored.pop("id"), **stored)

    def audit_records(
        self, user_name: str | None = None, chat_id: int | None = None, since: str | None = None, limit: int = 10_000
    ) -> list[AuditRecord]:
        """Records, oldest first, of one user, one workspace, from a time (`since` in the store's time format)."""
        where: list[str] = []
        parameters: dict[str, Any] = {"limit": limit}
        if user_name is not None:
            where.append("lower(user_name) = lower(:user)")
            parameters["user"] = user_name
        if chat_id is not None:
            where.append("chat_id = :chat")
            parameters["chat"] = chat_id
        if since is not None:
            where.append("at >= :since")
            parameters["since"] = since
        condition = f"WHERE {' AND '.join(where)}" if where else ""
        with self._query() as db:
            rows = db.execute(
                f"SELECT * FROM (SELECT {_COLUMNS} FROM audit {condition} ORDER BY id DESC LIMIT :limit) AS newest "  # noqa: S608
                "ORDER BY record_id",
                parameters,
            ).fetchall()
        return [AuditRecord.model_validate(dict(row)) for row in rows]

    def verify_audit(self, from_checked: bool = False) -> ChainCheck:
        """Walk the chain: each record must be readable, match its hash and link to the one before, the ids follow
        one another, and the head names the last. From the first record, or (`from_checked`) from the last one an
        earlier check found intact, whose hash is checked again. An intact chain moves that mark to its end."""
        with self._read() as db:
            head = db.execute("SELECT last_id, hash, checked_id, checked_hash FROM audit_head WHERE id = 1").fetchone()
            if head is None:
                return ChainCheck(intact=False, records=0, reason=_NO_HEAD)
            start, previous = (int(head[2]), str(head[3])) if from_checked and int(head[2]) > 0 else (0, GENESIS)
            found = self._walk_from(db, start, previous)
        if found.intact:
            self._mark_checked(found.records, str(head[1]))
        return found

    def _walk_from(self, db: Database, start: int, previous: str) -> ChainCheck:
        """The check of the records after `start` (whose hash is `previous`, checked again first), then the head."""
        if start and not _still(db, start, previous):
            return ChainCheck(intact=False, records=0, broken_id=start, reason=_CHANGED_SINCE, checked_from=start)
        expected_id, count = start + 1, start
        for record in self._walk(db, start):
            problem = record if isinstance(record, str) else _problem(record, expected_id, previous)
            if problem:
                broken = expected_id if isinstance(record, str) else min(record.record_id, expected_id)
                return ChainCheck(intact=False, records=count, broken_id=broken, reason=problem, checked_from=start)
            assert not isinstance(record, str)
            previous, expected_id, count = record.hash, record.record_id + 1, count + 1
        last_id, head_hash = db.execute("SELECT last_id, hash FROM audit_head WHERE id = 1").fetchone()
        if int(last_id) != expected_id - 1 or str(head_hash) != previous:
            reason = f"the chain's head names record {last_id}, but the records end at {expected_id - 1}"
            return ChainCheck(intact=False, records=count, broken_id=int(last_id), reason=reason, checked_from=start)
        return ChainCheck(intact=True, records=count, checked_from=start)

    def _mark_checked(self, last_id: int, last_hash: str) -> None:
        """Remember the end of a chain found intact (never moving the mark back, as checks may overlap)."""
        with self._write() as db:
            db.execute(
                "UPDATE audit_head SET checked_id = ?, checked_hash = ? WHERE id = 1 AND checked_id < ?",
                (last_id, last_hash, last_id),
            )

    @staticmethod
    def _walk(db: Database, after: int = 0) -> Iterator[AuditRecord | str]:
        """The records after `after` in order, each read as a record, or what is wrong with it in words."""
        while True:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM audit WHERE id > ? ORDER BY id LIMIT ?",  # noqa: S608
                (after, _BATCH),
            ).fetchall()
            if not rows:
                return
            for row in rows:
                try:
                    yield AuditRecord.model_validate(dict(row))
                except ValidationError as unreadable:
                    field = ".".join(map(str, unreadable.errors()[0]["loc"]))
                    yield f"record {row[0]} cannot be read: its {field} is not what a record holds"
            after = int(rows[-1][0])


def _still(db: Database, record_id: int, expected_hash: str) -> bool:
    """Whether the record a check found intact is still there with the hash it had and its contents match it."""
    row = db.execute(f"SELECT {_COLUMNS} FROM audit WHERE id = ?", (record_id,)).fetchone()  # noqa: S608
    try:
        record = AuditRecord.model_validate(dict(row)) if row is not None else None
    except ValidationError:
        return False
    return record is not None and record.hash == expected_hash and _recomputed(record) == expected_hash


_NO_HEAD = "the chain's head (the one row of audit_head) is missing, so the end of the chain cannot be checked"
_CHANGED_SINCE = "the record an earlier check found intact was changed or deleted since"


def _problem(record: AuditRecord, expected_id: int, previous: str) -> str:
    if record.record_id != expected_id:
        return f"record {expected_id} is missing before record {record.record_id}"
    if record.prev_hash != previous:
        return "it does not link to the record before it"
    if _recomputed(record) != record.hash:
        return "its contents do not match its hash"
    return ""
