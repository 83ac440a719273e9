"""What working together live costs: idle open pages, and a turn's own latency beside a second tab.

- *Idle*: one web process (AUTH=accounts) with 10 tabs open on ann's workspace and left alone, then with none:
  the process's CPU time (every thread, `/proc/PID/stat`) over the window, as a share of one CPU; on PostgreSQL
  also the statements the store ran meanwhile (`pg_stat_database`: each of the store's reads outside a transaction
  is one committed transaction), less those of the process with no tab, per tab and per look (LIVE_SECONDS).
- *Turn*: ann sends a question in a fake Ollama's instant answer until it shows on her page, with no other tab
  open and with bob's tab open on the same workspace (which says he sees her asking, then draws her answer),
  interleaved.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path
from typing import Any

from bench.harness import Result, single, summarise
from bench.office_pages import WORKSPACE, Browser, Office, Page, seen_at, send, session_kept, signed_in, watch
from faces.web.live import LIVE_SECONDS

TABS = 10
CPU_TARGET = 8.0  # % of one CPU for a web process with 10 idle tabs


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user and system, every thread)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def transactions(office: Office) -> int:
    """The transactions committed in the office's PostgreSQL database so far (statistics a second late at most)."""
    import psycopg

    with psycopg.connect(office.store, autocommit=True) as connection:
        row = connection.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return int(row[0]) if row is not None else 0


def idle_window(office: Office, pid: int, seconds: float, postgres: bool) -> tuple[float, int]:
    """CPU share (% of one CPU) of the process over `seconds`, and the store's transactions meanwhile."""
    before, counted, started = cpu_seconds(pid), transactions(office) if postgres else 0, time.monotonic()
    time.sleep(seconds)
    used, elapsed = cpu_seconds(pid) - before, time.monotonic() - started
    return 100 * used / elapsed, (transactions(office) - counted) if postgres else 0


def idle_tabs(browser: Browser, url: str, office: Office, pid: int, seconds: float, backend: str) -> list[Result]:
    """10 idle tabs, then none, each for `seconds` after the pages settled."""
    postgres = backend == "PostgreSQL"
    first = signed_in(browser, f"{url}/?chat={office.chat_id}", "ann")
    session_kept(first)
    tabs = [first, *(first.context.new_page() for _ in range(TABS - 1))]
    for tab in tabs[1:]:
        tab.goto(f"{url}/?chat={office.chat_id}")
    for tab in tabs:
        tab.get_by_role("heading", name=WORKSPACE).wait_for()
    time.sleep(3 * LIVE_SECONDS)  # settled: each page drawn, and statistics of the sign-ins flushed
    busy, queries = idle_window(office, pid, seconds, postgres)
    first.context.close()
    time.sleep(3 * LIVE_SECONDS)
    quiet, baseline = idle_window(office, pid, seconds, postgres)
    name = f"together ({backend}): web process with {TABS} idle tabs, CPU over {seconds:.0f} s"
    rows = [single(name, busy, "% of one CPU", f"≤ {CPU_TARGET:.0f} %", busy <= CPU_TARGET),
            single(f"together ({backend}): the same process with no tab", quiet, "% of one CPU", "(reference)",
                   None)]  # fmt: skip
    if postgres:
        looks = TABS * seconds / LIVE_SECONDS
        per_look = (queries - baseline) / looks
        rows.append(single(f"together (PostgreSQL): store statements per idle tab per look (every "
                           f"{LIVE_SECONDS:.0f} s)", per_look, "", "≤ 1", per_look <= 1.05))  # fmt: skip
    return rows


def answered(asker: Page, question: str) -> float:
    """Seconds from sending `question` to its answer on the asker's page."""
    answer = f"Answer to {question}"
    watch(asker, answer)
    sent = send(asker, question)
    return seen_at(asker, answer) - sent


def turn_latency(browser: Browser, url: str, office: Office, runs: int) -> list[Result]:
    """ann's turn alone, and with bob's tab open on the workspace, interleaved."""
    ann = signed_in(browser, f"{url}/?chat={office.chat_id}", "ann")
    samples: dict[str, list[float]] = {"alone": [], "watched": []}
    bob: Any = None
    for run in range(2 * runs + 2):
        watched = run % 2 == 1
        if watched and bob is None:
            bob = signed_in(browser, f"{url}/?chat={office.chat_id}", "bob")
        elif not watched and bob is not None:
            bob.context.close()
            bob = None
        time.sleep(LIVE_SECONDS)
        took = answered(ann, f"Quick {run}?")
        if run >= 2:  # the first of each is a warm-up
            samples["watched" if watched else "alone"].append(took)
        ann.get_by_text(f"Answer to Quick {run}?").first.wait_for()
    ratio = statistics.median(samples["watched"]) / statistics.median(samples["alone"])
    return [
        summarise("together: ann's turn, send → answer shown, no other tab", samples["alone"], "s", "(reference)",
                  None),
        summarise("together: the same with bob's tab open on the workspace", samples["watched"], "s", "(reference)",
                  None),
        single("together: ann's turn with bob's tab open over alone", ratio, "×", "≤ 1.2×", ratio <= 1.2),
    ]  # fmt: skip
