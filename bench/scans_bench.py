"""Scanned PDFs: how many of a scanned sheet's words OCR reads back, and how many pages a second, with Tesseract
(the app's, `tools.documents.ocr`) and, when it is installed beside the app, RapidOCR (the other candidate);
and a scanned PDF indexed end to end by the document index."""

from __future__ import annotations

import difflib
import importlib
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.documents.library import DocumentLibrary
from bench.harness import Result, single
from fakes.scans import GENERAL_NOTES, RUSSIAN_NOTES, write_scanned_notes_pdf
from history import ChatHistoryDB
from tools.documents import ocr

Engine = Callable[[Any], str]  # a rendered page (pypdfium2) to its text


def words(text: str) -> list[str]:
    """Words as an engineer searches for them: `#6`, `A615`, `3/4`, `E70XX`, lower case."""
    return re.findall(r"#?\w+(?:[./]\w+)*", text.lower())


def accuracy(text: str, lines: list[str]) -> tuple[float, float]:
    """(share of the sheet's words read back, similarity of the whole word sequence), both in per cent."""
    truth, read = words(" ".join(lines)), words(text)
    found = set(read)
    recall = sum(word in found for word in truth) / len(truth)
    return recall * 100, difflib.SequenceMatcher(None, " ".join(truth), " ".join(read)).ratio() * 100


def tesseract_engine() -> Engine | None:
    program = ocr.tesseract()
    if program is None:
        return None
    return lambda page: ocr.recognise(program, ocr.page_image(page)).text


def rapidocr_engine() -> Engine | None:
    """RapidOCR 3 (ONNX models in its wheel) on the same rendering, if installed; it is not a dependency."""
    try:
        rapid: Any = importlib.import_module("rapidocr")
    except ImportError:
        return None
    engine = rapid.RapidOCR()

    def read(page: Any) -> str:
        rendered = page.render(scale=ocr.scan_dpi(page) / 72).to_numpy()
        return "\n".join(engine(rendered).txts or ())

    return read


def measure(name: str, engine: Engine, folder: Path, pages: int) -> list[Result]:
    import pypdfium2 as pdfium

    sheet, many = folder / "sheet.pdf", folder / "sheets.pdf"
    write_scanned_notes_pdf(sheet)
    write_scanned_notes_pdf(many, pages=pages)
    one = pdfium.PdfDocument(sheet)
    recall, similarity = accuracy(engine(one[0]), GENERAL_NOTES)
    document = pdfium.PdfDocument(many)
    started = time.perf_counter()
    for number in range(pages):
        engine(document[number])
    rate = pages / (time.perf_counter() - started)
    return [
        single(f"OCR, {name}: words of the scanned notes read back", recall, "%", "—", None),
        single(f"OCR, {name}: word sequence alike (difflib ratio)", similarity, "%", "—", None),
        single(f"OCR, {name}: pages per second ({pages} scanned pages)", rate, "pages/s", "—", None),
    ]


def confidence(folder: Path) -> list[Result]:
    """Tesseract's median word confidence on the notes in English and in Russian (which it is not given)."""
    import pypdfium2 as pdfium

    program = ocr.tesseract()
    assert program is not None
    results = []
    for language, lines in (("English", GENERAL_NOTES), ("Russian", RUSSIAN_NOTES)):
        path = folder / f"notes-{language}.pdf"
        write_scanned_notes_pdf(path, lines=lines)
        found = ocr.recognise(program, ocr.page_image(pdfium.PdfDocument(path)[0]))
        name = f"OCR, Tesseract: median word confidence, the notes in {language}"
        results.append(single(name, found.confidence, "", f"≥ {ocr.MIN_CONFIDENCE:g} kept", None))
    return results


def indexed(folder: Path, pages: int) -> Result:
    root = folder / "project"
    root.mkdir()
    write_scanned_notes_pdf(root / "general-notes.pdf", pages=pages)
    library = DocumentLibrary(ChatHistoryDB(folder / "scans.sqlite"), root, None)
    started = time.perf_counter()
    library.refresh()
    library.wait()
    took = time.perf_counter() - started
    (file,) = library.files()
    assert file.note.endswith(f"{pages} read by OCR"), file.note
    return single(f"indexing a {pages}-page scanned PDF (worker start included)", pages / took, "pages/s", "—", None)


def run(quick: bool) -> list[Result]:
    pages = 3 if quick else 10
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        tesseract = tesseract_engine()
        if tesseract is None:
            return [single("OCR: Tesseract is not installed (apt-get install tesseract-ocr)", 0, "", "—", None)]
        results += measure("Tesseract 5 (the app's)", tesseract, folder, pages)
        results += confidence(folder)
        rapid = rapidocr_engine()
        if rapid is not None:
            results += measure("RapidOCR 3 (not used)", rapid, folder, pages)
        results.append(indexed(folder, pages))
    return results
