"""Timing and reporting: medians with min–max over repeated runs, checked against targets."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


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

    def row(self) -> str:
        verdict = {True: "met", False: "MISSED", None: "—"}[self.met]
        spread = f"{_number(self.low)}–{_number(self.high)}" if self.runs > 1 else "—"
        value = f"{_number(self.median)} {self.unit}".rstrip()
        return f"| {self.name} | {value} | {spread} | {self.runs} | {self.target} | {verdict} |"


HEADER = "| benchmark | median | min–max | runs | target | |\n|---|---|---|---|---|---|"


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
