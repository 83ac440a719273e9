"""The store on PostgreSQL against its floors, on a throwaway PostgreSQL 15 with its default settings (fsync on):

- `python main.py db copy --from FILE --to postgresql://…` of the store suite's history (one workspace of 100,000
  turns among 48 small ones, a tool call each), a new database each round, against the floor: PostgreSQL's COPY of
  the same rows (the columns a copy carries) into tables of the same columns without keys, indexes or triggers,
  read from the same file (`copy_floor`); the target is the turns copied a second;
- opening the store (`ChatHistoryDB(url)`, what every process and command does first) in a database of 1,000,000
  turns against one of 10,000 (both copied in by `db copy`): flat is the same time; beside it, SQLite's opening of
  the same million and a bare connection to PostgreSQL.
"""

from __future__ import annotations

import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bench import store_bench
from bench.floors import Figure
from bench.harness import Result, single, summarise
from bench.shipped import main_py, timed_run
from fakes.postgres import PostgresServer


def copy_floor(source: Path, url: str) -> float:
    """Seconds to COPY the rows a copy carries from the SQLite file into bare tables of the same columns."""
    import psycopg

    from store.copying import TABLES

    with psycopg.connect(url) as target:
        for table in TABLES:
            target.execute(f"CREATE TABLE floor_{table.name} (LIKE {table.name} INCLUDING DEFAULTS)")
        target.commit()
        started = time.perf_counter()
        reading = sqlite3.connect(source)
        with target.transaction(), target.cursor() as cursor:
            for table in TABLES:
                names = ", ".join(f'"{name}"' for name in table.copied_columns)
                rows = reading.execute(f"SELECT {names} FROM {table.name}")  # noqa: S608 - declared names
                with cursor.copy(f"COPY floor_{table.name} ({names}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
        reading.close()
        return time.perf_counter() - started


def turns_in(path: Path) -> int:
    with sqlite3.connect(path) as database:
        return int(database.execute("SELECT COUNT(*) FROM history").fetchone()[0])


def db_copy(source: Path, url: str, folder: Path) -> tuple[float, str | None]:
    """Seconds of `python main.py db copy --from FILE --to URL`, and why it failed (None: it did not)."""
    elapsed, failed = timed_run(main_py(["db", "copy", "--from", str(source), "--to", url]), folder)
    return elapsed / 1000, failed


def copy_figure(server: PostgresServer, folder: Path, size: int, rounds: int) -> Figure:
    figure = Figure(f"`db copy` into PostgreSQL, {size:,} turns", "turns copied a second",
                    "PostgreSQL's COPY of the same rows (bench/postgres_floors.py)", "turns/s", "least",
                    10_000.0)  # fmt: skip
    source, _ = store_bench.filled(size)
    turns = turns_in(source)
    for number in range(rounds):
        samples: dict[str, list[float]] = {"ours": [], "floor": []}
        for key in ("ours", "floor") if number % 2 == 0 else ("floor", "ours"):
            url = server.new_database()
            if key == "ours":
                seconds, failed = db_copy(source, url, folder)
                figure.failures += [failed] if failed else []
            else:
                from store import ChatHistoryDB

                ChatHistoryDB(url).close()  # the tables, made as the application makes them
                seconds = copy_floor(source, url)
            samples[key].append(turns / seconds)
            server.drop_database(url)
        figure.round(samples["ours"], samples["floor"])
    return figure


def opening_figure(server: PostgresServer, folder: Path, sizes: tuple[int, int], runs: int) -> Figure:
    small, large = sizes
    figure = Figure(f"opening the store on PostgreSQL, {large:,} turns against {small:,}", f"{large:,} turns",
                    f"{small:,} turns", "ms", "ratio", 1.25)  # fmt: skip
    urls = {}
    for size in sizes:
        urls[size] = server.new_database()
        seconds, failed = db_copy(store_bench.filled(size)[0], urls[size], folder)
        figure.failures += [failed] if failed else []
        figure.extra.append(
            single(
                f"`db copy` into PostgreSQL, {size:,} turns (made for the opening)",
                turns_in(store_bench.filled(size)[0]) / seconds,
                "turns/s",
                "(reference)",
                None,
            )
        )
    with server.admin(urls[large].rsplit("/", 1)[1]) as admin:
        admin.execute("VACUUM (ANALYZE)")  # as autovacuum leaves it soon after
    figure.extra += _beside(server, store_bench.filled(large)[0], urls[large], runs)
    for _ in range(5):
        samples = {size: [_opened(urls[size]) for _ in range(max(1, runs // 5))] for size in sizes}
        figure.round(samples[large], samples[small])
    return figure


def _opened(target: str) -> float:
    from store import ChatHistoryDB

    started = time.perf_counter()
    ChatHistoryDB(target).close()
    return (time.perf_counter() - started) * 1000


def _beside(server: PostgresServer, sqlite_file: Path, url: str, runs: int) -> list[Result]:
    """SQLite's opening of the same history, and a bare connection to PostgreSQL with one statement."""
    import psycopg

    def connect() -> float:
        started = time.perf_counter()
        with psycopg.connect(url) as connection:
            connection.execute("SELECT 1").fetchone()
        return (time.perf_counter() - started) * 1000

    sqlite = [_opened(str(sqlite_file)) for _ in range(runs)]
    bare = [connect() for _ in range(runs)]
    return [
        summarise("opening the same history on SQLite", sqlite, "ms", "(reference)", None),
        summarise("a bare connection to PostgreSQL and SELECT 1", bare, "ms", "(reference)", None),
        single("opening on PostgreSQL over a bare connection (medians)",
               _opened(url) / statistics.median(bare), "×", "(reference)", None),
    ]  # fmt: skip


def figures(quick: bool) -> list[Figure]:
    from fakes.postgres import unavailable

    if unavailable() is not None:
        return []
    sizes = (1_000, 10_000) if quick else (10_000, 1_000_000)
    with PostgresServer(durable=True) as server, tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        copying = copy_figure(server, folder, 10_000 if quick else 100_000, 1 if quick else 3)
        opening = opening_figure(server, folder, sizes, 10 if quick else 30)
    return [copying, opening]
