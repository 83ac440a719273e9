"""Site photos as phones write them, for the tests: a 4000 × 3000 JPEG whose EXIF holds a GPS position and an
orientation (the camera held upright: the pixels lie on their side), with XMP and a comment; and checks that a
cleaned picture carries none of it and stands upright."""

from __future__ import annotations

import base64
import io
import os
from typing import Any

from PIL import Image
from PIL.ExifTags import GPS, IFD, Base
from PIL.PngImagePlugin import PngInfo

WHERE = "Riverside site, 51.5123 N"
XMP = (
    b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    b'<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="51,30.74N"/>'
    b"</rdf:RDF></x:xmpmeta>"
)
RED = (220, 30, 30)
WHITE = (255, 255, 255)


def _exif() -> Image.Exif:
    exif = Image.Exif()
    exif[Base.Orientation] = 6  # shown turned 90° clockwise: the pixels' left edge is the picture's top
    exif[Base.Make] = "PhoneCo"
    exif[Base.ImageDescription] = WHERE
    exif[IFD.GPSInfo] = {
        GPS.GPSLatitudeRef: "N",
        GPS.GPSLatitude: (51.0, 30.0, 44.28),
        GPS.GPSLongitudeRef: "W",
        GPS.GPSLongitude: (0.0, 7.0, 39.0),
    }
    return exif


def _pixels(width: int, height: int, grainy: bool = False) -> Image.Image:
    """White, with the left third red: upright (turned as the orientation says) the red is the top third. Grainy:
    the middle third is noise, as a real photo's detail, which makes the file several megabytes."""
    image = Image.new("RGB", (width, height), WHITE)
    image.paste(RED, (0, 0, width // 3, height))
    if grainy:
        middle = (width // 3, height)
        image.paste(Image.frombytes("RGB", middle, os.urandom(middle[0] * middle[1] * 3)), (width // 3, 0))
    return image


def site_photo(width: int = 4000, height: int = 3000, grainy: bool = False) -> bytes:
    """A JPEG from a phone: EXIF with GPS and orientation 6, XMP, a comment."""
    out = io.BytesIO()
    _pixels(width, height, grainy).save(
        out, "JPEG", quality=85, exif=_exif().tobytes(), xmp=XMP, comment=WHERE.encode(), icc_profile=b"\0" * 128
    )
    return out.getvalue()


def sketch_png(width: int = 2400, height: int = 1800) -> bytes:
    """A PNG with text chunks, XMP and EXIF (a scanning app's)."""
    info = PngInfo()
    info.add_text("Comment", WHERE)
    info.add_itxt("XML:com.adobe.xmp", XMP.decode())
    out = io.BytesIO()
    _pixels(width, height).save(out, "PNG", pnginfo=info, exif=_exif().tobytes())
    return out.getvalue()


def as_base64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def assert_clean(data: bytes, long_side: int = 1568) -> Image.Image:
    """The picture has no metadata block left (checked in its bytes), is at most `long_side` on its long side, and
    stands upright (the red third at the top)."""
    for trace in (b"Exif", b"PhoneCo", b"Riverside", b"xmpmeta", b"ns.adobe.com", b"GPS", b"ICC_PROFILE"):
        assert trace not in data, trace
    assert b"\xff\xe1" not in _jpeg_markers(data), "an APP1 (EXIF or XMP) segment is left"
    assert b"\xff\xfe" not in _jpeg_markers(data), "a comment segment is left"
    image = Image.open(io.BytesIO(data))
    assert not dict(image.getexif()), "EXIF is left"
    assert not {"exif", "xmp", "icc_profile", "comment", "XML:com.adobe.xmp", "Comment"} & set(image.info)
    assert max(image.size) <= long_side
    width, height = image.size
    rgb = image.convert("RGB")
    assert _near(rgb.getpixel((width // 2, height // 8)), RED), "the top should be red: the photo is not upright"
    assert _near(rgb.getpixel((width // 2, height * 7 // 8)), WHITE)
    return image


def _near(found: Any, wanted: tuple[int, int, int]) -> bool:
    return all(abs(int(a) - b) < 40 for a, b in zip(found, wanted, strict=True))


def _jpeg_markers(data: bytes) -> bytes:
    """The JPEG's segment markers before its image data (empty for another format)."""
    if not data.startswith(b"\xff\xd8"):
        return b""
    markers, at = bytearray(), 2
    while at + 4 <= len(data) and data[at] == 0xFF:
        marker = data[at : at + 2]
        markers += marker
        if marker == b"\xff\xda":  # start of scan: the pixels follow
            break
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    return bytes(markers)
