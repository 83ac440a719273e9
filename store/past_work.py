"""The store's search of past work: the turns of every workspace a user may see but the one they are in, by words
(the turns' full-text index, ranked) and by meaning (each turn's embedding), always through the access policy's
condition (`store.visibility`) in the query itself, on either backend."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.records import PastTurn
from store.sql import Database
from store.turns import HAS_CONTENT, TurnStore
from store.visibility import visible_to
from store.words import any_word

_COLUMNS = """history.id AS turn_id, history.chat_id, history."user", history.assistant, history.created_at,
              history.status, history.model, history.prompt_tokens, history.completion_tokens, history.duration_ms,
              history.error, history.thinking, history.asked_by, chats.chat_name"""


def _searched(viewer: int | None, leaving_out: int | None) -> tuple[str, dict[str, Any]]:
    """The turns a search of past work reads: answered, not replaced, in a workspace `viewer` may see (None: any)
    other than `leaving_out`."""
    seen, parameters = visible_to(viewer, "history.chat_id")
    condition = f"history.chat_id != :leaving_out AND history.status != 'superseded' AND {HAS_CONTENT} AND {seen}"
    return condition, {**parameters, "leaving_out": -1 if leaving_out is None else leaving_out}


class PastWorkStore(TurnStore):
    """Turns of other workspaces, found for one user."""

    def past_turns_by_words(self, query: str, limit: int, viewer: int | None, leaving_out: int | None) -> list[int]:
        """The ids of the best `limit` turns holding the query's telling words, best first."""
        where, parameters = _searched(viewer, leaving_out)
        with self._read() as db:
            return self._dialect.ranked_turns(db, any_word(db, query), where, parameters, limit)

    def past_turn_embeddings(
        self, model: str, window: int, viewer: int | None, leaving_out: int | None
    ) -> list[tuple[int, bytes]]:
        """(turn id, float32 vector by `model`) of the newest `window` such turns that have one."""
        where, parameters = _searched(viewer, leaving_out)
        with self._query() as db:
            rows = db.execute(
                f"""SELECT history.id, turn_embeddings.vector FROM history
                    JOIN turn_embeddings ON turn_embeddings.turn_id = history.id
                    WHERE turn_embeddings.model = :model AND {where} ORDER BY history.id DESC LIMIT :window""",  # noqa: S608
                {**parameters, "model": model, "window": window},
            ).fetchall()
        return [(int(turn_id), bytes(vector)) for turn_id, vector in rows]

    def past_turns_to_embed(
        self, model: str, limit: int, window: int, viewer: int | None, leaving_out: int | None
    ) -> list[PastTurn]:
        """Up to `limit` of the newest `window` such turns that `model` has not embedded yet, newest first."""
        where, parameters = _searched(viewer, leaving_out)
        with self._read() as db:
            rows = db.execute(
                f"""SELECT {_COLUMNS} FROM history JOIN chats ON chats.chat_id = history.chat_id
                    WHERE history.id IN (SELECT history.id FROM history WHERE {where}
                                         ORDER BY history.id DESC LIMIT :window)
                      AND NOT EXISTS (SELECT 1 FROM turn_embeddings
                                      WHERE turn_embeddings.turn_id = history.id AND turn_embeddings.model = :model)
                    ORDER BY history.id DESC LIMIT :limit""",  # noqa: S608 - fixed columns, the policy's condition
                {**parameters, "model": model, "window": window, "limit": limit},
            ).fetchall()
            return self._past(db, rows)

    def save_turn_embeddings(self, model: str, vectors: Iterable[tuple[int, bytes]]) -> None:
        """Each turn's vector by `model`, in place of one by another model."""
        with self._write() as db:
            for turn_id, vector in vectors:
                db.execute("DELETE FROM turn_embeddings WHERE turn_id = ?", (turn_id,))
                db.execute(
                    "INSERT INTO turn_embeddings (turn_id, model, vector) VALUES (?, ?, ?)", (turn_id, model, vector)
                )

    def past_turns(self, turn_ids: list[int], viewer: int | None, leaving_out: int | None) -> list[PastTurn]:
        """These turns with their workspace's name and tool calls, in the order given; only those the search may
        read (the condition again: an id is never enough to read a turn)."""
        if not turn_ids:
            return []
        where, parameters = _searched(viewer, leaving_out)
        ids, listed = self._dialect.id_list(turn_ids)
        with self._read() as db:
            rows = db.execute(
                f"""SELECT {_COLUMNS} FROM history JOIN chats ON chats.chat_id = history.chat_id
                    WHERE history.id IN ({ids.replace("?", ":ids")}) AND {where}""",  # noqa: S608
                {**parameters, "ids": listed},
            ).fetchall()
            found = {past.turn.turn_id: past for past in self._past(db, rows)}
        return [found[turn_id] for turn_id in turn_ids if turn_id in found]

    def _past(self, db: Database, rows: list[Any]) -> list[PastTurn]:
        names = {int(row["turn_id"]): str(row["chat_name"]) for row in rows}
        turns = self._with_tool_calls(db, rows)
        return [PastTurn(workspace=names[turn.turn_id], turn=turn) for turn in turns]
