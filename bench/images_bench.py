"""Pictures: cleaning a 12-megapixel phone photo (4000 × 3000 JPEG with EXIF, GPS and an orientation) and a
12-megapixel PNG sketch down to what is stored and sent (`app.turns.images.clean_image`), single-threaded."""

from __future__ import annotations

import io
import os

from PIL import Image
from PIL.ExifTags import GPS, IFD, Base

from app.turns.images import clean_image
from bench.harness import Result, summarise, timed_ms

WIDTH, HEIGHT = 4000, 3000


def photo() -> bytes:
    """A photo a phone writes: detail everywhere (a third of it noise, the rest gradients), EXIF with GPS and
    orientation 6, quality 92: about the size of a real 12-megapixel JPEG."""
    image = Image.linear_gradient("L").resize((WIDTH, HEIGHT)).convert("RGB")
    third = (WIDTH // 3, HEIGHT)
    image.paste(Image.frombytes("RGB", third, os.urandom(third[0] * third[1] * 3)), (WIDTH // 3, 0))
    exif = Image.Exif()
    exif[Base.Orientation] = 6
    exif[IFD.GPSInfo] = {GPS.GPSLatitudeRef: "N", GPS.GPSLatitude: (51.0, 30.0, 44.0)}
    out = io.BytesIO()
    image.save(out, "JPEG", quality=92, exif=exif.tobytes())
    return out.getvalue()


def sketch() -> bytes:
    """A scanned sketch: white with dark lines, 12 megapixels, PNG."""
    image = Image.new("L", (WIDTH, HEIGHT), 255)
    for x in range(0, WIDTH, 50):
        image.paste(0, (x, 0, x + 3, HEIGHT))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def cleaning(name: str, data: bytes, runs: int) -> Result:
    clean = clean_image("bench", data)
    label = (
        f"Clean a 12-megapixel {name} ({len(data) / 1024**2:.1f} MB) to {clean.width} × {clean.height} "
        f"({len(clean.data) / 1024:.0f} KiB)"
    )
    return summarise(label, timed_ms(lambda: clean_image("bench", data), runs), "ms", "≤ 1 s", 1000)


def run(quick: bool) -> list[Result]:
    runs = 3 if quick else 15
    return [cleaning("JPEG phone photo", photo(), runs), cleaning("PNG sketch", sketch(), runs)]
