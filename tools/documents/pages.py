"""A PDF page as a picture, with a passage marked on it, so that a citation can be checked against the page.

Run in the reader worker, like the readers: the page is rendered by pypdfium2 at DPI, and the passage is
found in the page's text layer by its first and last words (PDFium's own search, which reads a line break as
a space); the text between them is covered by translucent yellow boxes. A scanned page has no text layer:
it is shown unmarked, and says so.
"""

from __future__ import annotations

import base64
import io
from typing import Any

from tools.documents.readers import UnreadableError

DPI = 110  # as large as the web page's column shows it
PIXELS = 12_000_000  # a larger sheet (an A0 drawing) is drawn smaller
WORDS = 6  # the words the passage is looked for by, at its start and at its end
HIGHLIGHT = (255, 214, 0, 96)
OUTLINE = (230, 160, 0, 255)


def render_page(path: str, number: int, mark: str) -> dict[str, Any]:
    """{"png": base64 PNG of page `number` (from 1), "marked": whether `mark` was found and marked on it}."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    try:
        if not 1 <= number <= len(pdf):
            raise UnreadableError(f"it has no page {number} (it has {len(pdf)})")
        page = pdf[number - 1]
        width, height = page.get_size()
        scale = min(DPI / 72, (PIXELS / max(width * height, 1.0)) ** 0.5)
        image = page.render(scale=scale).to_pil().convert("RGBA")
        boxes = _boxes(page, mark) if mark.strip() and page.get_rotation() == 0 else []
        if boxes:
            _draw(image, boxes, page.get_cropbox(), scale)
    finally:
        pdf.close()
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", optimize=True)
    return {"png": base64.b64encode(out.getvalue()).decode("ascii"), "marked": bool(boxes)}


def _boxes(page: Any, mark: str) -> list[tuple[float, float, float, float]]:
    """The rectangles (left, bottom, right, top, in PDF points) of the passage's text on the page, if found."""
    words = mark.split()
    text_page = page.get_textpage()
    try:
        start = _find(text_page, words[:WORDS])
        end = _find(text_page, words[-WORDS:], after=start[0] if start else 0, last=True)
        if start is None or end is None:
            return []
        first, last = start[0], end[0] + end[1]
        return [text_page.get_rect(i) for i in range(text_page.count_rects(first, last - first))]
    finally:
        text_page.close()


def _find(text_page: Any, words: list[str], after: int = 0, last: bool = False) -> tuple[int, int] | None:
    """(index, count) of the characters of `words` (their last ones if `last`) on the page, at or after `after`;
    fewer of them when all are not found together (a hyphen or a ligature between them)."""
    for size in dict.fromkeys((len(words), 3, 1)):
        phrase = " ".join(words[-size:] if last else words[:size])
        searcher = text_page.search(phrase, match_case=False)
        while (found := searcher.get_next()) is not None:
            if found[0] >= after:
                return int(found[0]), int(found[1])
    return None


def _draw(image: Any, boxes: list[tuple[float, float, float, float]], crop: Any, scale: float) -> None:
    from PIL import Image, ImageDraw

    left, _, _, top = crop
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for x0, y0, x1, y1 in boxes:
        shape = ((x0 - left) * scale - 2, (top - y1) * scale - 2, (x1 - left) * scale + 2, (top - y0) * scale + 2)
        draw.rectangle(shape, fill=HIGHLIGHT, outline=OUTLINE)
    image.alpha_composite(overlay)
