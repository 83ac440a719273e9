"""ChatHistoryDB: every workspace, turn and tool call, in one SQLite file.

This module, with its migrations in `core/schema.py`, owns all SQL in the
product. Writes run in `BEGIN IMMEDIATE` transactions that are short and never
span a model call; the file uses WAL so readers never block the writer, and a
busy timeout so two processes can share it. Schema versions live in
`PRAGMA user_version`; the migrations upgrade older files, including those
written by the product's first two-table version.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from core.file_edit_store import FileEditStore
from core.records import Chat, ToolCallRecord, Turn, TurnStatus
from core.schema import MIGRATIONS, SCHEMA_VERSION, timestamp
from core.search_store import SearchStore
from core.summary_store import SummaryStore

BUSY_TIMEOUT_SECONDS = 15.0


class HistoryError(RuntimeError):
    """The chat history cannot be read or written; the message says why and what to do."""


def _tool_call_row(turn_id: int, position: int, call: ToolCallRecord) -> tuple[object, ...]:
    data = json.dumps(call.data, ensure_ascii=False) if call.data is not None else None
    arguments = json.dumps(call.arguments, ensure_ascii=False)
    return (turn_id, position, call.name, arguments, call.output, call.error, call.duration_ms, data)


class ChatHistoryDB(FileEditStore, SearchStore, SummaryStore):
    """Workspaces ("chats"), their turns and digital-twin summaries in SQLite."""

    def __init__(self, db_path: str | Path = "chat_history.sqlite") -> None:
        self.path = Path(db_path)
        existed = self.path.exists()
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
            )
        except (OSError, sqlite3.OperationalError) as error:
            raise self._cannot_create(error) from None
        self._db.row_factory = sqlite3.Row
        try:
            self._open()
        except BaseException:
            self._db.close()
            if not existed and self.path.exists() and self.path.stat().st_size == 0:
                self.path.unlink()  # nothing half-created
            raise

    def _cannot_create(self, error: Exception) -> HistoryError:
        reason = getattr(error, "strerror", None) or str(error)
        return HistoryError(
            f"The chat history cannot be created at {self.path} ({reason}); set CHAT_HISTORY_DB_PATH "
            "to a file in a folder you can write to."
        )

    def _open(self) -> None:
        with self._translated_errors(opening=True):
            version, tables = self._inspect()
            if version > SCHEMA_VERSION:
                raise HistoryError(
                    f"{self.path} was written by a newer version of this application (schema {version}, "
                    f"this version knows up to {SCHEMA_VERSION}); it was left untouched — update the application."
                )
            if version == 0 and tables and "chats" not in tables:
                raise HistoryError(
                    f"{self.path} is an SQLite database of another application, not chat history; it was "
                    "left untouched — set CHAT_HISTORY_DB_PATH to another file."
                )
            if version < SCHEMA_VERSION and tables:
                self._check_integrity()  # before the first write, so a damaged file stays as it was
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate(version)

    def _check_integrity(self) -> None:
        problem = self._db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":
            raise sqlite3.DatabaseError(problem)

    def _inspect(self) -> tuple[int, set[str]]:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        rows = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        return version, {row[0] for row in rows}

    def _migrate(self, version: int) -> None:
        for number in range(version + 1, SCHEMA_VERSION + 1):
            with self._write() as db:
                current = db.execute("PRAGMA user_version").fetchone()[0]
                if current >= number:  # another process migrated meanwhile
                    continue
                MIGRATIONS[number - 1](db)
                db.execute(f"PRAGMA user_version = {number:d}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One short write transaction, taken with BEGIN IMMEDIATE so it never deadlocks."""
        with self._lock, self._translated_errors():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            finally:
                if self._db.in_transaction:  # the block or the COMMIT failed
                    self._db.execute("ROLLBACK")

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A consistent snapshot for reads that take more than one query."""
        with self._lock, self._translated_errors():
            self._db.execute("BEGIN")
            try:
                yield self._db
            finally:
                if self._db.in_transaction:
                    self._db.execute("COMMIT")

    @contextmanager
    def _translated_errors(self, opening: bool = False) -> Iterator[None]:
        """SQLite's exceptions as one sentence that says what happened and what to do."""
        untouched = "it was left untouched — " if opening else ""
        try:
            yield
        except sqlite3.IntegrityError:
            raise HistoryError(
                "That workspace no longer exists (it may have been deleted in another window); "
                "choose or create another one."
            ) from None
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise HistoryError(
                    f"The chat history at {self.path} stayed busy for {BUSY_TIMEOUT_SECONDS:.0f} s "
                    "(another program is writing to it); try again."
                ) from None
            if "unable to open" in str(error) or "readonly" in str(error):
                raise self._cannot_create(error) from None
            if not opening:
                raise HistoryError(f"The chat history at {self.path} could not be used: {error}.") from None
            raise self._damaged(error, untouched) from None
        except sqlite3.DatabaseError as error:
            if getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_NOTADB:
                raise HistoryError(
                    f"{self.path} is not an SQLite database, so the chat history cannot be opened; {untouched}"
                    "move it aside or set CHAT_HISTORY_DB_PATH to another file."
                ) from None
            raise self._damaged(error, untouched) from None

    def _damaged(self, error: sqlite3.Error, untouched: str) -> HistoryError:
        return HistoryError(
            f"The chat history at {self.path} is damaged ({' '.join(str(error).split())}); {untouched}"
            "restore it from a backup, or move it aside or set CHAT_HISTORY_DB_PATH to start a new one."
        )

    # Workspaces -----------------------------------------------------------------

    def create_chat(self, chat_name: str) -> int:
        with self._write() as db:
            now = timestamp()
            row = db.execute(
                """INSERT INTO chats (chat_name, created_at, last_active_at, activity_seq)
                   VALUES (:name, :now, :now, (SELECT COALESCE(MAX(activity_seq), 0) + 1 FROM chats))
                   RETURNING chat_id""",
                {"name": chat_name, "now": now},
            ).fetchone()
        return int(row[0])

    def list_chats(self) -> list[tuple[int, str, str]]:
        """(chat_id, chat_name, created_at), the most recently active first."""
        with self._lock, self._translated_errors():
            rows = self._db.execute(
                "SELECT chat_id, chat_name, created_at FROM chats ORDER BY activity_seq DESC, chat_id DESC"
            ).fetchall()
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def get_chat(self, chat_id: int) -> Chat | None:
        with self._lock, self._translated_errors():
            row = self._db.execute(
                """SELECT chat_id, chat_name, created_at, last_active_at, context_summary,
                          context_updated_at, summary_turn_id FROM chats WHERE chat_id = ?""",
                (chat_id,),
            ).fetchone()
        if row is None:
            return None
        return Chat.model_validate(dict(row))

    def find_chat(self, name_or_id: str) -> Chat | None:
        """A workspace by its id, or else by its exact name (ignoring case)."""
        text = name_or_id.strip()
        if text.isdigit() and (chat := self.get_chat(int(text))) is not None:
            return chat
        with self._lock, self._translated_errors():
            row = self._db.execute(
                "SELECT chat_id FROM chats WHERE chat_name = ? COLLATE NOCASE ORDER BY activity_seq DESC LIMIT 1",
                (text,),
            ).fetchone()
        return self.get_chat(int(row[0])) if row else None

    def rename_chat(self, chat_id: int, new_name: str) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET chat_name = ? WHERE chat_id = ?", (new_name, chat_id))

    def delete_chat(self, chat_id: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM chats WHERE chat_id = ?", (chat_id,))

    # Turns ----------------------------------------------------------------------

    def load_history(self, chat_id: int) -> list[tuple[str, str]]:
        """Every (user, assistant) pair of a workspace, oldest first."""
        with self._lock, self._translated_errors():
            rows = self._db.execute(
                "SELECT user, assistant FROM history WHERE chat_id = ? ORDER BY id", (chat_id,)
            ).fetchall()
        return [(str(u), str(a)) for u, a in rows]

    def load_recent_history(self, chat_id: int, limit: int) -> list[tuple[str, str]]:
        """The newest `limit` (user, assistant) pairs, oldest first; cost does not grow with the history."""
        with self._lock, self._translated_errors():
            rows = self._db.execute(
                """SELECT user, assistant FROM history WHERE chat_id = ? AND status != 'superseded'
                   ORDER BY id DESC LIMIT ?""",
                (chat_id, limit),
            ).fetchall()
        return [(str(u), str(a)) for u, a in reversed(rows)]

    def add_to_history(
        self,
        chat_id: int,
        user: str,
        assistant: str,
        *,
        tool_calls: Sequence[ToolCallRecord] = (),
        status: TurnStatus = "complete",
        model: str | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
        duration_ms: float | None = None,
        error: str | None = None,
        thinking: str | None = None,
    ) -> int:
        """Store one turn and its tool calls atomically; the workspace moves to the top of the list."""
        turn = {
            "chat_id": chat_id,
            "user": user,
            "assistant": assistant,
            "now": timestamp(),
            "status": status,
            "model": model,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "duration_ms": duration_ms,
            "error": error,
            "thinking": thinking or None,
        }
        with self._write() as db:
            turn_id = self._insert_turn(db, turn, tool_calls)
        return turn_id

    def import_turns(self, chat_id: int, turns: Sequence[tuple[str, str, Sequence[ToolCallRecord]]]) -> None:
        """Store many complete turns in one transaction (importing a conversation from elsewhere)."""
        now = timestamp()
        with self._write() as db:
            for user, assistant, tool_calls in turns:
                fields = dict.fromkeys(
                    ("model", "prompt_tokens", "completion_tokens", "duration_ms", "error", "thinking")
                )
                fields |= {"chat_id": chat_id, "user": user, "assistant": assistant, "now": now, "status": "complete"}
                self._insert_turn(db, fields, tool_calls)

    @staticmethod
    def _insert_turn(db: sqlite3.Connection, turn: dict[str, object], tool_calls: Sequence[ToolCallRecord]) -> int:
        turn_id = db.execute(
            """INSERT INTO history (chat_id, user, assistant, created_at, status, model,
                                    prompt_tokens, completion_tokens, duration_ms, error, thinking)
               VALUES (:chat_id, :user, :assistant, :now, :status, :model,
                       :prompt_tokens, :completion_tokens, :duration_ms, :error, :thinking) RETURNING id""",
            turn,
        ).fetchone()[0]
        db.executemany(
            """INSERT INTO tool_calls (turn_id, position, name, arguments, output, error, duration_ms, data)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            [_tool_call_row(turn_id, position, call) for position, call in enumerate(tool_calls)],
        )
        db.execute(
            """UPDATE chats SET last_active_at = :now, activity_seq = (SELECT MAX(activity_seq) FROM chats) + 1
               WHERE chat_id = :chat_id""",
            turn,
        )
        return int(turn_id)

    def get_turns(self, chat_id: int, limit: int | None = None, before_turn_id: int | None = None) -> list[Turn]:
        """Turns with their tool calls, oldest first: the newest `limit` before `before_turn_id`."""
        with self._read() as db:
            return self._select_turns(db, chat_id, limit, before_turn_id=before_turn_id)

    def _select_turns(
        self,
        db: sqlite3.Connection,
        chat_id: int,
        limit: int | None,
        before_turn_id: int | None = None,
        after_turn_id: int = 0,
    ) -> list[Turn]:
        rows = db.execute(
            """SELECT id AS turn_id, chat_id, user, assistant, created_at, status, model, prompt_tokens,
                      completion_tokens, duration_ms, error, thinking FROM history
               WHERE chat_id = ? AND id > ? AND id < ? ORDER BY id DESC LIMIT ?""",
            (chat_id, after_turn_id, before_turn_id if before_turn_id is not None else 2**62, limit or -1),
        ).fetchall()
        calls = self._tool_calls_for(db, [row["turn_id"] for row in rows])
        return [
            Turn.model_validate({**dict(row), "tool_calls": calls.get(row["turn_id"], [])}) for row in reversed(rows)
        ]

    @staticmethod
    def _tool_calls_for(db: sqlite3.Connection, turn_ids: list[int]) -> dict[int, list[ToolCallRecord]]:
        if not turn_ids:
            return {}
        rows = db.execute(
            """SELECT turn_id, name, arguments, output, error, duration_ms, data FROM tool_calls
               WHERE turn_id IN (SELECT value FROM json_each(?)) ORDER BY turn_id, position""",
            (json.dumps(turn_ids),),
        ).fetchall()
        calls: dict[int, list[ToolCallRecord]] = {}
        for row in rows:
            fields = {**dict(row), "arguments": json.loads(row["arguments"])}
            fields["data"] = json.loads(row["data"]) if row["data"] else None
            calls.setdefault(row["turn_id"], []).append(ToolCallRecord.model_validate(fields))
        return calls

    def supersede_turn(self, turn_id: int) -> None:
        """Mark a turn as replaced by Regenerate: kept in the record, left out of what the model is sent."""
        with self._write() as db:
            db.execute("UPDATE history SET status = 'superseded' WHERE id = ?", (turn_id,))

    def count_turns(self, chat_id: int) -> int:
        with self._lock, self._translated_errors():
            return int(self._db.execute("SELECT COUNT(*) FROM history WHERE chat_id = ?", (chat_id,)).fetchone()[0])

    def clear_history(self, chat_id: int) -> None:
        """Delete a workspace's turns; the workspace and its summary stay."""
        with self._write() as db:
            db.execute("DELETE FROM history WHERE chat_id = ?", (chat_id,))
            db.execute("UPDATE chats SET summary_turn_id = NULL WHERE chat_id = ?", (chat_id,))
