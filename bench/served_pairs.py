"""Two checkouts' served turns side by side: two `main.py serve` of each at once, on one fake Ollama, rounds of
50 sessions given to each pair in turn, so that the machine's drift falls on both alike.

    python -m bench.served_pairs OLD_CHECKOUT [sqlite] [postgresql] [--rounds 10]

`bench.before_after` runs the checkouts one after the other, minutes apart; on a machine whose speed moves
more than a change does, this is how a change to a served turn is told apart. Each pair's answered turns a
second (median of its rounds) and the CPU of its two servers a turn over its own rounds (from /proc, the
sessions' summaries included, as in `bench.served_floors`). Both checkouts run on this checkout's interpreter and
packages: compare commits whose requirements are the same.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from contextlib import ExitStack
from pathlib import Path

from bench.agent_bench import fake_server_process
from bench.served_floors import SESSIONS, cpu_seconds, idle, server, spread
from fakes.postgres import PostgresServer

HERE = Path(__file__).resolve().parents[1]


def compare(checkouts: dict[str, Path], backend: str, rounds: int) -> dict[str, tuple[float, float, int]]:
    """(turns a second, the servers' CPU ms a turn, turns failed) of each checkout's pair."""
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="served-pairs-")))
        if backend == "postgresql":
            postgres = stack.enter_context(PostgresServer(durable=True))
            targets = {name: postgres.new_database() for name in checkouts}
        else:
            targets = {name: f"{name}.sqlite" for name in checkouts}
        ollama = stack.enter_context(fake_server_process())
        pairs = {name: [stack.enter_context(server(ollama, targets[name], folder, main=checkout / "main.py"))
                        for _ in range(2)] for name, checkout in checkouts.items()}  # fmt: skip
        for pair in pairs.values():  # warm
            asyncio.run(spread([one.port for one in pair], 4))
            idle([one.pid for one in pair])
        rates: dict[str, list[float]] = {name: [] for name in checkouts}
        cpu: dict[str, float] = dict.fromkeys(checkouts, 0.0)
        failed: dict[str, int] = dict.fromkeys(checkouts, 0)
        for number in range(rounds):
            for name in list(checkouts)[:: 1 if number % 2 == 0 else -1]:
                pids = [one.pid for one in pairs[name]]
                before = sum(map(cpu_seconds, pids))
                wall, outcomes = asyncio.run(spread([one.port for one in pairs[name]], SESSIONS))
                idle(pids)
                cpu[name] += sum(map(cpu_seconds, pids)) - before
                answered = sum(outcome.failure is None for outcome in outcomes)
                failed[name] += len(outcomes) - answered
                rates[name].append(answered / (wall / 1000))
    return {name: (statistics.median(rates[name]), cpu[name] * 1000 / (rounds * SESSIONS), failed[name])
            for name in checkouts}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="the older checkout (a `git worktree add` of an earlier commit)")
    parser.add_argument("backends", nargs="*", help="sqlite (the default), postgresql or both")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    if unknown := set(args.backends) - {"sqlite", "postgresql"}:  # not argparse's choices: 3.11 refuses an empty list
        parser.error(f"no backend {', '.join(sorted(unknown))}: sqlite or postgresql")
    checkouts = {"before": args.old.resolve(), "after": HERE}
    print("| backend | checkout | turns/s (median) | the servers' CPU a turn | turns failed |")
    print("|---|---|---|---|---|")
    for backend in args.backends or ["sqlite"]:
        for name, (rate, cpu, failed) in compare(checkouts, backend, args.rounds).items():
            print(f"| {backend} | {name} | {rate:.1f} | {cpu:.2f} ms | {failed} of {args.rounds * SESSIONS} |")


if __name__ == "__main__":
    main()
