"""Calculation packages: a workspace of 20 calculations (beam checks with diagrams, continuous beams, load
combinations, simple beams) typeset to PDF, its time per page, and approving it (the PDF made and frozen)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2

from app.packages import PackageDesk
from bench.harness import Result, single, summarise, timed_ms
from domain.packages import Signer
from domain.records import ToolCall
from store import ChatHistoryDB
from tools import ToolContext, run_tool

ROOT = Path(__file__).resolve().parents[1]
CALCULATIONS = 20
QUESTIONS = (
    ("steel_beam_check", {"designation": "W18x50", "span": "35 ft", "dead_load": "0.45 kip/ft",
                          "live_load": "0.75 kip/ft", "unbraced_length": "11.67 ft"}),
    ("continuous_beam", {"spans": ["6 m", "8 m", "6 m"], "load": "10 kN/m"}),
    ("load_combination", {"dead": "10 kN/m", "live": "5 kN/m"}),
    ("beam_analysis", {"span": "6 m", "load": "12 kN/m", "elastic_modulus": "200 GPa",
                       "moment_of_inertia": "8.5e7 mm**4"}),
)  # fmt: skip
FIRST_PACKAGE = (
    "import sys, time; sys.path.insert(0, {root!r}); t = time.perf_counter(); from app.packages import PackageDesk; "
    "from store import ChatHistoryDB; PackageDesk(ChatHistoryDB({db!r})).pdf(1); print(time.perf_counter() - t)"
)


def fill(store: ChatHistoryDB, count: int) -> int:
    """A workspace of `count` calculations, each asked in a turn of its own, as the tools return them."""
    chat_id = store.create_chat("Riverside Offices — level 3")
    context = ToolContext()
    for number in range(count):
        name, arguments = QUESTIONS[number % len(QUESTIONS)]
        outcome = run_tool(name, arguments, context)
        calculation = outcome.calculation
        call = ToolCall(id="call_1", name=name, arguments=arguments, output=outcome.output, calculation=calculation)
        store.add_to_history(chat_id, f"Question {number + 1}: {name}?", "Done.", tool_calls=[call], asked_by="Ana")
    return chat_id


def run(quick: bool) -> list[Result]:
    runs = 3 if quick else 15
    with tempfile.TemporaryDirectory(prefix="packages-bench-") as folder:
        db = Path(folder) / "chat_history.sqlite"
        store = ChatHistoryDB(db)
        chat_id = fill(store, CALCULATIONS)
        first = subprocess.run(
            [sys.executable, "-c", FIRST_PACKAGE.format(root=str(ROOT), db=str(db))],
            capture_output=True, text=True, check=True, timeout=120,
        )  # fmt: skip
        desk = PackageDesk(store)
        pages = len(pypdfium2.PdfDocument(desk.pdf(chat_id).data))
        package = timed_ms(lambda: desk.pdf(chat_id), runs)
        desk.sign_off(chat_id, "checked", Signer(name="Ben Checker"))
        approval = timed_ms(lambda: desk.sign_off(chat_id, "approved", Signer(name="Cara Approver")), 1, warmup=0)
        issued = timed_ms(lambda: desk.pdf(chat_id), runs)
        store.close()
    per_page = [sample / pages for sample in package]
    return [
        single("package, first in a process (typst and the fonts loaded)", float(first.stdout.split()[-1]) * 1000,
               "ms", "—", None),
        summarise(f"package of {CALCULATIONS} calculations ({pages} pages), draft", package, "ms", "≤ 2,000 ms", 2000),
        summarise("package: time per page", per_page, "ms", "—", None),
        single(f"approval of the {CALCULATIONS}-calculation package (made and frozen)", approval[0], "ms", "—", None),
        summarise("download of the issued revision (frozen bytes)", issued, "ms", "—", None),
    ]  # fmt: skip
