"""What the store's SQL runs on, whichever the backend, and what differs between the backends.

The statements the two backends share are written once, in SQLite's parameter style (`?` and
`:name`, with `"user"` quoted: PostgreSQL reserves the word); the PostgreSQL connection translates
the placeholders (`store.postgres_connection`). Rows are read by position or by column name, and
`dict(row)` gives the columns by name. What SQL cannot say alike (full-text search, the next
activity number, a list of ids as one parameter) is a `Dialect`: `store.sqlite_dialect` and
`store.postgres_dialect` are the two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol

Params = Sequence[Any] | Mapping[str, Any]
NO_LIMIT = 2**62  # `LIMIT ?` without a limit (SQLite's -1 is an error in PostgreSQL)
TurnQuery = list[list[list[str]]]  # every typed word (AND) as any of its phrases (OR), each a list of index words


def timestamp() -> str:
    """Now, in UTC with microseconds, in the text format of SQLite's CURRENT_TIMESTAMP (so they sort together)."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


class Cursor(Protocol):
    """What a statement returns: rows read by position or column name, and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Database(Protocol):
    """A connection inside one of the store's transactions (or outside any, for one statement)."""

    def execute(self, sql: str, parameters: Params = (), /) -> Cursor: ...
    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Any: ...


TurnRows = Sequence[tuple[int, int, str, str]]  # (turn_id, chat_id, user, assistant)


class AuditRow(NamedTuple):
    """An audit record as it is stored (`Dialect.add_audit_record`), its columns in order."""

    id: int
    at: str
    user_name: str
    action: str
    chat_id: int | None
    workspace_name: str | None
    detail: str
    prev_hash: str
    hash: str


_AUDIT_COLUMNS, _AUDIT_VALUES = ", ".join(AuditRow._fields), ", ".join("?" * len(AuditRow._fields))
ADD_AUDIT_ROW = f"INSERT INTO audit ({_AUDIT_COLUMNS}) VALUES ({_AUDIT_VALUES})"  # noqa: S608 - fixed names


class Dialect(Protocol):
    """The SQL the two backends cannot share: full-text search of turns, passages and memories, and a few
    expressions. Each method runs inside the caller's transaction on `db`."""

    name: str
    like: str  # case-insensitive LIKE (SQLite's LIKE folds ASCII; PostgreSQL's is ILIKE)
    position: str  # the function giving where a text holds another, 0 when it does not
    now_seconds: str  # the database's clock in seconds since 1970 (leases use the server's clock)

    def next_activity(self) -> str:
        """An SQL expression: the next value of chats.activity_seq (most recently active first)."""
        ...

    def id_list(self, ids: Sequence[int]) -> tuple[str, Any]:
        """A subquery listing `ids`, and its one parameter: `WHERE id IN (<subquery>)`."""
        ...

    def index_turns(self, db: Database, turns: Sequence[tuple[int, int, str, str]]) -> None:
        """Make stored turns (turn_id, chat_id, user, assistant) findable (SQLite's triggers do it themselves)."""
        ...

    def insert_rows(self, db: Database, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Many rows into `table` at once (a copy moving a history in)."""
        ...

    def insert_batches(
        self, db: Database, table: str, columns: Sequence[str], batches: Iterable[Sequence[Sequence[Any]]]
    ) -> None:
        """A whole table's rows, a batch at a time as they are read (a copy moving a history in)."""
        ...

    def indexing_turns(self, db: Database, turns: int) -> AbstractContextManager[Callable[[TurnRows], None]]:
        """For a copy of `turns` turns: what makes each batch of them findable as it is copied (`index_turns`,
        or the same work spread over processes), all of it done when the block ends."""
        ...

    def before_copy(self, db: Database) -> None:
        """Ready an empty database for a whole history written in one transaction."""
        ...

    def after_copy(self, db: Database) -> None:
        """Finish what `before_copy` began: counts, id sequences, the planner's statistics (called within the
        `indexing_turns` block, whose end finishes what concerns the turns' search)."""
        ...

    def add_terms(self, db: Database, words: Iterable[str]) -> None:
        """Add words to `search_terms`, the list of indexed words a typed prefix is expanded from."""
        ...

    def add_audit_record(self, db: Database, record: AuditRow) -> None:
        """Add one audit record and make its hash the chain's head's, the head's row already locked by this
        transaction."""
        ...

    def newest_matches(
        self, db: Database, query: TurnQuery, chat_ids: Sequence[int] | None, limit: int
    ) -> list[tuple[int, int]]:
        """(chat_id, turn_id) of the newest `limit` turns matching `query` (in these workspaces only, if given)."""
        ...

    def newest_each(self, db: Database, query: TurnQuery, chat_ids: Sequence[int]) -> dict[int, int | None] | None:
        """The newest turn matching `query` of each of these workspaces (None for one without), in one statement;
        None when the backend has no such statement."""
        ...

    def ranked_turns(
        self, db: Database, words: Sequence[str], where: str, parameters: Mapping[str, Any], limit: int
    ) -> list[int]:
        """The ids of the best `limit` turns holding any of `words` in their question or answer, best first, among
        those `where` keeps (a condition on `history`, with its named `parameters`)."""
        ...

    def snippets(self, db: Database, query: TurnQuery, turn_ids: Sequence[int], tokens: int) -> dict[int, str]:
        """For each turn that has one, about `tokens` words around its match, '…' where text was left out."""
        ...

    def any_of(self, words: list[str]) -> str | None:
        """A passage or memory query matching any of `words` (each a folded word of letters and digits)."""
        ...

    def passage_count(self, db: Database, word: str) -> int:
        """How many passages hold `word` (after stemming)."""
        ...

    def nth_newest_passage(self, db: Database, expression: str, offset: int) -> int | None:
        """The id of the passage `offset` places below the newest matching `expression`."""
        ...

    def ranked_passages(self, db: Database, expression: str, start: int, limit: int, columns: str) -> list[Any]:
        """`columns` of the best `limit` passages matching `expression` with ids from `start`, and their `score`
        (higher is better), best first."""
        ...

    def ranked_memories(self, db: Database, expression: str, limit: int, columns: str) -> list[Any]:
        """`columns` of the best `limit` memories matching `expression`, best first."""
        ...
