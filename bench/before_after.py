"""The same benchmarks on two checkouts, run in turn on this machine, as one before/after table.

    python -m bench.before_after OLD_CHECKOUT [SUITE ...] [--rounds N] [--quick]

The old checkout gets this checkout's `bench/` (so the old code is measured the way the new one
is, and a benchmark added since measures it too); its own files otherwise, `fakes/` included.
Each round runs every suite in the old checkout, then in this one, so that the machine's load
weighs on both alike. Each tree keeps its own stores of turns (their schemas differ) in a folder
of its own under $TMPDIR/bench-before-after, kept between runs as `python -m bench` keeps its
own. A line is the median of the rounds' medians; the ratio is after over before.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^\| (?P<name>.+?) \| (?P<value>[-\d.,]+)(?: (?P<unit>[^|]*?))? \| .* \| (?:met|MISSED|—) \|$")
STORES = Path(tempfile.gettempdir()) / "bench-before-after"  # each tree's filled stores, kept between runs


def with_this_bench(old: Path, into: Path) -> Path:
    """A copy of the old checkout's files with this checkout's `bench/` in place of its own."""
    shutil.copytree(old, into, ignore=shutil.ignore_patterns(".git", "__pycache__", ".venv"))
    shutil.rmtree(into / "bench")
    shutil.copytree(ROOT / "bench", into / "bench", ignore=shutil.ignore_patterns("__pycache__"))
    return into


def run_suites(tree: Path, suites: list[str], quick: bool, tmp: Path) -> dict[str, tuple[float, str]]:
    """Each table line's median and unit from one `python -m bench` in `tree`; a failed run stops everything."""
    command = [sys.executable, "-m", "bench", *(["--quick"] if quick else []), *suites]
    environment = {**os.environ, "PYTHONPATH": str(tree), "TMPDIR": str(tmp)}
    done = subprocess.run(command, cwd=tree, env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"the benchmarks failed in {tree}:\n{done.stderr[-3000:]}")
    rows = {}
    for line in done.stdout.splitlines():
        if (match := ROW.match(line)) is not None:
            rows[match["name"]] = (float(match["value"].replace(",", "")), (match["unit"] or "").strip())
    return rows


def table(before: list[dict[str, tuple[float, str]]], after: list[dict[str, tuple[float, str]]]) -> list[str]:
    names = list(dict.fromkeys([*after[0], *before[0]]))
    lines = ["| benchmark | before | after | after / before |", "|---|---|---|---|"]
    for name in names:
        old = [rows[name][0] for rows in before if name in rows]
        new = [rows[name][0] for rows in after if name in rows]
        unit = next((rows[name][1] for rows in [*after, *before] if name in rows), "")
        shown = [f"{_number(statistics.median(values))} {unit}".strip() if values else "—" for values in (old, new)]
        ratio = (
            f"{statistics.median(new) / statistics.median(old):.2f}×" if old and new and statistics.median(old) else "—"
        )
        lines.append(f"| {name} | {shown[0]} | {shown[1]} | {ratio} |")
    return lines


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="a checkout of the code before (e.g. `git worktree add`)")
    parser.add_argument("suites", nargs="*", help="suites as for `python -m bench` (default: all)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        old = with_this_bench(args.old.resolve(), folder / "before")
        temporary = {old: STORES / "before", ROOT: STORES / "after"}
        for path in temporary.values():
            path.mkdir(parents=True, exist_ok=True)
        results: dict[Path, list[dict[str, tuple[float, str]]]] = {old: [], ROOT: []}
        for number in range(args.rounds):
            for tree in (old, ROOT):
                print(f"round {number + 1}: {'before' if tree == old else 'after'}", file=sys.stderr, flush=True)
                results[tree].append(run_suites(tree, args.suites, args.quick, temporary[tree]))
        print("\n".join(table(results[old], results[ROOT])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
