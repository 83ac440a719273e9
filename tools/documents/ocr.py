"""Scanned pages read by OCR, offline: Tesseract (Debian's `tesseract-ocr`, Apache-2.0), one page at a time.

Chosen over RapidOCR by the measurement in bench/README.md: on a scanned sheet of general notes it
read 99 % of the words against RapidOCR's 91 %, about twice as fast on one CPU, and it is 15 MB from
the system's packages against some 260 MB of wheels (onnxruntime, OpenCV). It is called as a program,
with the page rendered by pypdfium2 and handed over as a greyscale PGM on its standard input, so
nothing is written to disk and nothing is fetched. Each page is bounded (SECONDS_PER_PAGE, PIXELS);
a page whose words are mostly guesses (a language Tesseract was not given, a photograph) gives no text.
Where Tesseract is not installed, the app says so for each scanned file and reads the rest.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DPI = 200  # the best of 150, 200 and 300 on the bench's scans, at 200 and 300 dpi; a lower scan is read as it is
LOWEST_DPI = 100
PIXELS = 40_000_000  # a page larger than this (an A0 sheet at 200 dpi is 62 MP) is read at a lower resolution
SECONDS_PER_PAGE = 30.0
MIN_CONFIDENCE = 75.0  # the median word confidence below which a page's text is taken for guesses (bench/README.md:
# the scanned notes in English 93, the same notes in Russian 64)
LANGUAGES = "eng"
INSTALL = "apt-get install tesseract-ocr"


def tesseract() -> str | None:
    """The Tesseract program, or None where it is not installed."""
    return shutil.which("tesseract")


@dataclass
class PageText:
    """What OCR made of one page: its lines of text, and Tesseract's median confidence in its words (0-100)."""

    text: str
    confidence: float
    words: int


@dataclass
class OcrOutcome:
    """Pages read in one request: passages as (page, text), the pages done, and why some gave nothing."""

    pages: list[tuple[int, str]] = field(default_factory=list)
    done: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_pages(path: Path, pages: list[int], seconds: float) -> OcrOutcome:
    """OCR `pages` (numbered from 1) of the PDF at `path`, stopping after the page that passes `seconds`."""
    import pypdfium2 as pdfium

    program = tesseract()
    if program is None:
        raise RuntimeError(f"reading scanned pages needs Tesseract OCR ({INSTALL})")
    outcome, started = OcrOutcome(), time.monotonic()
    pdf = pdfium.PdfDocument(path)
    try:
        for number in pages:
            if outcome.done and time.monotonic() - started > seconds:
                break
            _read_page(program, pdf[number - 1], number, outcome)
            outcome.done.append(number)
    finally:
        pdf.close()
    return outcome


def _read_page(program: str, page: Any, number: int, outcome: OcrOutcome) -> None:
    try:
        found = recognise(program, page_image(page))
    except subprocess.TimeoutExpired:
        outcome.problems.append(f"page {number} took longer than {SECONDS_PER_PAGE:g} s to read by OCR")
        return
    except (OSError, ValueError) as error:
        outcome.problems.append(f"page {number} could not be read by OCR ({error})")
        return
    finally:
        page.close()
    if found.words and found.confidence < MIN_CONFIDENCE:
        outcome.problems.append(
            f"page {number}: no text recognised with confidence (the OCR reads English; another language?)"
        )
    elif found.text.strip():
        outcome.pages.append((number, found.text))


def scan_dpi(page: Any) -> float:
    """The resolution the page's largest image was scanned at (DPI when there is none), at most DPI."""
    import pypdfium2.raw as pdfium_c

    best, dpi = 0, float(DPI)
    for image in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2):
        width, height = image.get_px_size()
        left, _, right, _ = image.get_bounds()
        if width * height > best and right - left > 1:
            best, dpi = width * height, width / ((right - left) / 72)
    return max(LOWEST_DPI, min(DPI, dpi))


def page_image(page: Any) -> bytes:
    """The page rendered in grey at its scan's resolution (within PIXELS), as a binary PGM image."""
    width, height = page.get_size()
    scale = scan_dpi(page) / 72
    scale = min(scale, (PIXELS / max(width * height, 1.0)) ** 0.5)
    pixels = page.render(scale=scale, grayscale=True).to_numpy()
    rows, columns = pixels.shape[0], pixels.shape[1]
    image: bytes = b"P5\n%d %d\n255\n" % (columns, rows) + pixels.tobytes()
    return image


def recognise(program: str, image: bytes) -> PageText:
    """Tesseract on one image (one thread: on a shared machine its threads cost more than they give)."""
    environment = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    done = subprocess.run(
        [program, "stdin", "stdout", "-l", LANGUAGES, "tsv"],
        input=image,
        capture_output=True,
        timeout=SECONDS_PER_PAGE,
        env=environment,
        check=False,
    )
    if done.returncode != 0:
        raise ValueError(done.stderr.decode("utf-8", "replace").strip().splitlines()[-1][:200] or "it failed")
    return page_text(done.stdout.decode("utf-8", "replace"))


def page_text(tsv: str) -> PageText:
    """Tesseract's TSV (a row per word with its block, paragraph and line) as text: lines kept, paragraphs apart."""
    lines: list[str] = []
    confidences: list[float] = []
    previous: tuple[str, str, str] | None = None
    for fields in _words(tsv):
        block, paragraph, line, confidence, word = fields[2], fields[3], fields[4], float(fields[10]), fields[11]
        if previous is not None and (block, paragraph) != previous[:2]:
            lines.append("")
        if previous != (block, paragraph, line):
            lines.append(word)
        else:
            lines[-1] += f" {word}"
        previous = (block, paragraph, line)
        confidences.append(confidence)
    median = statistics.median(confidences) if confidences else 0.0
    return PageText("\n".join(lines), median, len(confidences))


def _words(tsv: str) -> Iterator[list[str]]:
    """The rows of recognised words (level 5), skipping empty ones."""
    for row in tsv.splitlines()[1:]:
        fields = row.split("\t")
        if len(fields) == 12 and fields[0] == "5" and fields[11].strip() and float(fields[10]) >= 0:
            yield fields
