"""One file of the workspace folder read for the index: what keeps it out (the chat history's own file under any
name, a link, not a regular file, too large), its snapshot's hash (an unchanged file is not read again), and its
passages as the reader worker found them; scanned pages are handed to OCR (`app.documents.scans`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.ports import DocumentRecords
from domain.records import DocumentFile, Passage
from tools.documents.reading import read_in_worker, snapshot

if TYPE_CHECKING:
    from app.documents.scans import ScanReader

HISTORY_FILE_NOTE = "the chat history's own file: it is never read"


class FileReader:
    """Reads the files of one workspace folder for its index, on the store of that index."""

    def __init__(self, store: DocumentRecords, root: Path, scans: ScanReader) -> None:
        self._store = store
        self._root = root
        self._scans = scans

    def read(
        self, relative: str, path: Path, info: os.stat_result, known: DocumentFile | None
    ) -> tuple[DocumentFile, list[Passage]] | None:
        """The file's record and passages to store; None when there is nothing to store: it is unchanged (its
        size and time, or its content, the same; then it is only touched) or its scanned pages are being read."""
        from app.documents.scans import NEEDS_TESSERACT
        from app.documents.uploads import MAX_FILE_BYTES
        from tools.documents.ocr import tesseract

        if self._scans.waiting(relative, info):
            return None  # its scanned pages are being read
        ocr_since = known is not None and NEEDS_TESSERACT in known.note and tesseract() is not None
        if known is not None and (known.size, known.mtime_ns) == (info.st_size, info.st_mtime_ns) and not ocr_since:
            return None
        record = DocumentFile(path=relative, size=info.st_size, mtime_ns=info.st_mtime_ns, sha256="", status="skipped")
        passages: list[Passage] = []
        if self.is_history_file(relative, info):
            record.note = HISTORY_FILE_NOTE
        elif stat.S_ISLNK(info.st_mode):
            record.note = "a link: links are not followed"
        elif not stat.S_ISREG(info.st_mode):
            record.note = "not a regular file"
        elif info.st_size > MAX_FILE_BYTES:
            record.note = f"larger than {MAX_FILE_BYTES // 1024**2} MB"
        else:
            try:
                with snapshot(self._root.resolve(), relative, self.refuse_history_file(relative)) as copy:
                    record.sha256 = copy.sha256
                    if known is not None and known.sha256 == record.sha256 and not ocr_since:
                        self._store.touch_document(relative, info.st_size, info.st_mtime_ns)
                        return None
                    record, passages = self._read(record, copy.path)
                    now = copy.original_stat()
                    if (now.st_size, now.st_mtime_ns) != (info.st_size, info.st_mtime_ns):
                        self._scans.drop([relative])
                        record.mtime_ns = 0  # so that the next refresh reads it again
                        record.note = f"{record.note}; it changed while being read and is read again next time"
            except (OSError, ValueError) as why:  # swapped for a link or a FIFO since the walk, or unreadable
                record.note = str(why) if isinstance(why, ValueError) else f"could not be opened ({why})"
                record.mtime_ns = 0  # tried again at the next refresh
        return record, passages

    def is_history_file(self, relative: str, info: os.stat_result) -> bool:
        """Whether the entry (its stat read without opening it) is one of the chat history's files, under any name:
        closing a descriptor of one would drop the store's locks."""
        from tools.workspace_paths import is_protected_file

        return is_protected_file(self._store.files(), self._root.resolve() / relative, info)

    def refuse_history_file(self, relative: str) -> Callable[[os.stat_result], None]:
        """The check the reader makes on the very file it is about to open."""

        def refuse(info: os.stat_result) -> None:
            if self.is_history_file(relative, info):
                raise ValueError(HISTORY_FILE_NOTE)

        return refuse

    def _read(self, record: DocumentFile, copy: Path) -> tuple[DocumentFile, list[Passage]]:
        """The file's record and passages as the reader found them; scanned pages are queued for OCR."""
        from app.documents.scans import without_ocr

        try:
            reading = read_in_worker(copy)
        except ValueError as why:
            record.note = str(why)
            return record, []
        status = "indexed" if reading.passages else "skipped"
        record = record.model_copy(update={"status": status, "note": reading.note})
        found = [Passage(path=record.path, page=page, location=at, text=text) for page, at, text in reading.passages]
        if reading.scanned and reading.can_ocr:
            record = self._scans.add(record, found, reading.scanned, copy)
        elif reading.scanned:
            record = without_ocr(record, len(reading.scanned))
        return record, found
