"""Storing read documents on a thread of their own, so the reader worker reads the next file meanwhile.

Indexing a folder reads a file in the reader worker (another process), then stores its
passages (FTS5); done one after the other, the worker waits while the store writes. Here the
indexing thread hands each read file over and goes on reading; a bounded queue keeps at most
a couple of files' passages in memory. A failure to store is raised in the indexing thread
at its next hand-over, or when it waits for the last save.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from types import TracebackType

from domain.records import DocumentFile, Passage

Save = Callable[[DocumentFile, list[Passage]], None]
WAITING_FILES = 2


class DocumentSaver:
    """`with DocumentSaver(save) as saver: saver.put(record, passages)`; leaving the block waits for every save."""

    def __init__(self, save: Save) -> None:
        self._save = save
        self._queue: queue.Queue[tuple[DocumentFile, list[Passage]] | None] = queue.Queue(maxsize=WAITING_FILES)
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="document-store", daemon=True)

    def __enter__(self) -> DocumentSaver:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._queue.put(None)
        self._thread.join()
        if kind is None:
            self._raise_failure()

    def put(self, record: DocumentFile, passages: list[Passage]) -> None:
        """Queue one file's record and passages to be stored (waits while two are waiting already)."""
        self._raise_failure()
        self._queue.put((record, passages))

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            if self._failure is None:  # after a failure, the rest is drained unsaved
                try:
                    self._save(*item)
                except BaseException as error:  # noqa: BLE001 - handed to the indexing thread, which says it
                    self._failure = error
