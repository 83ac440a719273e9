"""A cited PDF page as a picture with the passage marked, for the faces to show beside a citation.

The page is drawn in the reader worker (`tools.documents.pages`), like every reading of a document,
from a private copy made through the same descriptor walk; the last few pictures are kept, keyed by
the file's size, time and digest, so a page shown again is not drawn again.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from domain.records import DocumentFile
from tools.documents.reading import page_in_worker, snapshot

KEPT = 16  # pictures kept (about 200 KB each)
Refuse = Callable[[os.stat_result], None]


@dataclass(frozen=True)
class PageImage:
    """A PDF page as PNG, and whether the passage was found on it and marked."""

    png: bytes
    marked: bool


class PageViews:
    """Pages of one folder's PDFs drawn on request, the last KEPT kept."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._kept: OrderedDict[tuple[object, ...], PageImage] = OrderedDict()
        self._lock = threading.Lock()

    def image(self, file: DocumentFile, page: int, mark: str, refuse: Refuse) -> PageImage:
        """Page `page` of `file` with `mark` marked; ValueError says why it cannot be shown."""
        key = (file.path, file.size, file.mtime_ns, file.sha256, page, mark)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        try:
            with snapshot(self.root.resolve(), file.path, refuse) as copy:
                png, marked = page_in_worker(copy.path, page, mark)
        except OSError as why:
            raise ValueError(f"{file.path} cannot be opened ({why.strerror or why}).") from None
        except ValueError as why:
            raise ValueError(f"Page {page} of {file.path} cannot be shown: {why}.") from None
        shown = PageImage(png, marked)
        with self._lock:
            self._kept[key] = shown
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return shown
