"""The steel tools: a section lookup once the tables are read, the beam, column and beam-column checks, the weld
and bolt checks, a
continuous beam, and whether the solver stays off the start-up path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench.harness import Result, single, summarise, timed_ms
from tools import ToolContext, run_tool

ROOT = Path(__file__).resolve().parents[1]
DESIGNATIONS = ("W18X50", "IPE 300", "UB 457x191x67", "HSS6X6X1/4", "HEB 200", "W14x90", "L4X4X1/2", "C10X15.3")
WELD = {"size": "3/16 in", "length": "27 in", "dead_load": "33 kip", "live_load": "100 kip", "welds": 2}  # AISC J.1
BOLTS = {  # AISC Design Example J.5: slip-critical with tension
    "diameter": "3/4 in", "grade": "A325", "bolts": 8, "shear_dead": "9 kip", "shear_live": "27 kip",
    "tension_dead": "12 kip", "tension_live": "36 kip", "slip_class": "A",
}  # fmt: skip
# AISC Design Examples E.1D, E.10 (slender walls) and E.11, and SBiE's HE 300 B column; then H.1B and SBiE's IPE 450
COLUMNS = (
    {"designation": "W14X90", "length": "30 ft", "dead_load": "140 kip", "live_load": "420 kip",
     "length_weak": "15 ft"},
    {"designation": "HSS12X8X3/16", "length": "24 ft", "dead_load": "20 kip", "live_load": "40 kip"},
    {"designation": "PIPE10STD", "length": "30 ft", "dead_load": "35 kip", "live_load": "105 kip",
     "length_weak": "15 ft"},
    {"designation": "HE 300 B", "length": "8 m", "dead_load": "1000 kN", "live_load": "400 kN", "code": "EN1993",
     "length_weak": "5.6 m", "grade": "S235"},
)  # fmt: skip
BEAM_COLUMNS = (
    {"designation": "W14X99", "length": "14 ft", "axial_load": "400 kip", "moment_major": "250 kip*ft",
     "moment_minor": "80 kip*ft"},
    {"designation": "IPE 450", "length": "1.7 m", "axial_load": "127 kN", "moment_major": "356 kN*m",
     "code": "EN1993"},
)  # fmt: skip
FIRST_CALL = (
    "import time; from tools import ToolContext, run_tool; t = time.perf_counter(); "
    "run_tool({name!r}, {arguments!r}, ToolContext()); print(time.perf_counter() - t)"
)
START_UP = "import sys, time; t = time.perf_counter(); import main, agent, history, faces.web.page; " \
    "print(time.perf_counter() - t, 'Pynite' in sys.modules, 'numpy' in sys.modules)"  # fmt: skip


def first_call_ms(code: str) -> float:
    """Milliseconds of `code`'s last statement in a fresh interpreter (its first call, tables unread)."""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    return float(out.stdout.split()[-1]) * 1000


def run(quick: bool) -> list[Result]:
    context = ToolContext()
    runs = 50 if quick else 1000
    first = first_call_ms(
        "import time; from tools import ToolContext, run_tool; t = time.perf_counter(); "
        "run_tool('section_properties', {'designation': 'W18X50'}, ToolContext()); print(time.perf_counter() - t)"
    )
    run_tool("section_properties", {"designation": "W18X50"}, context)
    names = iter(DESIGNATIONS * (runs + 2))
    lookup = timed_ms(lambda: run_tool("section_properties", {"designation": next(names)}, context), runs)
    beam = {"designation": "W18x50", "span": "35 ft", "dead_load": "0.45 kip/ft", "live_load": "0.75 kip/ft"}
    check = timed_ms(
        lambda: run_tool("steel_beam_check", {**beam, "unbraced_length": "11.67 ft"}, context), runs // 5 or 1
    )
    weld_first = first_call_ms(
        "import time; from tools import ToolContext, run_tool; t = time.perf_counter(); "
        f"run_tool('fillet_weld_check', {WELD!r}, ToolContext()); print(time.perf_counter() - t)"
    )
    weld = timed_ms(lambda: run_tool("fillet_weld_check", WELD, context), runs)
    bolts = timed_ms(lambda: run_tool("bolt_check", BOLTS, context), runs)
    columns = iter(COLUMNS * (runs + 2))
    column_first = first_call_ms(FIRST_CALL.format(name="steel_column_check", arguments=COLUMNS[0]))
    column = timed_ms(lambda: run_tool("steel_column_check", next(columns), context), runs)
    beam_columns = iter(BEAM_COLUMNS * (runs + 2))
    beam_column_first = first_call_ms(FIRST_CALL.format(name="steel_beam_column_check", arguments=BEAM_COLUMNS[0]))
    beam_column = timed_ms(lambda: run_tool("steel_beam_column_check", next(beam_columns), context), runs)
    spans = {
        "spans": ["6 m", "8 m", "6 m"],
        "load": "10 kN/m",
        "elastic_modulus": "200 GPa",
        "moment_of_inertia": "8356 cm**4",
    }
    solver_first = first_call_ms(
        "import time; from tools.continuous_beam import continuous_beam; t = time.perf_counter(); "
        "continuous_beam(['6 m', '6 m'], '10 kN/m'); print(time.perf_counter() - t)"
    )
    continuous = timed_ms(lambda: run_tool("continuous_beam", spans, context), runs // 10 or 1)
    out = subprocess.run(
        [sys.executable, "-c", START_UP], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    _, pynite, numpy = out.stdout.split()
    return [
        single("section_properties, first call (reads the tables)", first, "ms", "—", None),
        summarise("section_properties, after the first", lookup, "ms", "≤ 1 ms", 1),
        summarise("steel_beam_check, third-point bracing", check, "ms", "≤ 50 ms", 50),
        single("fillet_weld_check, first call (builds the unit registry)", weld_first, "ms", "—", None),
        summarise("fillet_weld_check, after the first", weld, "ms", "≤ 5 ms", 5),
        summarise("bolt_check, slip-critical with tension, after the first", bolts, "ms", "≤ 5 ms", 5),
        single("steel_column_check, first call (pint registry, tables)", column_first, "ms", "—", None),
        summarise("steel_column_check, after the first", column, "ms", "≤ 5 ms", 5),
        single("steel_beam_column_check, first call (pint registry, tables)", beam_column_first, "ms", "—", None),
        summarise("steel_beam_column_check, after the first", beam_column, "ms", "≤ 5 ms", 5),
        single("continuous_beam, first call (imports Pynite)", solver_first, "ms", "—", None),
        summarise("continuous_beam, 3 spans, after the first", continuous, "ms", "≤ 100 ms", 100),
        single("Pynite imported by start-up (main, web page)", float(pynite == "True"), "", "no", pynite == "False"),
        single("numpy imported by start-up (main, web page)", float(numpy == "True"), "", "—", None),
    ]
