"""A small project's documents, made on the spot for the tests and the benchmarks.

Facts sit on known pages, under known headings and in known rows, beside a distractor that
uses the same words about something else, and beside files that cannot be indexed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SPEC_PAGES = {
    1: "Section 03 30 00 Cast-in-place concrete. Scope: footings, slabs and walls of the parking structure.",
    2: "Concrete strength: f'c = 5000 psi at 28 days for slabs; 4000 psi for footings.",
    3: "Formwork shall be removed no sooner than 3 days after placement.",
    4: "Section 03 21 00 Reinforcement. Lap splices for #5 bars shall be 24 inches (Class B tension splice).",
    5: "Concrete cover to reinforcement: 2 inches for surfaces exposed to earth or weather.",
    6: "Curing: keep surfaces continuously moist for 7 days.",
}
DESIGN_BASIS = {
    "Codes": "The design follows the 2021 IBC and ASCE 7-22 with the state amendments.",
    "Roof snow": "The ground snow load is pg = 30 psf; the flat roof snow load used in design is pf = 21 psf.",
    "Wind": "Basic wind speed V = 115 mph, exposure C, risk category II.",
}
ROOF_ROWS = [
    ("Load", "Value", "Unit"),
    ("Dead (roofing, deck, MEP)", 22, "psf"),
    ("Roof live", 20, "psf"),
    ("Snow", 21, "psf"),
]
FLOOR_ROWS = [("Load", "Value", "Unit"), ("Office live", 50, "psf"), ("Partitions", 15, "psf")]
DISTRACTOR = (
    "Staff wellness memo. The gym's lap pool bars entry after 9 pm; swimmers should limit sessions to 24 laps. "
    "The splice of the old pool liner will be repaired in spring."
)


def write_pdf(path: Path, pages: dict[int, str] | list[str], password: str | None = None) -> None:
    """A PDF with one paragraph of text per page (reportlab)."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen.canvas import Canvas

    texts = list(pages.values()) if isinstance(pages, dict) else pages
    canvas = Canvas(str(path), pagesize=letter, encrypt=password)
    for text in texts:
        line, y = "", 720
        for word in text.split():
            if len(line) + len(word) > 80:
                canvas.drawString(72, y, line)
                line, y = "", y - 16
            line = f"{line} {word}".strip()
        canvas.drawString(72, y, line)
        canvas.showPage()
    canvas.save()


def write_glyph_pdf(path: Path, pages: list[str]) -> None:
    """A PDF whose text is placed one glyph at a time, as drawing and CAD exports often write it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(path))
    for text in pages:
        x, y = 72.0, 720.0
        for word in text.split():
            if x + stringWidth(word, "Helvetica", 10) > 540:
                x, y = 72.0, y - 14
            for glyph in word:
                canvas.setFont("Helvetica", 10)
                canvas.drawString(x, y, glyph)
                x += stringWidth(glyph, "Helvetica", 10)
            x += stringWidth(" ", "Helvetica", 10)
        canvas.showPage()
    canvas.save()


def write_scanned_pdf(path: Path) -> None:
    """A page with a drawing and no text layer, as a scan would have."""
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(path))
    canvas.rect(100, 100, 300, 400, fill=1)
    canvas.showPage()
    canvas.save()


def write_docx(path: Path, sections: dict[str, str]) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Design basis memo", level=0)
    for heading, text in sections.items():
        document.add_heading(heading, level=1)
        document.add_paragraph(text)
    document.save(str(path))


def write_xlsx(path: Path, sheets: dict[str, list[tuple[Any, ...]]]) -> None:
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for title, rows in sheets.items():
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(list(row))
    workbook.save(str(path))


def build_document_set(folder: Path) -> None:
    """spec.pdf (6 pages), design-basis.docx, loads.xlsx, a distractor memo and four files that cannot be indexed."""
    folder.mkdir(parents=True, exist_ok=True)
    write_pdf(folder / "spec.pdf", SPEC_PAGES)
    write_docx(folder / "design-basis.docx", DESIGN_BASIS)
    write_xlsx(folder / "loads.xlsx", {"Roof loads": ROOF_ROWS, "Floor loads": FLOOR_ROWS})
    (folder / "memos").mkdir(exist_ok=True)
    (folder / "memos" / "wellness.txt").write_text(DISTRACTOR, encoding="utf-8")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\n this is not really a PDF \x00\x01")
    (folder / "empty.txt").write_text("", encoding="utf-8")
    write_scanned_pdf(folder / "scan.pdf")
    write_pdf(folder / "locked.pdf", ["Confidential fee proposal."], password="secret")
