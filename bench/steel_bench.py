"""The steel tools: a section lookup once the tables are read, the beam, column and beam-column checks, the weld
and bolt checks, a
continuous beam, and whether the solver stays off the start-up path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

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
# The limit states of issue 34: an eccentric AISC group (bearing, tear-out, block shear), SBiE's fin plate (EN),
# a tee's bolts with prying, an eccentric C-shaped weld group at 30°, the UK annex's combinations and column
NEW_CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("bolt_check", {"diameter": "3/4 in", "grade": "A325", "bolts": 8, "columns": 2, "shear_dead": "20 kip",
                    "shear_live": "40 kip", "spacing": "3 in", "gauge": "3 in", "end_distance": "1.5 in",
                    "edge_distance": "1.5 in", "ply_thickness": "3/8 in", "ply_grade": "A36",
                    "eccentricity": "2 in", "angle": "45 deg"}),
    ("bolt_check", {"diameter": "M20", "grade": "8.8", "bolts": 10, "columns": 2, "shear_dead": "259 kN",
                    "shear_live": "0 kN", "code": "EN1993", "spacing": "70 mm", "gauge": "60 mm",
                    "end_distance": "40 mm", "edge_distance": "50 mm", "ply_thickness": "10 mm", "ply_grade": "S275",
                    "eccentricity": "80 mm"}),
    ("bolt_check", {"diameter": "7/8 in", "grade": "A325", "bolts": 4, "columns": 2, "shear_dead": "0 kip",
                    "shear_live": "0 kip", "tension_dead": "10 kip", "tension_live": "10 kip", "spacing": "3 in",
                    "edge_distance": "1.3125 in", "stem_distance": "2.035 in", "ply_thickness": "0.715 in",
                    "ply_grade": "A992"}),
    ("fillet_weld_check", {"size": "5/16 in", "length": "10 in", "dead_load": "20 kip", "live_load": "20 kip",
                           "eccentricity": "2.5 in", "return_length": "5 in", "angle": "30 deg"}),
    ("load_combination", {"dead": "10 kN/m", "live": "12 kN/m", "snow": "2 kN/m", "wind": "-3 kN/m",
                          "code": "EN1990", "national_annex": "UK"}),
    ("steel_column_check", {"designation": "HE 300 B", "length": "4 m", "dead_load": "500 kN", "live_load": "300 kN",
                            "code": "EN1993", "national_annex": "UK"}),
)  # fmt: skip
NEW_LABELS = (
    "bolt_check, eccentric at 45° with bearing and block shear (AISC)",
    "bolt_check, SBiE's eccentric fin plate (EN)",
    "bolt_check, prying on a tee's bolts (AISC)",
    "fillet_weld_check, eccentric C-shaped group at 30°",
    "load_combination, EN 1990 6.10a/6.10b (UK)",
    "steel_column_check, UK National Annex",
    "fillet_weld_check, eccentric C-shaped group at 30°, a new eccentricity each call (no kept C)",
    "bolt_check, eccentric at 45°, a new eccentricity each call (no kept C)",
)
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


def _timed(name: str, arguments: dict[str, Any], context: ToolContext, runs: int) -> list[float]:
    return timed_ms(lambda: run_tool(name, arguments, context), runs)


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
    new_calls = [_timed(name, arguments, context, runs) for name, arguments in NEW_CALLS]
    eccentricities = iter(f"{2 + index / 1000:.3f} in" for index in range(runs * 2 + 10))  # a new group each call
    weld_call = dict(NEW_CALLS[3][1])
    new_calls.append(timed_ms(lambda: run_tool("fillet_weld_check", {**weld_call, "eccentricity": next(eccentricities)},
                                               context), runs))  # fmt: skip
    bolt_call = dict(NEW_CALLS[0][1])
    new_calls.append(timed_ms(lambda: run_tool("bolt_check", {**bolt_call, "eccentricity": next(eccentricities)},
                                               context), runs))  # fmt: skip
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
        *[
            summarise(f"{label}, after the first", samples, "ms", "≤ 5 ms", 5)
            for label, samples in zip(NEW_LABELS, new_calls, strict=True)
        ],
        single("continuous_beam, first call (imports Pynite)", solver_first, "ms", "—", None),
        summarise("continuous_beam, 3 spans, after the first", continuous, "ms", "≤ 100 ms", 100),
        single("Pynite imported by start-up (main, web page)", float(pynite == "True"), "", "no", pynite == "False"),
        single("numpy imported by start-up (main, web page)", float(numpy == "True"), "", "—", None),
    ]
