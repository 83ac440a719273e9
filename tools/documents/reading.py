"""Reading a document through the reader worker: bounded in time and memory, never in this process."""

from __future__ import annotations

import atexit
from pathlib import Path

from tools.sandbox import WorkerProcess

SECONDS_PER_FILE = 60.0

reader = WorkerProcess(
    "tools.documents.reader_worker",
    "document reader",
    "took longer than {seconds:g} s to read; split it or leave it out",
    time_limit=SECONDS_PER_FILE,
)
atexit.register(reader.stop)


def read_in_worker(path: Path) -> tuple[list[tuple[int | None, str, str]], str]:
    """(passages as (page, location, text), note); ValueError with the reason when the file gives none."""
    answer = reader.request({"path": str(path)})
    passages = [(page, str(location), str(text)) for page, location, text in answer["passages"]]
    return passages, str(answer.get("note", ""))
