"""Text out of the project's documents, in passages that keep where they came from.

PDF with pypdfium2 (chosen by measurement over pypdf: bench/README.md), Word with
python-docx, spreadsheets with openpyxl in read-only mode, Markdown, text and CSV with
the standard library. Each reader is bounded (pages, rows, characters) so that a huge or
hostile file is read in part and says so; the worker process around them bounds time and
memory (`tools.documents.reader_worker`).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

PASSAGE_CHARS = 1_200  # a passage: about a paragraph or two, small enough to quote and to embed
MAX_PAGES = 2_000
MAX_ROWS = 200_000  # per spreadsheet or CSV file
MAX_CHARS = 20_000_000  # per document, whatever its kind
ROWS_PER_PASSAGE = 25


class UnreadableError(Exception):
    """The file cannot be indexed; the message says why, for the documents list."""


@dataclass
class Reading:
    """What a reader found: passages as (page, location, text) and a note for the documents list."""

    passages: list[tuple[int | None, str, str]] = field(default_factory=list)
    note: str = ""
    chars: int = 0

    def add(self, page: int | None, location: str, text: str) -> None:
        for piece in split_text(text):
            if self.chars + len(piece) > MAX_CHARS:
                raise _FullError
            self.chars += len(piece)
            self.passages.append((page, location, piece))


class _FullError(Exception):
    """MAX_CHARS reached: the rest of the document is left out."""


def split_text(text: str, size: int = PASSAGE_CHARS) -> Iterator[str]:
    """`text` in pieces of at most about `size` characters, cut at paragraph, then sentence, then word ends."""
    text = re.sub(r"[ \t\f\v]+", " ", text.replace("\r\n", "\n").replace("\r", "\n")).strip()
    while text:
        if len(text) <= size:
            yield text
            return
        cut = max(text.rfind("\n\n", 0, size), text.rfind(". ", 0, size) + 1, text.rfind("\n", 0, size))
        if cut < size // 3:
            cut = text.rfind(" ", 0, size)
        if cut <= 0:
            cut = size
        yield text[:cut].strip()
        text = text[cut:].strip()


def read_document(path: Path) -> Reading:
    """Passages of one file, by its suffix; UnreadableError says why a file gives none."""
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise UnreadableError(f"{path.suffix or 'no suffix'}: not a kind of document that is indexed")
    reading = Reading()
    try:
        reader(path, reading)
    except _FullError:
        reading.note = f"only the first {MAX_CHARS:,} characters were indexed"
    if not reading.passages:
        raise UnreadableError(reading.note or "no text in it")
    return reading


def read_pdf(path: Path, reading: Reading) -> None:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as error:
        message = str(error).lower()
        if "password" in message:
            raise UnreadableError("encrypted: it needs a password") from None
        raise UnreadableError(f"not a readable PDF ({error})") from None
    with closing(pdf):
        pages = len(pdf)
        for number in range(1, min(pages, MAX_PAGES) + 1):
            page = pdf[number - 1]
            text_page = page.get_textpage()
            text = text_page.get_text_bounded()
            text_page.close()
            page.close()
            if text.strip():
                reading.add(number, f"page {number}", text)
        if not reading.passages:
            raise UnreadableError("no text layer (a scanned PDF?): run OCR on it first")
        reading.note = f"{pages} pages" if pages <= MAX_PAGES else f"the first {MAX_PAGES:,} of {pages:,} pages"


def read_docx(path: Path, reading: Reading) -> None:
    import docx
    from docx.table import Table

    try:
        document = docx.Document(str(path))
    except Exception as error:  # noqa: BLE001 - python-docx raises many kinds for a damaged file
        raise UnreadableError(f"not a readable Word file ({type(error).__name__})") from None
    heading, lines = "the start", []
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            lines += [" | ".join(cell.text.strip() for cell in row.cells) for row in block.rows]
            continue
        style = (block.style.name if block.style is not None else "") or ""
        if style.startswith(("Heading", "Title")) and block.text.strip():
            reading.add(None, heading, "\n".join(lines))
            heading, lines = block.text.strip(), []
        elif block.text.strip():
            lines.append(block.text)
    reading.add(None, heading, "\n".join(lines))
    reading.note = "Word document"


def read_xlsx(path: Path, reading: Reading) -> None:
    import openpyxl

    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # noqa: BLE001 - openpyxl raises many kinds for a damaged file
        raise UnreadableError(f"not a readable spreadsheet ({type(error).__name__})") from None
    try:
        rows = 0
        for sheet in workbook.worksheets:
            where = f"sheet {sheet.title}"
            lines = (" | ".join(str(c) for c in row if c is not None) for row in sheet.iter_rows(values_only=True))
            rows += _add_rows(reading, ((where, i, line) for i, line in enumerate(lines, 1) if line))
        reading.note = reading.note or f"{len(workbook.worksheets)} sheets, {rows:,} rows"
    finally:
        workbook.close()


def read_csv(path: Path, reading: Reading) -> None:
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        rows = csv.reader(handle)
        count = _add_rows(reading, (("", i, " | ".join(r)) for i, r in enumerate(rows, 1) if any(r)))
    reading.note = reading.note or f"{count:,} rows"


def _add_rows(reading: Reading, rows: Iterable[tuple[str, int, str]]) -> int:
    """Rows grouped into passages of ROWS_PER_PASSAGE, located as "sheet Loads, rows 3-9" (or "rows 3-9")."""
    block: list[tuple[str, int, str]] = []
    count = 0

    def flush() -> None:
        if block:
            where, first, last = block[0][0], block[0][1], block[-1][1]
            reading.add(None, f"{where + ', ' if where else ''}rows {first}-{last}", "\n".join(t for _, _, t in block))
            block.clear()

    for row in rows:
        if count == MAX_ROWS:
            reading.note = f"only the first {MAX_ROWS:,} rows were indexed"
            break
        count += 1
        if block and (row[0] != block[0][0] or len(block) >= ROWS_PER_PASSAGE):
            flush()
        block.append(row)
    flush()
    return count


def read_markdown(path: Path, reading: Reading) -> None:
    heading, lines = "the start", list[str]()
    for line in _text(path).splitlines():
        match = re.match(r"^#{1,6}\s+(.+?)\s*#*\s*$", line)
        if match:
            reading.add(None, heading, "\n".join(lines))
            heading, lines = match.group(1), []
        else:
            lines.append(line)
    reading.add(None, heading, "\n".join(lines))
    reading.note = "Markdown"


def read_text(path: Path, reading: Reading) -> None:
    start, lines, number = 1, list[str](), 0
    for number, line in enumerate(_text(path).splitlines(), 1):
        lines.append(line)
        if sum(map(len, lines)) >= PASSAGE_CHARS:
            reading.add(None, f"lines {start}-{number}", "\n".join(lines))
            start, lines = number + 1, []
    if lines:
        end = start + len(lines) - 1
        reading.add(None, f"lines {start}-{end}" if end > start else f"line {start}", "\n".join(lines))
    reading.note = f"{number:,} lines of text" if number else ""


def _text(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace") as handle:
        return handle.read(MAX_CHARS)


@dataclass(frozen=True)
class DocumentType:
    """A kind of file the index reads: its suffix, its name as users know it, and its reader."""

    suffix: str
    name: str
    read: Callable[[Path, Reading], None]


# The one list of the document types: the index, the uploads and what the faces say all take it from here.
DOCUMENT_TYPES = (
    DocumentType(".pdf", "PDF", read_pdf),
    DocumentType(".docx", "Word", read_docx),
    DocumentType(".xlsx", "Excel", read_xlsx),
    DocumentType(".md", "Markdown", read_markdown),
    DocumentType(".txt", "text", read_text),
    DocumentType(".csv", "CSV", read_csv),
)
READERS = {kind.suffix: kind.read for kind in DOCUMENT_TYPES}
DOCUMENT_SUFFIXES = tuple(READERS)
DOCUMENT_TYPES_NAMED = ", ".join(kind.name for kind in DOCUMENT_TYPES[:-1]) + f" or {DOCUMENT_TYPES[-1].name}"
