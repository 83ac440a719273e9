"""Pictures are cleaned once, below the faces: no metadata block left, upright, at most 1,568 px; a file too large or
not a PNG, JPEG or WebP is refused with one sentence naming it."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from PIL import Image

from app.turns.images import MAX_IMAGE_BYTES, ImageRefusedError, clean_image, read_image, read_images
from tests.photos import assert_clean, site_photo, sketch_png


def test_a_phone_photo_loses_its_gps_and_stands_upright_at_1568_px() -> None:
    photo = site_photo()
    assert b"Exif" in photo and b"xmpmeta" in photo
    clean = clean_image("crack.jpg", photo)
    image = assert_clean(clean.data)
    assert (clean.width, clean.height) == image.size == (1176, 1568)  # 3000 × 4000 upright, aspect kept
    assert clean.media_type == "image/jpeg" and image.format == "JPEG"


def test_a_png_sketch_stays_a_png_without_its_text_chunks() -> None:
    clean = clean_image("sketch.png", sketch_png())
    image = assert_clean(clean.data)
    assert clean.media_type == "image/png" and image.format == "PNG" and image.size == (1176, 1568)


def test_a_webp_becomes_a_jpeg_and_a_small_picture_keeps_its_size(tmp_path: Path) -> None:
    out = io.BytesIO()
    Image.new("RGB", (640, 480), (10, 200, 10)).save(out, "WEBP")
    clean = clean_image("detail.webp", out.getvalue())
    assert clean.media_type == "image/jpeg" and (clean.width, clean.height) == (640, 480)


def test_a_file_that_is_no_picture_is_refused_with_its_name() -> None:
    with pytest.raises(ImageRefusedError, match=r"^notes\.png is not a PNG, JPEG or WebP image"):
        clean_image("notes.png", b"%PDF-1.7 not a picture at all")
    gif = io.BytesIO()
    Image.new("RGB", (10, 10)).save(gif, "GIF")
    with pytest.raises(ImageRefusedError, match="anim.gif is not a PNG, JPEG or WebP"):
        clean_image("anim.gif", gif.getvalue())


def test_a_file_over_20_mb_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "huge.jpg"
    with big.open("wb") as file:
        file.truncate(MAX_IMAGE_BYTES + 1)
    with pytest.raises(ImageRefusedError, match=r"^huge\.jpg is 20\.0 MB, more than the 20 MB a picture may be"):
        read_image(big)
    with pytest.raises(ImageRefusedError, match="more than the 20 MB"):
        clean_image("huge.jpg", b"\xff" * (MAX_IMAGE_BYTES + 1))


def test_a_missing_file_and_too_many_pictures_are_said(tmp_path: Path) -> None:
    with pytest.raises(ImageRefusedError, match="gone.jpg cannot be read"):
        read_image(tmp_path / "gone.jpg")
    with pytest.raises(ImageRefusedError, match="9 pictures is more than the 8"):
        read_images([tmp_path / "a.jpg"] * 9)


def test_a_12_megapixel_photo_is_cleaned_in_well_under_a_second() -> None:
    photo = site_photo()
    started = time.perf_counter()
    clean_image("site.jpg", photo)
    assert time.perf_counter() - started < 5.0  # a generous bound: bench/images_bench.py measures it
