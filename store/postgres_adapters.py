"""The store's SQL as psycopg runs it: placeholders translated, rows by name or position, and text with NUL.

SQLite stores any text; PostgreSQL's `text` cannot hold the NUL character. So that text is stored
exactly on both, every string sent is escaped (NUL → ESCAPE 0, ESCAPE → ESCAPE 1, ESCAPE being a
private-use character) and every text read is unescaped: a reversible code that leaves other text
as it is, and that searches see through (a NUL is no word).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from psycopg import BaseConnection, Cursor, OperationalError
from psycopg import adapters as postgres_adapters
from psycopg.adapt import Buffer, PyFormat
from psycopg.types.string import StrDumperUnknown, TextBinaryLoader, TextLoader

ESCAPE = "\ue000"
_ESCAPED = re.compile(ESCAPE + "[01]")
_CODES = {ESCAPE + "0": "\x00", ESCAPE + "1": ESCAPE}
# A literal or quoted name (kept, with % doubled), a cast (kept), a named or positional placeholder, or a %.
_PIECES = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|::|:([A-Za-z_]\w*)|\?|%")


def escape(text: str) -> str:
    if "\x00" in text or ESCAPE in text:
        return text.replace(ESCAPE, ESCAPE + "1").replace("\x00", ESCAPE + "0")
    return text


def unescape(text: str) -> str:
    return _ESCAPED.sub(lambda code: _CODES[code.group()], text) if ESCAPE in text else text


class EscapingDumper(StrDumperUnknown):
    def dump(self, obj: str) -> Buffer | None:
        return super().dump(escape(obj))


class UnescapingLoader(TextLoader):
    def load(self, data: Buffer) -> bytes | str:
        text = super().load(data)
        return unescape(text) if isinstance(text, str) else text


class UnescapingBinaryLoader(TextBinaryLoader):
    def load(self, data: Buffer) -> bytes | str:
        text = super().load(data)
        return unescape(text) if isinstance(text, str) else text


_PLAIN_TEXT = postgres_adapters.get_dumper(str, PyFormat.TEXT)  # psycopg's own (`adapt` gives connections ours)


def _escaped(rows: Sequence[Sequence[Any]]) -> Sequence[Sequence[Any]]:
    """The rows with their text escaped (`escape`), looked for in all of it joined first (in C): most hold none."""
    joined = "".join([value for row in rows for value in row if type(value) is str])
    if "\x00" not in joined and ESCAPE not in joined:
        return rows
    return [tuple(escape(value) if type(value) is str else value for value in row) for row in rows]


def _copy_statement(table: str, columns: Sequence[str]) -> str:
    names = ", ".join(f'"{name}"' for name in columns)
    return f"COPY {table} ({names}) FROM STDIN"


def adapt(connection: BaseConnection[Any]) -> None:
    """Make `connection` store and read text exactly, NUL included."""
    connection.adapters.register_dumper(str, EscapingDumper)
    for name in ("text", "varchar"):
        connection.adapters.register_loader(name, UnescapingLoader)
        connection.adapters.register_loader(name, UnescapingBinaryLoader)


@lru_cache(maxsize=2048)
def translate(sql: str) -> str:
    """SQLite's `?` and `:name` as psycopg's `%s` and `%(name)s`; `%` doubled, literals and casts kept."""

    def swap(piece: re.Match[str]) -> str:
        text = piece.group()
        if text[0] in "'\"":
            return text.replace("%", "%%")
        if text == "::":
            return text
        if text == "?":
            return "%s"
        if text == "%":
            return "%%"
        return f"%({piece.group(1)})s"

    return _PIECES.sub(swap, sql)


class Row:
    """A row read by position (`row[0]`, unpacking) or by column name (`row["chat_id"]`, `dict(row)`)."""

    __slots__ = ("_names", "_values")

    def __init__(self, values: Sequence[Any], names: dict[str, int]) -> None:
        self._values = values
        self._names = names

    def __getitem__(self, key: int | str) -> Any:
        return self._values[self._names[key]] if isinstance(key, str) else self._values[key]

    def __iter__(self) -> Any:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> list[str]:
        return list(self._names)


def rows(cursor: Cursor[Any]) -> Callable[[Sequence[Any]], Row]:
    """psycopg's row factory for `Row`, run for every statement: the columns' names are read from the result itself,
    not from `cursor.description`, which makes an object (with its type looked up) of each column (16 of the 117 µs
    of CPU a workspace's read took on the client). The connection's encoding is UTF-8 (`client_encoding`)."""
    result = cursor.pgresult
    names = {} if result is None else {(result.fname(n) or b"").decode(): n for n in range(result.nfields)}
    return lambda values: Row(values, names)


class PgDatabase:
    """A psycopg connection running the store's statements (the `store.sql.Database` of PostgreSQL).

    `retry_next` lets the next statement run once more on a new connection when it finds the server
    dropped the old one (set for a transaction's BEGIN or a statement standing alone, never inside a
    transaction, whose earlier statements the server rolled back).
    """

    def __init__(self, connect: Callable[[], Any]) -> None:
        self._connect = connect
        self.connection = connect()
        self.retry_next = False

    def execute(self, sql: str, parameters: Any = (), /) -> Any:
        query = translate(sql)
        if self.retry_next:
            self.retry_next = False
            try:
                return self.connection.execute(query, parameters)
            except OperationalError:
                if not self.connection.broken:
                    raise
                self.connection = self._connect()
        return self.connection.execute(query, parameters)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> Any:
        cursor = self.connection.cursor()
        cursor.executemany(translate(sql), parameters)
        return cursor

    def copy_batches(self, table: str, columns: Sequence[str], batches: Iterable[Sequence[Sequence[Any]]]) -> None:
        """Many rows with one COPY (what `db copy` moves in), their text written by psycopg's own dumper (in C where
        psycopg has it), not a Python call a value: the rare batch holding text to escape is escaped first."""
        with self.connection.cursor() as cursor:
            cursor.adapters.register_dumper(str, _PLAIN_TEXT)
            with cursor.copy(_copy_statement(table, columns)) as copy:
                for rows in batches:
                    for row in _escaped(rows):
                        copy.write_row(row)

    def copy_data(self, table: str, columns: Sequence[str], data: bytes, *, binary: bool = False) -> None:
        """Rows already written for COPY, as text or whole in its binary format (a copy's word vectors, made by
        other processes)."""
        statement = _copy_statement(table, columns) + (" (FORMAT BINARY)" if binary else "")
        with self.connection.cursor() as cursor, cursor.copy(statement) as copy:
            copy.write(data)

    def reopen_if_dropped(self) -> None:
        if self.connection.closed or self.connection.broken:
            self.connection = self._connect()
