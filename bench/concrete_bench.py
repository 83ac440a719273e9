"""The reinforced concrete tools: each one's first call in a fresh interpreter (the unit registry built), then
calls through `run_tool` cycling over the published and hand-checked cases of the tests."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.harness import Result, single, summarise, timed_ms
from tools import ToolContext, run_tool

ROOT = Path(__file__).resolve().parents[1]
FIRST_CALL = (
    "import time; from tools import ToolContext, run_tool; t = time.perf_counter(); "
    "run_tool({name!r}, {arguments!r}, ToolContext()); print(time.perf_counter() - t)"
)
# SAP2000 ACI 318-14 Example 001 with stirrups; Wight & MacGregor 4-1; SAP2000 EN 2-2004 Example 001; a slab
BEAMS: tuple[dict[str, Any], ...] = (
    {"width": "10 in", "height": "16 in", "tension_bars": "2.37 in2", "concrete": "4000 psi", "steel": "Grade 60",
     "moment": "1460.4 kip*in", "shear": "37.73 kip", "effective_depth": "13.5 in", "stirrups": "#3 @ 5.366 in"},
    {"width": "12 in", "height": "24 in", "tension_bars": "3 #9", "concrete": "3500 psi", "steel": "Grade 60",
     "moment": "222 kip*ft", "effective_depth": "21.5 in"},
    {"width": "230 mm", "height": "550 mm", "tension_bars": "916 mm2", "concrete": "C30/37", "steel": "460 MPa",
     "moment": "165 kN*m", "shear": "110 kN", "effective_depth": "490 mm", "stirrups": "H8 @ 200", "code": "EN1992"},
    {"width": "12 in", "height": "8 in", "tension_bars": "#5 @ 12 in", "concrete": "4000 psi", "steel": "Grade 60",
     "moment": "8 kip*ft", "shear": "4 kip"},
)  # fmt: skip
# StructurePoint's tied column at balance; the EN hand calculation at 2000 kN
COLUMNS: tuple[dict[str, Any], ...] = (
    {"width": "16 in", "height": "16 in", "bars": "8 #9", "concrete": "5000 psi", "steel": "Grade 60",
     "axial_load": "271 kip", "moment": "200 kip*ft", "effective_depth": "13.5 in"},
    {"width": "400 mm", "height": "400 mm", "bars": "8H25", "concrete": "C30/37", "steel": "B500B",
     "axial_load": "2000 kN", "moment": "150 kN*m", "code": "EN1992", "layout": "four faces"},
)  # fmt: skip
PUNCHING: tuple[dict[str, Any], ...] = (
    {"slab_thickness": "9 in", "column": "16 in", "concrete": "5000 psi", "shear": "60 kip",
     "effective_depth": "7.5 in", "position": "edge", "unbalanced_moment": "40 kip*ft"},
    {"slab_thickness": "240 mm", "column": "400 mm", "concrete": "C30/37", "shear": "500 kN", "code": "EN1992",
     "effective_depth": "200 mm", "reinforcement_ratio": "0.0085, 0.0048", "unbalanced_moment": "60 kN*m"},
)  # fmt: skip
DEVELOPMENT: tuple[dict[str, Any], ...] = (
    {"bar": "#8", "concrete": "4000 psi", "steel": "Grade 60", "cover": "1.5 in", "spacing": "6 in",
     "hooked": True, "lap": True},
    {"bar": "H20", "concrete": "C25/30", "steel": "B500B", "code": "EN1992", "cover": "25 mm",
     "spacing": "150 mm", "lap": True},
)  # fmt: skip
TOOLS = (
    ("concrete_beam_check", BEAMS),
    ("concrete_column_check", COLUMNS),
    ("punching_shear_check", PUNCHING),
    ("development_length", DEVELOPMENT),
)


def first_call_ms(name: str, arguments: dict[str, Any]) -> float:
    """Milliseconds of the first call in a fresh interpreter (imports done, the unit registry not yet built)."""
    code = FIRST_CALL.format(name=name, arguments=arguments)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    return float(out.stdout.split()[-1]) * 1000


def _cycling(name: str, cases: tuple[dict[str, Any], ...], context: ToolContext, runs: int) -> Callable[[], object]:
    """A call of `name` with the next of `cases` each time."""
    calls = iter(cases * (runs + 2))
    return lambda: run_tool(name, next(calls), context)


def run(quick: bool) -> list[Result]:
    context = ToolContext()
    runs = 50 if quick else 1000
    results: list[Result] = []
    for name, cases in TOOLS:
        for arguments in cases:
            outcome = run_tool(name, arguments, context)
            if outcome.error:
                raise RuntimeError(f"{name} failed on a benchmark case: {outcome.error}")
        results.append(single(f"{name}, first call (unit registry)", first_call_ms(name, cases[0]), "ms", "—", None))
        samples = timed_ms(_cycling(name, cases, context, runs), runs)
        results.append(summarise(f"{name}, after the first", samples, "ms", "≤ 5 ms", 5))
    return results
