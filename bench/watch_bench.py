"""Following the workspace folder: what a watch costs while nothing changes (10,000 files), by events and by the
stat walk that stands in where events do not arrive, how soon a saved file is found by a search, and how many
indexing runs a burst of changes costs."""

from __future__ import annotations

import importlib
import os
import resource
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from app.documents import watch as document_watch
from app.documents.library import DocumentLibrary
from app.documents.watch import watches
from bench.harness import Result, single, summarise
from fakes.documents import build_document_set
from history import ChatHistoryDB

FOLDERS = 100  # 10,000 files as a project keeps them: a hundred folders of a hundred


def cpu_seconds() -> float:
    """This process's CPU time, every thread included (the watch's threads are threads of this process)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def many_files(root: Path, files: int) -> None:
    per = max(1, files // FOLDERS)
    for number in range(files):
        folder = root / f"sheets-{number // per:03}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note-{number:05}.txt").write_text(f"Note {number}.")


class Nudged:
    """A follower that only counts how often it is asked to refresh."""

    def __init__(self) -> None:
        self.calls = 0
        self.called = threading.Event()

    def refresh(self) -> None:
        self.calls += 1
        self.called.set()


def idle_cost(root: Path, seconds: float, polling: bool) -> tuple[float, float, float]:
    """(CPU per cent of one CPU while nothing changes, ms until a new file is noticed, ms a walk takes) for one
    watch of `root`; the new file is written just after a walk, the worst time for the stat walk."""
    saved = document_watch.NETWORK_FILE_SYSTEMS
    if polling:
        document_watch.NETWORK_FILE_SYSTEMS = frozenset({document_watch.file_system(root.resolve())})
    follower = Nudged()
    try:
        watches.follow(root, follower.refresh)
        time.sleep(1.0 if not polling else 3 * document_watch.POLL_SECONDS)  # the first walk, then quiet
        before, started = cpu_seconds(), time.perf_counter()
        time.sleep(seconds)
        share = (cpu_seconds() - before) / (time.perf_counter() - started) * 100
        follower.called.clear()
        folder = watches.watching(root)
        assert folder is not None
        last = folder.seen
        while polling and folder.seen is last:  # each walk leaves a new listing
            time.sleep(0.005)
        started = time.perf_counter()
        (root / "sheets-050" / "added.txt").write_text("A new note.")
        follower.called.wait(60)
        noticed = (time.perf_counter() - started) * 1000
        walk = statistics.median(folder.walks) * 1000 if folder.walks else 0.0
    finally:
        watches.unfollow(root, follower.refresh)
        document_watch.NETWORK_FILE_SYSTEMS = saved
        (root / "sheets-050" / "added.txt").unlink(missing_ok=True)
    return share, noticed, walk


def watchfiles_idle_cost(root: Path, seconds: float) -> tuple[float, float] | None:
    """The same for watchfiles (the other candidate, Rust's notify), when it is installed: it is not a dependency."""
    try:
        watchfiles: Any = importlib.import_module("watchfiles")
    except ImportError:
        return None
    stop, noticed = threading.Event(), threading.Event()

    def follow() -> None:
        for changes in watchfiles.watch(root, stop_event=stop, yield_on_timeout=False):
            if any(path.endswith("added.txt") for _, path in changes):
                noticed.set()

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    try:
        time.sleep(1.0)
        before, started = cpu_seconds(), time.perf_counter()
        time.sleep(seconds)
        share = (cpu_seconds() - before) / (time.perf_counter() - started) * 100
        started = time.perf_counter()
        (root / "sheets-050" / "added.txt").write_text("A new note.")
        noticed.wait(30)
        return share, (time.perf_counter() - started) * 1000
    finally:
        stop.set()
        thread.join(5)
        (root / "sheets-050" / "added.txt").unlink(missing_ok=True)


def found_after_saving(folder: Path, changes: int) -> list[float]:
    """Seconds from a file's close until a search finds it, for `changes` new files, the app following the folder."""
    root = folder / "project"
    build_document_set(root)
    library = DocumentLibrary(ChatHistoryDB(folder / "live.sqlite"), root, None)
    library.follow()
    library.wait(120)
    samples = []
    try:
        for number in range(changes):
            word = f"pilecap{number}x"
            started = time.perf_counter()
            (root / f"visit-{number}.md").write_text(f"# Site visit\nThe {word} at grid D{number} was poured.\n")
            while not library.search(word, 1)["passages"]:
                time.sleep(0.02)
            samples.append(time.perf_counter() - started)
    finally:
        library.close()
    return samples


def burst(folder: Path, files: int) -> tuple[int, float]:
    """(indexing runs, seconds until the last is searchable) when `files` notes are copied in at once."""
    root = folder / "burst"
    root.mkdir()
    library = DocumentLibrary(ChatHistoryDB(folder / "burst.sqlite"), root, None)
    library.follow()
    library.wait(120)
    runs = 0
    walk = library._walk  # noqa: SLF001 - counting the indexing runs, each of which walks the folder once

    def counted() -> list[tuple[str, tuple[Path, os.stat_result]]]:
        nonlocal runs
        runs += 1
        return walk()

    library._walk = counted  # type: ignore[method-assign]  # noqa: SLF001
    started = time.perf_counter()
    try:
        for number in range(files):
            (root / f"copied-{number:03}.txt").write_text(f"Copied note {number}: weld W{number} inspected.")
        while len(library.files()) < files or library.progress.running:
            time.sleep(0.05)
        took = time.perf_counter() - started
    finally:
        library.close()
    return runs, took


def run(quick: bool) -> list[Result]:
    files, idle = (1_000, 2.0) if quick else (10_000, 20.0)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        many_files(folder / "many", files)
        events_cpu, events_ms, _ = idle_cost(folder / "many", idle, polling=False)
        polling_cpu, polling_ms, walk_ms = idle_cost(folder / "many", idle, polling=True)
        other = watchfiles_idle_cost(folder / "many", idle)
        found = found_after_saving(folder, 3 if quick else 10)
        runs, took = burst(folder, 50 if quick else 200)
    label = f"{files:,} files in {FOLDERS} folders"
    compared = []
    if other is not None:
        compared = [
            single(f"watch by events (watchfiles, not used), {label}: CPU while idle", other[0], "%", "—", None),
            single(
                f"watch by events (watchfiles, not used), {label}: a new file noticed after", other[1], "ms", "—", None
            ),
        ]
    return compared + [
        single(f"watch by events (watchdog), {label}: CPU while idle, {idle:g} s", events_cpu, "%", "≈ 0", None),
        single(f"watch by events, {label}: a new file noticed after", events_ms, "ms", "—", None),
        single(f"watch by stat walk (fallback), {label}: CPU while idle", polling_cpu, "%", "≤ 2 %", polling_cpu <= 2),
        single(f"watch by stat walk, {label}: one walk", walk_ms, "ms", "—", None),
        single(
            f"watch by stat walk, {label}: a file added just after a walk noticed after", polling_ms, "ms", "—", None
        ),
        summarise("a saved file found by search_documents after (watch by events)", found, "s", "≤ 5 s", 5),
        single(f"a burst of {50 if quick else 200} files copied in: indexing runs", runs, "", "—", None),
        single(f"a burst of {50 if quick else 200} files copied in: all searchable after", took, "s", "—", None),
        single(
            "indexing throughput, small text files (the burst)", (50 if quick else 200) / took, "files/s", "—", None
        ),
    ]
