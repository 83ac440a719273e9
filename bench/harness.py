"""Timing and reporting: medians with min–max over repeated runs, checked against targets, each beside the
machine's load while it was measured."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Result:
    """One measured line of the results table."""

    name: str
    median: float
    low: float
    high: float
    unit: str
    target: str
    met: bool | None  # None: shown for information, no target
    runs: int = 0
    load: str = ""  # the machine's load average (1 minute) as the figure was measured: "3.1–4.2"

    def row(self) -> str:
        verdict = {True: "met", False: "MISSED", None: "—"}[self.met]
        spread = f"{_number(self.low)}–{_number(self.high)}" if self.runs > 1 else "—"
        value = f"{_number(self.median)} {self.unit}".rstrip()
        return f"| {self.name} | {value} | {spread} | {self.runs} | {self.target} | {verdict} | {self.load or '—'} |"

    def under(self, load: str) -> Result:
        """This result with the load it was measured under, unless it already has its own."""
        return self if self.load else replace(self, load=load)


HEADER = "| benchmark | median | min–max | runs | target | | load |\n|---|---|---|---|---|---|---|"


def load_now() -> float:
    """The machine's load average over the last minute (runnable processes; this machine has os.cpu_count())."""
    return os.getloadavg()[0]


class Load:
    """The load average's lowest and highest value seen while something was measured (sampled at its start, its
    end and wherever `sample` is called in between)."""

    def __init__(self) -> None:
        self.seen = [load_now()]

    def sample(self) -> None:
        self.seen.append(load_now())

    def shown(self) -> str:
        low, high = min(self.seen), max(self.seen)
        return f"{low:.1f}" if f"{low:.1f}" == f"{high:.1f}" else f"{low:.1f}–{high:.1f}"


@contextmanager
def measuring_load() -> Iterator[Load]:
    """`with measuring_load() as load: …`, then `load.shown()`: the load from the start to the end of the block."""
    load = Load()
    try:
        yield load
    finally:
        load.sample()


def _number(value: float) -> str:
    if float(value).is_integer() and abs(value) < 100:  # a count
        return f"{value:.0f}"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if abs(value) < 0.1:  # microseconds, shown as such rather than as 0.00 ms
        return f"{value:.3f}"
    return f"{value:.2f}"


def timed_ms(function: Callable[[], object], runs: int, warmup: int = 1) -> list[float]:
    """Wall time of `function` in milliseconds, `runs` times after `warmup` unmeasured runs."""
    for _ in range(warmup):
        function()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def summarise(name: str, samples: list[float], unit: str, target: str, limit: float | None) -> Result:
    median = statistics.median(samples)
    met = None if limit is None else median <= limit
    return Result(name, median, min(samples), max(samples), unit, target, met, len(samples))


def single(name: str, value: float, unit: str, target: str, met: bool | None) -> Result:
    return Result(name, value, value, value, unit, target, met, 1)
