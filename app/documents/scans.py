"""Scanned pages of the workspace's PDFs, read by OCR once the folder's text is indexed.

A PDF whose pages hold an image and no text is first stored with its text pages, if any, and a
job: a private copy of the file and the pages left to read. The indexing thread then reads the
jobs' pages in the reader worker in requests of a few seconds each (`ocr_in_worker`), storing the
file's passages after each request, so that the pages read are searchable at once, a changed file
is read in between, and a long scan never holds the other files back. A file has at most
OCR_SECONDS_PER_FILE of OCR; the pages past it are said to be left out. A job's file is stored as
"not yet indexed" (no time, no digest) until it is done, so a job cut short by the app's end is
done again at the next start.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from domain.records import DocumentFile, Passage
from tools.documents.ocr import INSTALL
from tools.documents.reading import ocr_in_worker

OCR_SECONDS_PER_FILE = 900.0  # 15 minutes: about 1,700 pages at the bench's pace
NEEDS_TESSERACT = "reading them needs Tesseract OCR"
Save = Callable[[DocumentFile, list[Passage]], None]


def without_ocr(record: DocumentFile, pages: int) -> DocumentFile:
    """The file's record where Tesseract is not installed: one sentence says what was not read and why."""
    scanned = "its scanned page is" if pages == 1 else f"its {pages} scanned pages are"
    return record.model_copy(update={"note": f"{record.note}; {scanned} not read: {NEEDS_TESSERACT} ({INSTALL})"})


@dataclass
class ScanJob:
    """One PDF's scanned pages still to read, with its text pages' passages and a private copy of the file."""

    record: DocumentFile  # as it is stored when done: its size, time and digest
    text: list[Passage]
    pending: list[int]
    copy: Path
    folder: tempfile.TemporaryDirectory[str]
    read: list[Passage] = field(default_factory=list)
    done: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return self.done + len(self.pending)

    def interim(self) -> DocumentFile:
        """The record stored while pages are left: searchable, yet read again if the app ends first."""
        left = len(self.pending)
        status = "indexed" if self.text or self.read else "skipped"
        so_far = f"{self.done} of {self.total} scanned pages read by OCR so far" if self.done else ""
        waiting = f"{left} scanned {'page waits' if left == 1 else 'pages wait'} to be read by OCR"
        note = f"{self.record.note}; {so_far or waiting}"
        return self.record.model_copy(update={"status": status, "note": note, "mtime_ns": 0, "sha256": ""})

    def final(self) -> DocumentFile:
        note = f"{self.record.note}, {len({p.page for p in self.read})} read by OCR"
        if self.problems:
            more = len(self.problems) - 2
            note += "; " + "; ".join(self.problems[:2]) + (f"; and {more} more pages gave no text" if more > 0 else "")
        status = "indexed" if self.text or self.read else "skipped"
        return self.record.model_copy(update={"status": status, "note": note})


class ScanReader:
    """The jobs of one folder's scanned PDFs, read a few seconds at a time in the reader worker."""

    def __init__(self, save: Save) -> None:
        self._save = save
        self.jobs: dict[str, ScanJob] = {}

    def add(self, record: DocumentFile, text: list[Passage], pages: list[int], source: Path) -> DocumentFile:
        """Queue `pages` of the file copied at `source` (a snapshot, linked or copied here); its record to store now."""
        self.drop([record.path])
        folder = tempfile.TemporaryDirectory(prefix="scan-")
        copy = Path(folder.name) / source.name
        try:
            os.link(source, copy)
        except OSError:  # another file system
            shutil.copyfile(source, copy)
        job = self.jobs[record.path] = ScanJob(record, text, list(pages), copy, folder)
        return job.interim()

    def waiting(self, relative: str, info: os.stat_result) -> bool:
        """Whether `relative`, as it is now, is being read already (a job for another version is dropped)."""
        job = self.jobs.get(relative)
        if job is not None and (job.record.size, job.record.mtime_ns) != (info.st_size, info.st_mtime_ns):
            self.drop([relative])
            return False
        return job is not None

    def drop(self, relatives: list[str]) -> None:
        for relative in relatives:
            job = self.jobs.pop(relative, None)
            if job is not None:
                job.folder.cleanup()

    def pages_left(self) -> int:
        return sum(len(job.pending) for job in list(self.jobs.values()))  # read from other threads too

    def read(self, stop: Callable[[], bool], doing: Callable[[str], None]) -> None:
        """Read the jobs' pages until they are done or `stop` says a refresh waits (then it comes back later)."""
        for relative, job in list(self.jobs.items()):
            while job.pending and not stop():
                doing(f"{relative}: reading scanned page {job.done + 1} of {job.total} by OCR")
                self._next_pages(job)
                self._save(job.interim() if job.pending else job.final(), job.text + job.read)
            if job.pending:
                return
            self.drop([relative])

    def _next_pages(self, job: ScanJob) -> None:
        if job.seconds >= OCR_SECONDS_PER_FILE:
            job.problems.append(
                f"the {len(job.pending)} scanned pages from page {job.pending[0]} on were left out "
                f"(at most {OCR_SECONDS_PER_FILE:g} s of OCR a file)"
            )
            job.pending.clear()
            return
        started = time.monotonic()
        try:
            reading = ocr_in_worker(job.copy, job.pending)
        except ValueError as why:  # the worker was stopped (too slow, out of memory): that page is given up
            job.problems.append(f"page {job.pending[0]}: {why}")
            job.pending.pop(0)
            job.done += 1
        else:
            job.read += [Passage(path=job.record.path, page=p, location=at, text=t) for p, at, t in reading.passages]
            job.problems += reading.problems
            job.pending = [page for page in job.pending if page not in set(reading.done)]
            job.done += len(reading.done)
        job.seconds += time.monotonic() - started
