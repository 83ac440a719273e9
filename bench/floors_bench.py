"""Every figure of issue 39 against its floor, in one run: `python -m bench floors`.

What ships is measured as the README starts it (processes with the settings' defaults), each figure beside the least
the same work costs on this machine, in interleaved rounds, with the machine's load (`bench/floors.py`):
the terminal's commands (`bench/cli_floors.py`), the agent's plain turn (`bench/agent_bench.py`), served turns and
accounts on SQLite and PostgreSQL (`bench/served_floors.py`), the web page in Chromium (`bench/browser_bench.py`)
and the store on PostgreSQL (`bench/postgres_floors.py`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from bench import agent_bench, browser_bench, cli_floors, postgres_floors, served_floors
from bench.floors import Figure, measured
from bench.harness import Result, single
from fakes.postgres import PostgresServer, unavailable


def served(quick: bool) -> list[Figure]:
    """50 sessions and accounts, on SQLite and on PostgreSQL (skipped where PostgreSQL cannot start)."""
    rounds = 2 if quick else 7
    turns_rounds, turns_each = (2, 5) if quick else (5, 20)
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        figures.append(served_floors.sessions_figure("SQLite", "shared.sqlite", folder, rounds))
        figures.append(served_floors.accounts_figure("SQLite", ("accounts.sqlite", "none.sqlite"), folder,
                                                     turns_rounds, turns_each))  # fmt: skip
        if unavailable() is None:
            with PostgresServer(durable=True) as server:
                figures.append(served_floors.sessions_figure("PostgreSQL", server.new_database(), folder, rounds))
                targets = (server.new_database(), server.new_database())
                figures.append(served_floors.accounts_figure("PostgreSQL", targets, folder, turns_rounds,
                                                             turns_each))  # fmt: skip
    return figures


GROUPS: dict[str, Callable[[bool], list[Figure]]] = {
    "cli": lambda quick: [*cli_floors.once_figures(quick), *cli_floors.verify_figure(quick)],
    "agent": agent_bench.plain_turn_figure,
    "served": served,
    "web": browser_bench.page_load_figure,
    "postgres": postgres_floors.figures,
}


def run(quick: bool, groups: Sequence[str] = tuple(GROUPS)) -> list[Result]:
    """The figures of `groups` (all of them by default; `python -m bench floors:cli floors:web` names some)."""
    results: list[Result] = []
    for group in groups:
        results += measured(partial(GROUPS[group], quick), quick)
    reason = unavailable()
    if reason is not None and {"served", "postgres"} & set(groups):
        results.append(single(f"PostgreSQL figures skipped: {reason}", 0, "", "—", None))
    return results
