"""Run the benchmarks and print the results table: `python -m bench [--quick]`.

--quick runs every benchmark with few repetitions and small histories (a smoke
pass for CI, a few seconds); without it, the full run takes a few minutes.
The exit status is 0 unless a benchmark fails to run; missed targets are shown
in the table (and make the exit status 1 with --strict). Each line shows the
machine's load average while it was measured: its own where the suite took it,
else its suite's from start to end.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable

from bench import (
    accounts_bench,
    agent_bench,
    api_bench,
    app_bench,
    boundaries_bench,
    browser_bench,
    concrete_bench,
    documents_bench,
    drawings_bench,
    floors_bench,
    images_bench,
    packages_bench,
    past_work_bench,
    postgres_bench,
    scans_bench,
    server_bench,
    spread_bench,
    steel_bench,
    store_bench,
    together_bench,
    watch_bench,
)
from bench.harness import HEADER, Result, measuring_load

SUITES: dict[str, Callable[[bool], list[Result]]] = {
    "agent": agent_bench.run,
    "store": store_bench.run,
    "prompt": app_bench.prompt_sizes,
    "tools": app_bench.unit_tools,
    "steel": steel_bench.run,
    "concrete": concrete_bench.run,
    "documents": documents_bench.run,
    "watch": watch_bench.run,
    "scans": scans_bench.run,
    "drawings": drawings_bench.run,
    "packages": packages_bench.run,
    "server": server_bench.run,
    "postgres": postgres_bench.run,
    "cli": app_bench.cli,
    "web": app_bench.web_rerun,
    "browser": browser_bench.run,
    "accounts": accounts_bench.run,
    "api": api_bench.run,
    "boundaries": boundaries_bench.run,
    "spread": spread_bench.run,
    "images": images_bench.run,
    "past-work": past_work_bench.run,
    "together": together_bench.run,
    "floors": floors_bench.run,
}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    return f"{platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repetitions, small histories (CI smoke pass)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "suites",
        nargs="*",
        metavar="SUITE",
        help=f"only these suites: {', '.join(SUITES)}; "
        f"or some of floors' groups: {', '.join('floors:' + group for group in floors_bench.GROUPS)}",
    )
    args = parser.parse_args()
    unknown = set(args.suites) - set(SUITES) - {f"floors:{group}" for group in floors_bench.GROUPS}
    if unknown:
        parser.error(f"unknown suite {', '.join(sorted(unknown))}; choose from {', '.join(SUITES)}")
    started = time.perf_counter()
    results: list[Result] = []
    for name in args.suites or SUITES:
        with measuring_load() as load:
            group = name.removeprefix("floors:")
            found = SUITES[name](args.quick) if group == name else floors_bench.run(args.quick, [group])
        results += [result.under(load.shown()) for result in found]
        print(f"  {name}: done", file=sys.stderr, flush=True)
    print(f"Machine: {machine()}; {'quick' if args.quick else 'full'} run, {time.perf_counter() - started:.0f} s.")
    print(f"Command: {' '.join(['python -m bench', *sys.argv[1:]])}\n")
    print(HEADER)
    for result in results:
        print(result.row())
    missed = [r.name for r in results if r.met is False]
    if missed:
        print(f"\nMissed: {', '.join(missed)}", file=sys.stderr)
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
