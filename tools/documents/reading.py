"""Reading a document through the reader worker: bounded in time and memory, never in this process.

The worker is handed a private copy, made from a descriptor opened without following any link
(`tools.workspace_paths.open_file_under`), so a file swapped for a link or a FIFO after the folder
was listed is refused instead of read from outside the folder or waited on forever.
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import hashlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.sandbox import WorkerProcess
from tools.workspace_paths import open_file_under

SECONDS_PER_FILE = 60.0  # a request: reading a file, or some of its scanned pages by OCR
OCR_SECONDS_PER_REQUEST = 4.0  # OCR goes on in requests this long, so that a changed file is read in between

reader = WorkerProcess(
    "tools.documents.reader_worker",
    "document reader",
    "took longer than {seconds:g} s to read; split it or leave it out",
    time_limit=SECONDS_PER_FILE,
)
atexit.register(reader.stop)


Pieces = list[tuple[int | None, str, str]]  # passages as (page, location, text)


@dataclass(frozen=True)
class WorkerReading:
    """A file as the worker read it: passages, a note, and the scanned pages left for OCR (and whether it can)."""

    passages: Pieces
    note: str
    scanned: list[int] = field(default_factory=list)
    can_ocr: bool = False


@dataclass(frozen=True)
class OcrReading:
    """Scanned pages read by OCR in one request: passages, the pages done, and why some gave no text."""

    passages: Pieces
    done: list[int]
    problems: list[str]


def read_in_worker(path: Path) -> WorkerReading:
    """The file's passages; ValueError with the reason when it gives none (and has no scanned page either)."""
    answer = reader.request({"path": str(path)})
    return WorkerReading(
        _pieces(answer["passages"]),
        str(answer.get("note", "")),
        [int(page) for page in answer.get("scanned", [])],
        bool(answer.get("ocr", False)),
    )


def ocr_in_worker(path: Path, pages: list[int], seconds: float = OCR_SECONDS_PER_REQUEST) -> OcrReading:
    """Read scanned `pages` of a PDF by OCR, for about `seconds` (at least one page); ValueError says why not."""
    answer = reader.request({"path": str(path), "ocr_pages": pages, "seconds": seconds})
    return OcrReading(
        _pieces(answer["passages"]), [int(page) for page in answer["done"]], [str(p) for p in answer["problems"]]
    )


def page_in_worker(path: Path, page: int, mark: str) -> tuple[bytes, bool]:
    """(PNG of a PDF's page, whether `mark` was found and marked on it); ValueError says why there is none."""
    answer = reader.request({"path": str(path), "page": page, "mark": mark})
    return base64.b64decode(answer["png"]), bool(answer["marked"])


def _pieces(rows: list[Any]) -> Pieces:
    return [(page, str(location), str(text)) for page, location, text in rows]


@dataclass(frozen=True)
class Snapshot:
    """A private copy of one document and its SHA-256, with the original still open."""

    path: Path
    sha256: str
    descriptor: int

    def original_stat(self) -> os.stat_result:
        """The original's stat now (it may have been changed since it was copied)."""
        return os.fstat(self.descriptor)


@contextlib.contextmanager
def snapshot(root: Path, relative: str, refuse: Callable[[os.stat_result], None] | None = None) -> Iterator[Snapshot]:
    """Copy `root/relative` (no link followed on the way) into a private folder; removed when the block ends.

    `refuse` sees the stat of the very file about to be opened, before it is, and may raise (ValueError).
    Raises ValueError with the reason when it is not a regular file (any more), and OSError when it cannot be opened.
    """
    with open_file_under(root, tuple(relative.split("/")), relative, refuse) as fd:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        with tempfile.TemporaryDirectory(prefix="document-") as private:
            copy = Path(private) / Path(relative).name
            digest = hashlib.sha256()
            with os.fdopen(os.dup(fd), "rb") as source, copy.open("wb") as target:
                for block in iter(lambda: source.read(1024 * 1024), b""):
                    digest.update(block)
                    target.write(block)
            yield Snapshot(copy, digest.hexdigest(), fd)
