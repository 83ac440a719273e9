"""The same benchmarks on two checkouts, run in turn on this machine, as one before/after table.

    python -m bench.before_after OLD_CHECKOUT [SUITE ...] [--rounds N] [--quick]

The old checkout gets this checkout's `bench/` (so the old code is measured the way the new one
is, and a benchmark added since measures it too); its own files otherwise, `fakes/` included.
Each round runs every suite in both, the old one first in odd rounds and this one first in even
rounds, so that the machine's load weighs on both alike. Each tree keeps its own stores of turns
(their schemas differ) in a folder of its own under $TMPDIR/bench-before-after, kept between runs
as `python -m bench` keeps its own. A line is the median of the rounds' medians; the ratio is after
over before; beside it, the target and each round's verdict, and the load each was measured under.
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(
    r"^\| (?P<name>.+?) \| (?P<value>[-\d.,]+)(?: (?P<unit>[^|]*?))? \| [^|]* \| [^|]* \| (?P<target>[^|]*) "
    r"\| (?P<verdict>met|MISSED|—) \| (?P<load>[^|]*) \|$"
)
STORES = Path(tempfile.gettempdir()) / "bench-before-after"  # each tree's filled stores, kept between runs


@dataclass(frozen=True)
class Row:
    """One line of a results table: its median, unit, target, verdict and the load it was measured under."""

    value: float
    unit: str
    target: str
    verdict: str
    load: str


def with_this_bench(old: Path, into: Path) -> Path:
    """A copy of the old checkout's files with this checkout's `bench/` in place of its own."""
    shutil.copytree(old, into, ignore=shutil.ignore_patterns(".git", "__pycache__", ".venv"))
    shutil.rmtree(into / "bench")
    shutil.copytree(ROOT / "bench", into / "bench", ignore=shutil.ignore_patterns("__pycache__"))
    return into


def run_suites(tree: Path, suites: list[str], quick: bool, tmp: Path) -> dict[str, Row]:
    """Each table line from one `python -m bench` in `tree`; a failed run stops everything."""
    command = [sys.executable, "-m", "bench", *(["--quick"] if quick else []), *suites]
    environment = {**os.environ, "PYTHONPATH": str(tree), "TMPDIR": str(tmp)}
    done = subprocess.run(command, cwd=tree, env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"the benchmarks failed in {tree}:\n{done.stderr[-3000:]}")
    rows = {}
    for line in done.stdout.splitlines():
        if (match := ROW.match(line)) is not None:
            value = float(match["value"].replace(",", ""))
            rows[match["name"]] = Row(value, (match["unit"] or "").strip(), match["target"], match["verdict"],
                                      match["load"])  # fmt: skip
    return rows


def table(before: list[dict[str, Row]], after: list[dict[str, Row]]) -> list[str]:
    names = list(dict.fromkeys([*after[0], *before[0]]))
    lines = [
        "| benchmark | before | after | after / before | target | before → after | load before / after |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in names:
        old = [rows[name] for rows in before if name in rows]
        new = [rows[name] for rows in after if name in rows]
        unit = next((row.unit for row in [*new, *old]), "")
        medians = [statistics.median(row.value for row in rows) if rows else None for rows in (old, new)]
        shown = ["—" if value is None else f"{_number(value)} {unit}".strip() for value in medians]
        ratio = f"{medians[1] / medians[0]:.2f}×" if medians[0] and medians[1] is not None else "—"
        target = next((row.target for row in [*new, *old]), "")
        verdicts = " → ".join(", ".join(row.verdict for row in rows) or "—" for rows in (old, new))
        loads = " / ".join(", ".join(row.load for row in rows) or "—" for rows in (old, new))
        lines.append(f"| {name} | {shown[0]} | {shown[1]} | {ratio} | {target} | {verdicts} | {loads} |")
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
        results: dict[Path, list[dict[str, Row]]] = {old: [], ROOT: []}
        for number in range(args.rounds):
            for tree in (old, ROOT) if number % 2 == 0 else (ROOT, old):  # ABBA: neither always goes first
                print(f"round {number + 1}: {'before' if tree == old else 'after'}", file=sys.stderr, flush=True)
                results[tree].append(run_suites(tree, args.suites, args.quick, temporary[tree]))
        print(f"Command: python -m bench.before_after {' '.join(sys.argv[1:])}\n")
        print("\n".join(table(results[old], results[ROOT])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
