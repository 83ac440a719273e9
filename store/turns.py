"""The store's turns: each question and answer with its tool calls, usage and status, saved atomically."""

from __future__ import annotations

import json
import json.scanner
import logging
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError

from domain.calculations import CalcResult
from domain.records import FinishedTurn, ToolCall, Turn, TurnStatus
from store.images import ImageStore, image_references, insert_images
from store.sql import NO_LIMIT, Database, timestamp
from store.words import index_words

# The turn's own fields, as `FinishedTurn` carries them (its tool calls and running turn are written apart)
_FINISHED_FIELDS = {"chat_id", "user", "assistant", "status", "model", "prompt_tokens", "completion_tokens",
                    "duration_ms", "error", "thinking", "asked_by"}  # fmt: skip

logger = logging.getLogger(__name__)

_TURN_COLUMNS = """id AS turn_id, chat_id, "user", assistant, created_at, status, model, prompt_tokens,
                   completion_tokens, duration_ms, error, thinking, asked_by"""
# A turn that failed before any answer (the model could not be reached) is kept in the record, but it is
# no change to the workspace: it neither needs summarising nor names the workspace.
HAS_CONTENT = "NOT (status = 'error' AND assistant = '')"


def _tool_call_row(turn_id: int, position: int, call: ToolCall) -> tuple[object, ...]:
    calculation = call.calculation
    data = json.dumps(calculation.stored(), ensure_ascii=False) if calculation is not None else None
    arguments = json.dumps(call.arguments, ensure_ascii=False)
    return (turn_id, position, call.name, arguments, call.output, call.error, call.duration_ms, data)


_scan_json = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # typeshed: the context is a decoder


def _json_value(text: str) -> Any:
    """`json.loads(text)` for the JSON the store wrote itself (no surrounding space), without its wrappers."""
    try:
        value, end = _scan_json(text, 0)
    except StopIteration:
        end = -1
    return value if end == len(text) else json.loads(text)


def _tool_call(row: Any) -> dict[str, Any]:
    """A stored tool call as the fields of a `ToolCall`, validated with its turn's (one call for a batch); its
    calculation (the `data` column) is read back into `CalcResult`."""
    data = row["data"]
    return {
        "id": f"call_{row['position'] + 1}",
        "name": row["name"],
        "arguments": _json_value(row["arguments"]),
        "output": row["output"],
        "error": row["error"],
        "duration_ms": row["duration_ms"],
        "calculation": _json_value(data) if data else None,
    }


_TURNS = TypeAdapter(list[Turn])
_CALCULATION = TypeAdapter(CalcResult)


def _turn_read_whole(turn: dict[str, Any]) -> Turn:
    """A turn one of whose calculations no longer reads as a `CalcResult` (written by hand, or by a program
    other than this one): the turn and every call kept, that calculation left out (its output still says it)."""
    for call in turn["tool_calls"]:
        if call["calculation"] is not None:
            try:
                _CALCULATION.validate_python(call["calculation"])
            except ValidationError:
                logger.warning("turn %s, %s: its calculation does not read; left out", turn["turn_id"], call["id"])
                call["calculation"] = None
    return Turn.model_validate(turn)


