"""A figure against its floor: what ships and the least the same work can cost, measured in the same rounds,
each round interleaving the two, with the machine's load beside it.

A figure is a ratio of the two medians (ours over the floor: at most the limit), what ours adds to the floor
(the difference of the medians: at most the limit), a share of the floor's rate (ours over the floor: at
least the limit), or a rate of ours that must reach the limit (the floor's shown beside it). Its noise is
half the spread of the values the rounds give one by one. A figure that moved from the last run's (kept in
$TMPDIR/bench-floors/last.json) by more than the noise of either is measured again at once, and both
measurements are shown.
"""

from __future__ import annotations

import json
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from bench.harness import Load, Result, single, summarise

Kind = Literal["ratio", "added", "share", "least"]
LAST = Path(tempfile.gettempdir()) / "bench-floors" / "last.json"
_SAYS = {"ratio": "ratio", "added": "added", "share": "share of the floor's rate", "least": "ours"}
_AT_LEAST = ("share", "least")


@dataclass
class Figure:
    """One figure: ours and the floor, sample lists per round, and what they must show."""

    name: str
    ours: str  # what ours is, in a few words
    floor: str  # what the floor is
    unit: str  # of the samples: "ms", "turns/s"
    kind: Kind
    limit: float
    ours_rounds: list[list[float]] = field(default_factory=list)
    floor_rounds: list[list[float]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # a benchmark counts its errors as failures
    load: Load = field(default_factory=Load)
    extra: list[Result] = field(default_factory=list)  # lines measured beside it (p99, the failures)

    def round(self, ours: list[float], floor: list[float]) -> None:
        self.ours_rounds.append(ours)
        self.floor_rounds.append(floor)
        self.load.sample()

    @property
    def value(self) -> float:
        return _value(self.kind, _flat(self.ours_rounds), _flat(self.floor_rounds))

    @property
    def noise(self) -> float:
        each = [_value(self.kind, o, f) for o, f in zip(self.ours_rounds, self.floor_rounds, strict=True) if o and f]
        return (max(each) - min(each)) / 2 if len(each) > 1 else 0.0

    @property
    def met(self) -> bool:
        within = self.value >= self.limit if self.kind in _AT_LEAST else self.value <= self.limit
        return within and not self.failures

    def target(self) -> str:
        relation = "≥" if self.kind in _AT_LEAST else "≤"
        limit = f"{self.limit:,g} {self.unit}" if self.kind in ("added", "least") else f"{self.limit:g}×"
        return f"{relation} {limit}" + (f", 0 failed (now: {len(self.failures)})" if self.failures else "")

    def rows(self) -> list[Result]:
        unit = self.unit if self.kind in ("added", "least") else "×"
        figure = single(f"{self.name}: {_SAYS[self.kind]}", self.value, unit, self.target(), self.met)
        if self.kind == "least":  # how far the floor is, for the reader
            floor = statistics.median(_flat(self.floor_rounds) or [float("nan")])
            self.extra = [single(f"{self.name}: the floor over ours", floor / self.value, "×", "(reference)", None),
                          *[row for row in self.extra if "the floor over ours" not in row.name]]  # fmt: skip
        noise = f"±{self.noise:.2g}" if self.noise else "—"
        return [
            summarise(f"{self.name}: ours, {self.ours}", _flat(self.ours_rounds) or [0.0], self.unit, "(ours)", None),
            summarise(f"{self.name}: floor, {self.floor}", _flat(self.floor_rounds) or [0.0], self.unit, "(floor)",
                      None),
            Result(figure.name, figure.median, figure.low, figure.high, figure.unit,
                   f"{figure.target} (noise {noise}, {len(self.ours_rounds)} rounds)", figure.met, 1),
            *self.extra,
        ]  # fmt: skip

    def under_load(self, rows: list[Result]) -> list[Result]:
        return [row.under(self.load.shown()) for row in rows]


def _flat(rounds: list[list[float]]) -> list[float]:
    return [sample for samples in rounds for sample in samples]


def _value(kind: Kind, ours: list[float], floor: list[float]) -> float:
    if not ours or not floor:
        return float("nan")
    if kind == "added":
        return statistics.median(ours) - statistics.median(floor)
    if kind == "least":
        return statistics.median(ours)
    return statistics.median(ours) / statistics.median(floor)


def _last() -> dict[str, dict[str, float]]:
    try:
        loaded = json.loads(LAST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _keep(figure: Figure) -> None:
    kept = _last()
    kept[figure.name] = {"value": figure.value, "noise": figure.noise}
    LAST.parent.mkdir(parents=True, exist_ok=True)
    LAST.write_text(json.dumps(kept, indent=1), encoding="utf-8")


def measured(measure: Callable[[], list[Figure]], quick: bool) -> list[Result]:
    """The figures `measure` gives, each measured once more at once when it moved from the last full run's by more
    than its noise (or the last one's); a quick run neither compares nor keeps."""
    first = measure()
    if quick:
        return [row for figure in first for row in figure.under_load(figure.rows())]
    last = _last()
    moved = [f for f in first if f.name in last and abs(f.value - last[f.name]["value"]) > max(
        f.noise, last[f.name]["noise"])]  # fmt: skip
    again = {figure.name: figure for figure in measure()} if moved else {}
    results: list[Result] = []
    for figure in first:
        shown = again.get(figure.name, figure) if figure in moved else figure
        rows = shown.rows()
        if figure in moved:
            before = last[figure.name]
            note = (
                f"{figure.name}: first measurement of this run, measured again: it moved from the last run's "
                f"{before['value']:.3g} (noise ±{before['noise']:.2g}) by more than its noise (±{figure.noise:.2g})"
            )
            unit = figure.unit if figure.kind in ("added", "least") else "×"
            rows.append(single(note, figure.value, unit, "(rerun)", None))
        results += shown.under_load(rows)
        _keep(shown)
    return results
