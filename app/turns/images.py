"""Pictures asked with a question (a photo from site, a phone picture of a hand sketch), cleaned here once for
every face before anything is stored or sent.

A picture is decoded and drawn again from its pixels alone, so no metadata block of the file survives (EXIF with
its GPS position, XMP, comments, colour profiles): nothing here may tell where a photo was taken. The EXIF
orientation is applied to the pixels, and the long side is brought down to LONG_SIDE pixels with the aspect kept
(what vision models take in; a larger picture only costs time). A PNG stays a PNG (sketches keep their sharp
lines), a JPEG or WebP becomes a JPEG (a WebP with transparency, a PNG). A file over MAX_IMAGE_BYTES, or one that is
not a PNG, JPEG or WebP, is refused with one sentence naming it.
"""

from __future__ import annotations

import hashlib
import io
import math
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from domain.records import CleanImage, ImageType

if TYPE_CHECKING:
    from PIL import Image

MAX_IMAGE_BYTES = 20 * 1024**2
MAX_IMAGES = 8  # pictures with one question
LONG_SIDE = 1_568
MAX_PIXELS = 120_000_000  # a 20 MB file may still unpack to more than memory should hold
JPEG_QUALITY = 90
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
DEFAULT_QUESTION = "What does this picture show?"  # a picture sent without a question
_FORMATS = ("PNG", "JPEG", "WEBP")  # a phone's multi-picture JPEG opens as MPO, through JPEG


class ImageRefusedError(ValueError):
    """A picture that is not sent: the sentence names it and says why."""


def clean_image(name: str, data: bytes) -> CleanImage:
    """The picture `name` (a file's name, or "image 2" for one sent without) cleaned, upright and resized;
    ImageRefusedError when it is too large or not a PNG, JPEG or WebP."""
    if len(data) > MAX_IMAGE_BYTES:
        raise ImageRefusedError(too_large(name, len(data)))
    from PIL import Image, UnidentifiedImageError  # loaded with the first picture, not with every question

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=_FORMATS) as opened:
                return _redrawn(name, opened)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
        if isinstance(error, ImageRefusedError):
            raise
        raise ImageRefusedError(f"{name} is not a PNG, JPEG or WebP image, so it was not sent.") from None


def read_image(path: Path) -> CleanImage:
    """The picture in file `path`, cleaned (its size is looked at before it is read)."""
    name = path.name or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_IMAGE_BYTES:
            raise ImageRefusedError(too_large(name, size))
        data = path.read_bytes()
    except IsADirectoryError:
        raise ImageRefusedError(f"{path} is a folder, not a picture.") from None
    except OSError as error:
        raise ImageRefusedError(f"{path} cannot be read ({error.strerror or error}).") from None
    return clean_image(name, data)


def read_images(paths: Sequence[Path]) -> tuple[CleanImage, ...]:
    """Each file's picture, cleaned; ImageRefusedError for the first that is refused, or for too many."""
    check_count(len(paths))
    return tuple(read_image(path) for path in paths)


def check_count(count: int) -> None:
    if count > MAX_IMAGES:
        raise ImageRefusedError(f"{count} pictures is more than the {MAX_IMAGES} one question may carry.")


def too_large(name: str, size: int) -> str:
    return (
        f"{name} is {size / 1024**2:.1f} MB, more than the {MAX_IMAGE_BYTES // 1024**2} MB a picture may be, "
        "so it was not sent."
    )


def _redrawn(name: str, opened: Image.Image) -> CleanImage:
    width, height = opened.size
    if width * height > MAX_PIXELS:
        raise ImageRefusedError(
            f"{name} is {width} × {height} pixels, more than a picture may unpack to, so it was not sent."
        )
    scale = min(1.0, LONG_SIDE / max(width, height))
    if opened.format in ("JPEG", "MPO"):  # the decoder itself skips what the resize would drop (much faster)
        opened.draft("RGB", (math.ceil(width * scale), math.ceil(height * scale)))
    from PIL import Image, ImageOps

    upright = ImageOps.exif_transpose(opened)
    keep_png = opened.format == "PNG" or _transparent(upright)
    pixels = upright.convert(_mode(upright, keep_png))
    pixels.thumbnail((LONG_SIDE, LONG_SIDE), Image.Resampling.LANCZOS, reducing_gap=3.0)
    clean = Image.new(pixels.mode, pixels.size)  # a new image: none of the file's metadata comes along
    clean.paste(pixels)
    media_type: ImageType = "image/png" if keep_png else "image/jpeg"
    out = io.BytesIO()
    if keep_png:
        clean.save(out, "PNG", optimize=False)
    else:
        clean.save(out, "JPEG", quality=JPEG_QUALITY)
    data = out.getvalue()
    return CleanImage(
        data=data,
        media_type=media_type,
        width=clean.width,
        height=clean.height,
        sha256=hashlib.sha256(data).hexdigest(),
    )


def _transparent(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)


def _mode(image: Image.Image, keep_png: bool) -> str:
    """RGB (or grey) for a JPEG; a PNG keeps grey, and its transparency."""
    if image.mode == "L":
        return "L"
    if keep_png and _transparent(image):
        return "RGBA"
    return "RGB"
