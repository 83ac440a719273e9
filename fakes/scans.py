"""A scanned sheet of engineering notes, made on the spot: text whose words are known, drawn into an
image, turned a little, speckled with noise, and put in a PDF with no text layer, as a scanner writes it."""

from __future__ import annotations

import io
import random
from pathlib import Path

GENERAL_NOTES = [
    "GENERAL NOTES",
    "1. All concrete shall reach a compressive strength of 4000 psi at 28 days.",
    "2. Reinforcing steel shall conform to ASTM A615 Grade 60.",
    "3. Lap splices of #6 bars shall be 36 inches unless noted otherwise.",
    "4. Structural steel wide flange shapes: ASTM A992, Fy = 50 ksi.",
    "5. Anchor rods: ASTM F1554 Grade 36, 3/4 inch diameter, 12 inch embedment.",
    "6. Clear cover to reinforcement: 3 inches for footings cast against earth.",
    "7. Roof live load 20 psf; floor live load 50 psf plus 15 psf partitions.",
    "8. The contractor shall verify all dimensions before fabrication.",
    "9. Welding electrodes E70XX; fillet welds 5/16 inch minimum unless noted.",
    "10. Shoring shall remain until the slab reaches 75 percent of its strength.",
]
RUSSIAN_NOTES = [  # the same kind of sheet in a language the OCR is not given (Tesseract reads English here)
    "ОБЩИЕ УКАЗАНИЯ",
    "1. Бетон класса В25 по прочности на сжатие.",
    "2. Арматура класса А500С по ГОСТ 34028.",
    "3. Защитный слой бетона 40 мм для фундаментов.",
    "4. Нахлёст стержней диаметром 16 мм равен 800 мм.",
]
DPI = 200  # what an office scanner writes for text pages
PAGE_INCHES = (8.5, 11.0)


def _font(size: int) -> object:
    """DejaVu Sans from matplotlib's own fonts (a dependency already), at `size` pixels."""
    from matplotlib import font_manager
    from PIL import ImageFont

    return ImageFont.truetype(font_manager.findfont("DejaVu Sans"), size)


def scanned_image(lines: list[str], seed: int = 29, angle: float = 1.2, noise: float = 0.02) -> bytes:
    """The notes as a grey PNG page at DPI: 12-point text, turned by `angle` degrees, `noise` of its pixels flipped."""
    from PIL import Image, ImageDraw, ImageFilter

    width, height = int(PAGE_INCHES[0] * DPI), int(PAGE_INCHES[1] * DPI)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    font = _font(int(12 / 72 * DPI))
    y = DPI
    for line in lines:
        draw.text((DPI, y), line, fill=20, font=font)  # type: ignore[arg-type]
        y += int(0.3 * DPI)
    page = page.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=255).filter(ImageFilter.GaussianBlur(0.6))
    rng = random.Random(seed)
    pixels = page.load()
    assert pixels is not None
    for _ in range(int(width * height * noise)):
        x, y = rng.randrange(width), rng.randrange(height)
        pixels[x, y] = 0 if rng.random() < 0.5 else 255
    out = io.BytesIO()
    page.save(out, format="PNG")
    return out.getvalue()


def write_scanned_notes_pdf(path: Path, pages: int = 1, lines: list[str] | None = None) -> None:
    """An image-only PDF of `pages` pages of the general notes (the page number added to each page's title)."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    size = (PAGE_INCHES[0] * 72, PAGE_INCHES[1] * 72)
    canvas = Canvas(str(path), pagesize=size)
    for number in range(1, pages + 1):
        text = list(lines or GENERAL_NOTES)
        if pages > 1:
            text[0] = f"{text[0]} SHEET {number}"
        canvas.drawImage(ImageReader(io.BytesIO(scanned_image(text, seed=number))), 0, 0, *size)
        canvas.showPage()
    canvas.save()