class TurnStore(ImageStore):
    """A workspace's turns, oldest first; a turn, its pictures and its tool calls are written in one transaction."""

    def load_history(self, chat_id: int) -> list[tuple[str, str]]:
        """Every (user, assistant) pair of a workspace, oldest first."""
        with self._query() as db:
            rows = db.execute(
                'SELECT "user", assistant FROM history WHERE chat_id = ? ORDER BY id', (chat_id,)
            ).fetchall()
        return [(str(u), str(a)) for u, a in rows]

    def load_recent_history(self, chat_id: int, limit: int) -> list[tuple[str, str]]:
        """The newest `limit` (user, assistant) pairs, oldest first; cost does not grow with the history."""
        with self._query() as db:
            rows = db.execute(
                """SELECT "user", assistant FROM history WHERE chat_id = ? AND status != 'superseded'
                   ORDER BY id DESC LIMIT ?""",
                (chat_id, limit),
            ).fetchall()
        return [(str(u), str(a)) for u, a in reversed(rows)]

    def tools_used_recently(self, chat_id: int, turns: int) -> set[str]:
        """The names of the tools the newest `turns` turns called (one statement: a turn's offer of tools asks it,
        and reading those turns whole, with their tool calls and pictures, took three and 0.45 ms for 50 turns)."""
        with self._query() as db:
            rows = db.execute(
                """SELECT DISTINCT name FROM tool_calls
                   WHERE turn_id IN (SELECT id FROM history WHERE chat_id = ? ORDER BY id DESC LIMIT ?)""",
                (chat_id, turns),
            ).fetchall()
        return {str(row[0]) for row in rows}

    def add_to_history(
        self,
        chat_id: int,
        user: str,
        assistant: str,
        *,
        tool_calls: Sequence[ToolCall] = (),
        status: TurnStatus = "complete",
        model: str | None = None,
        asked_by: str | None = None,
        **cost: Any,
    ) -> int:
        """Store one turn and its tool calls atomically (the first version's call; `store_turn` takes the record)."""
        return self.store_turn(
            FinishedTurn(chat_id=chat_id, user=user, assistant=assistant, tool_calls=tuple(tool_calls), status=status,
                         model=model, asked_by=asked_by, **cost)
        )  # fmt: skip

    def store_turn(self, finished: FinishedTurn) -> int:
        """Store one turn, its pictures and its tool calls atomically; the workspace moves to the top of the list.

        `asked_by` is who asked: the preparer a package names. `running_id` is the turn as `begin_turn` stored it
        when it started: it is finished in the same transaction (and stored even if another process already
        stored it as stopped).
        """
        turn = finished.model_dump(include=_FINISHED_FIELDS) | {"now": timestamp()}
        turn.update(thinking=finished.thinking or None, asked_by=finished.asked_by or None)
        with self._write() as db:
            if finished.running_id is not None:
                db.execute("DELETE FROM running_turns WHERE id = ?", (finished.running_id,))
            turn_id = self._insert_turn(db, turn, finished.tool_calls)
            insert_images(db, turn_id, finished.images)
        self._running_turns.discard(finished.running_id or 0)
        return turn_id

    def _insert_turn(self, db: Database, turn: dict[str, Any], tool_calls: Sequence[ToolCall]) -> int:
        """Write one turn (the columns of `store_turn`'s `turn`) with its tool calls, index its words and move
        its workspace to the top of the list."""
        turn_id = int(
            db.execute(
                """INSERT INTO history (chat_id, "user", assistant, created_at, status, model,
                                        prompt_tokens, completion_tokens, duration_ms, error, thinking, asked_by)
                   VALUES (:chat_id, :user, :assistant, :now, :status, :model, :prompt_tokens,
                           :completion_tokens, :duration_ms, :error, :thinking, :asked_by) RETURNING id""",
                turn,
            ).fetchone()[0]
        )
        if tool_calls:
            db.executemany(
                """INSERT INTO tool_calls (turn_id, position, name, arguments, output, error, duration_ms, data)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                [_tool_call_row(turn_id, position, call) for position, call in enumerate(tool_calls)],
            )
        db.execute(
            f"UPDATE chats SET last_active_at = :now, activity_seq = {self._dialect.next_activity()} "  # noqa: S608
            "WHERE chat_id = :chat_id",
            turn,
        )
        words = turn["user"] + "\n" + turn["assistant"]
        self._dialect.add_terms(db, sorted(index_words(words)))  # in order: two writers never wait on each other
        self._dialect.index_turns(db, [(turn_id, turn["chat_id"], turn["user"], turn["assistant"])])
        return turn_id

    def get_turns(self, chat_id: int, limit: int | None = None, before_turn_id: int | None = None) -> list[Turn]:
        """Turns with their tool calls, oldest first: the newest `limit` before `before_turn_id`."""
        with self._read() as db:
            return self._select_turns(db, chat_id, limit, before_turn_id=before_turn_id)

    def iter_turns(self, chat_id: int, batch: int = 500) -> Iterator[Turn]:
        """Every turn of a workspace with its tool calls, oldest first, read `batch` turns at a time.

        Memory stays bounded however long the history is. Each batch is read in a
        short transaction of its own, so other windows may write meanwhile; turns
        added after the first batch was read are left out.
        """
        with self._query() as db:
            last = db.execute("SELECT MAX(id) FROM history WHERE chat_id = ?", (chat_id,)).fetchone()[0]
        after = 0
        while last is not None and after < last:
            with self._read() as db:
                rows = db.execute(
                    f"""SELECT {_TURN_COLUMNS} FROM history
                        WHERE chat_id = ? AND id > ? AND id <= ? ORDER BY id LIMIT ?""",  # noqa: S608 - fixed columns
                    (chat_id, after, last, batch),
                ).fetchall()
                turns = self._with_tool_calls(db, rows)
            if not turns:
                return
            yield from turns
            after = turns[-1].turn_id

    def has_turns_before(self, chat_id: int, turn_id: int) -> bool:
        """Whether the workspace has a turn older than `turn_id` (one index lookup, whatever its length)."""
        with self._query() as db:
            row = db.execute(
                "SELECT EXISTS (SELECT 1 FROM history WHERE chat_id = ? AND id < ?)", (chat_id, turn_id)
            ).fetchone()
        return bool(row[0])

    def has_answered_turns(self, chat_id: int) -> bool:
        """Whether the workspace holds a turn other than those that failed before any answer."""
        with self._query() as db:
            row = db.execute(
                f"SELECT EXISTS (SELECT 1 FROM history WHERE chat_id = ? AND {HAS_CONTENT})",  # noqa: S608
                (chat_id,),
            ).fetchone()
        return bool(row[0])

    def turn_models(self, chat_id: int) -> list[str]:
        """The models that answered in the workspace, by name."""
        with self._query() as db:
            rows = db.execute(
                "SELECT DISTINCT model FROM history WHERE chat_id = ? AND model != '' ORDER BY model", (chat_id,)
            ).fetchall()
        return [str(row[0]) for row in rows]

    def _select_turns(
        self,
        db: Database,
        chat_id: int,
        limit: int | None,
        before_turn_id: int | None = None,
        after_turn_id: int = 0,
        content_only: bool = False,
        whole: bool = True,
    ) -> list[Turn]:
        """The newest `limit` turns in the range, oldest first; `whole=False` leaves their tool calls and pictures
        unread (two statements fewer)."""
        rows = db.execute(
            f"""SELECT {_TURN_COLUMNS} FROM history
               WHERE chat_id = ? AND id > ? AND id < ? AND (? OR {HAS_CONTENT})
               ORDER BY id DESC LIMIT ?""",  # noqa: S608 - fixed columns and condition
            (
                chat_id,
                after_turn_id,
                NO_LIMIT if before_turn_id is None else before_turn_id,
                not content_only,
                limit or NO_LIMIT,
            ),
        ).fetchall()
        if not whole:
            return self._validated([{**dict(row), "tool_calls": (), "images": ()} for row in reversed(rows)])
        return self._with_tool_calls(db, list(reversed(rows)))

    def _with_tool_calls(self, db: Database, rows: list[Any]) -> list[Turn]:
        """The rows as turns with their tool calls and their pictures' references, validated as one list in one
        call."""
        ids = [row["turn_id"] for row in rows]
        calls = self._tool_calls_for(db, ids)
        images = image_references(db, self._dialect, ids)
        turns = [
            {**dict(row), "tool_calls": calls.get(row["turn_id"], ()), "images": images.get(row["turn_id"], ())}
            for row in rows
        ]
        return self._validated(turns)

    @staticmethod
    def _validated(turns: list[dict[str, Any]]) -> list[Turn]:
        try:
            return _TURNS.validate_python(turns)
        except ValidationError:
            return [_turn_read_whole(turn) for turn in turns]

    def _tool_calls_for(self, db: Database, turn_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
        if not turn_ids:
            return {}
        ids, parameter = self._dialect.id_list(turn_ids)
        rows = db.execute(
            f"""SELECT turn_id, position, name, arguments, output, error, duration_ms, data FROM tool_calls
               WHERE turn_id IN ({ids}) ORDER BY turn_id, position""",  # noqa: S608 - the dialect's subquery
            (parameter,),
        ).fetchall()
        calls: dict[int, list[dict[str, Any]]] = {}
        for row in rows:
            calls.setdefault(row["turn_id"], []).append(_tool_call(row))
        return calls

    def supersede_turn(self, turn_id: int) -> None:
        """Mark a turn as replaced by Regenerate: kept in the record, left out of what the model is sent."""
        with self._write() as db:
            db.execute("UPDATE history SET status = 'superseded' WHERE id = ?", (turn_id,))

    def count_turns(self, chat_id: int) -> int:
        """How many turns the workspace has: its kept count (schema 11), one row whatever the history's length."""
        with self._query() as db:
            row = db.execute("SELECT turn_count FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
        return int(row[0]) if row is not None else 0

    def clear_history(self, chat_id: int) -> None:
        """Delete a workspace's turns; the workspace and its summary stay."""
        with self._write() as db:
            db.execute("DELETE FROM history WHERE chat_id = ?", (chat_id,))
            db.execute("UPDATE chats SET summary_turn_id = NULL WHERE chat_id = ?", (chat_id,))
