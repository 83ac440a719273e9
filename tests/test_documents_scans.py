"""Scanned PDFs read offline by OCR (Tesseract): the scanned sheet's text is found with its page, a scan in a
language the OCR is not given says so, a long scan is bounded and never holds the other files back, and where
Tesseract is not installed each scanned file says so in one sentence while the rest is indexed.

Tests that need Tesseract skip where it (or its English data) is not installed, except in CI (CI set), where
they run and fail without it; .ci/run installs it."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app.documents import file_reading
from app.documents import scans as document_scans
from app.documents.library import DocumentLibrary
from app.documents.watch import watches
from fakes.documents import build_document_set
from fakes.ollama import wait_until
from fakes.scans import RUSSIAN_NOTES, write_scanned_notes_pdf
from history import ChatHistoryDB
from tools.documents import ocr, reading
from tools.documents.reading import OcrReading, WorkerReading, read_in_worker

pytestmark = pytest.mark.slow


def reads_english() -> bool:
    """Whether Tesseract is installed with its English data, which the app reads scans with."""
    program = ocr.tesseract()
    if program is None:
        return False
    listed = subprocess.run([program, "--list-langs"], capture_output=True, text=True, timeout=60, check=False)
    return "eng" in (listed.stdout + listed.stderr).split()


needs_tesseract = pytest.mark.skipif(
    not os.environ.get("CI") and not reads_english(),  # in CI they run, and fail where Tesseract is missing
    reason="Tesseract OCR with its English data is not installed (apt-get install tesseract-ocr tesseract-ocr-eng); "
    "CI installs it and runs these tests",
)


def indexed(isolated: Path, root: Path) -> DocumentLibrary:
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.refresh()
    assert docs.wait(300), "indexing did not finish"
    return docs


def notes(docs: DocumentLibrary) -> dict[str, tuple[str, str]]:
    return {file.path: (file.status, file.note) for file in docs.files()}


@needs_tesseract
def test_the_scanned_sheets_text_is_found_with_its_page(isolated: Path) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    write_scanned_notes_pdf(root / "general-notes.pdf", pages=2)
    docs = indexed(isolated, root)
    top = docs.search("lap splices of #6 bars: 36 inches?", 3)["passages"][0]
    assert (top["file"], top["page"], top["location"]) == ("general-notes.pdf", 1, "page 1, scanned (read by OCR)")
    assert "36" in top["text"] and "inches" in top["text"]
    assert docs.search("anchor rods F1554 embedment", 3)["passages"][0]["file"] == "general-notes.pdf"
    assert notes(docs)["general-notes.pdf"] == ("indexed", "2 pages, 2 read by OCR")
    assert notes(docs)["spec.pdf"] == ("indexed", "6 pages")


@needs_tesseract
def test_a_scan_in_a_language_the_ocr_lacks_says_so(isolated: Path) -> None:
    root = isolated / "workspace"
    root.mkdir()
    write_scanned_notes_pdf(root / "notes-ru.pdf", lines=RUSSIAN_NOTES)
    status, note = notes(indexed(isolated, root))["notes-ru.pdf"]
    assert status == "skipped"
    assert note == (
        "1 page, 0 read by OCR; page 1: no text recognised with confidence (the OCR reads English; another language?)"
    )


@pytest.fixture
def worker_started_afresh() -> Iterator[None]:
    """The reader worker is started again after the test changes PATH, and once more after it: it keeps the
    environment it was started with."""
    reading.reader.stop()
    yield
    reading.reader.stop()


def test_without_tesseract_each_scan_says_so_in_one_sentence(
    isolated: Path, monkeypatch: pytest.MonkeyPatch, worker_started_afresh: None
) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    write_scanned_notes_pdf(root / "general-notes.pdf")
    program = ocr.tesseract()
    bare = isolated / "bin"
    bare.mkdir()
    monkeypatch.setenv("PATH", str(bare))  # the reader worker finds no Tesseract
    docs = indexed(isolated, root)
    assert notes(docs)["general-notes.pdf"] == (
        "skipped",
        "1 page; its scanned page is not read: reading them needs Tesseract OCR (apt-get install tesseract-ocr)",
    )
    assert notes(docs)["spec.pdf"] == ("indexed", "6 pages")
    if program is not None:  # installed since: the scan is read at the next refresh, unchanged as it is
        reading.reader.stop()
        monkeypatch.setenv("PATH", str(Path(program).parent))
        docs.refresh()
        assert docs.wait(120)
        assert notes(docs)["general-notes.pdf"] == ("indexed", "1 page, 1 read by OCR")


def pretend_ocr(monkeypatch: pytest.MonkeyPatch, pace: float) -> None:
    """A stand-in for the worker's OCR, installed or not: one page a request, `pace` seconds each (what is under
    test is how the pages are scheduled around the other files, not how they are read)."""

    def can_ocr(path: Path) -> WorkerReading:
        return replace(read_in_worker(path), can_ocr=True)

    def read(path: Path, pages: list[int], seconds: float = 4.0) -> OcrReading:
        time.sleep(pace)
        page = pages[0]
        return OcrReading([(page, f"page {page}, scanned (read by OCR)", f"Scanned text of sheet {page}.")], [page], [])

    monkeypatch.setattr(file_reading, "read_in_worker", can_ocr)
    monkeypatch.setattr(document_scans, "ocr_in_worker", read)


def test_a_long_scan_is_bounded_and_says_what_it_left_out(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = isolated / "workspace"
    root.mkdir()
    write_scanned_notes_pdf(root / "archive.pdf", pages=12)
    pretend_ocr(monkeypatch, 0.2)
    monkeypatch.setattr(document_scans, "OCR_SECONDS_PER_FILE", 1.0)
    docs = indexed(isolated, root)
    status, note = notes(docs)["archive.pdf"]
    read = int(note.split(", ")[1].split()[0])
    assert status == "indexed" and 3 <= read <= 6, note
    assert note.endswith(
        f"; the {12 - read} scanned pages from page {read + 1} on were left out (at most 1 s of OCR a file)"
    )
    assert docs.search(f"scanned text sheet {read}", 1)["passages"][0]["page"] == read


def test_a_file_saved_during_a_long_scan_is_read_before_the_scan_ends(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = isolated / "workspace"
    root.mkdir()
    write_scanned_notes_pdf(root / "archive.pdf", pages=30)
    pretend_ocr(monkeypatch, 0.3)
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.follow()
    try:
        assert wait_until(lambda: "so far" in notes(docs).get("archive.pdf", ("", ""))[1], timeout=60)
        found = docs.search("scanned text sheet 1", 1)["passages"]
        assert found and found[0]["page"] == 1, "the pages read are searchable at once"
        assert "scanned pages are still being read by OCR" in docs.search("sheet", 1)["note"]
        (root / "visit.md").write_text("# Site visit\nThe pile cap at grid D7 was poured on 3 March.\n")
        assert wait_until(lambda: bool(docs.search("pile cap grid D7", 1)["passages"]), timeout=30)
        assert "so far" in notes(docs)["archive.pdf"][1], "the note was read while the scan was still being read"
        assert docs.wait(120)
        assert notes(docs)["archive.pdf"] == ("indexed", "30 pages, 30 read by OCR")
    finally:
        docs.close()
    assert watches.watching(root) is None


def test_the_documents_panel_says_read_by_ocr(app: AppTest, isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = isolated / "workspace"
    root.mkdir()
    write_scanned_notes_pdf(root / "general-notes.pdf", pages=2)
    pretend_ocr(monkeypatch, 0.0)
    indexed(isolated, root)
    app.run()
    assert not app.exception
    captions = [caption.value.replace("\\", "") for caption in app.sidebar.caption]
    assert any("general-notes.pdf · 2 pages, 2 read by OCR" in caption for caption in captions), captions
