"""Pictures from the command line (`--once … --image PATH`, `/image PATH [QUESTION]`), through the real CLI against
a fake Ollama whose `/api/show` says which model sees: the phone photo reaches the vision model cleaned, resized and
upright; a text-only model or a file that is no picture is one sentence, exit 2, nothing sent; the picture comes back
after a restart and `/export` writes it beside the Markdown, linked by file name."""

from __future__ import annotations

import base64
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fakes.ollama import FakeOllama, Reply, is_summary_request
from tests.cli_helpers import run_cli
from tests.photos import assert_clean, site_photo
from tests.test_turn_images import BLIND, MODELS, SEEING


@pytest.fixture
def vision_ollama() -> Iterator[FakeOllama]:
    with FakeOllama(models=(SEEING, BLIND), capabilities=MODELS) as fake:
        yield fake


@pytest.fixture
def photo(isolated: Path) -> Path:
    path = isolated / "crack.jpg"
    path.write_bytes(site_photo())
    return path


def questions(fake: FakeOllama) -> list[dict[str, Any]]:
    """The questions sent (the summary written on leaving aside)."""
    return [body["messages"][-1] for body in fake.chat_requests if not is_summary_request(body)]


def sent_pictures(fake: FakeOllama) -> list[bytes]:
    return [base64.b64decode(image) for image in questions(fake)[-1].get("images", [])]


def stored_turns(folder: Path) -> int:
    with sqlite3.connect(folder / "chat_history.sqlite") as db:
        return int(db.execute("SELECT COUNT(*) FROM history").fetchone()[0])


def test_once_sends_the_photo_cleaned_to_a_vision_model(vision_ollama: FakeOllama, photo: Path) -> None:
    vision_ollama.script(Reply.text("A shrinkage crack."))
    result = run_cli("--once", "What is this crack?", "--image", str(photo), "--server", vision_ollama.url,
                     "--model", SEEING)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "A shrinkage crack." in result.stdout
    (sent,) = sent_pictures(vision_ollama)
    assert_clean(sent)


def test_once_with_a_text_only_model_exits_2_and_sends_and_stores_nothing(
    vision_ollama: FakeOllama, photo: Path, isolated: Path
) -> None:
    result = run_cli("--once", "What is this?", "--image", str(photo), "--server", vision_ollama.url, "--model", BLIND)
    assert result.returncode == 2
    assert re.search(rf"The model {re.escape(BLIND)} cannot see images.*choose a model that can", result.stderr)
    assert vision_ollama.chat_requests == []
    assert stored_turns(isolated) == 0


def test_once_refuses_a_file_that_is_no_picture_naming_it(vision_ollama: FakeOllama, isolated: Path) -> None:
    fake = isolated / "drawing.png"
    fake.write_bytes(b"%PDF-1.7 a drawing, not a picture")
    result = run_cli("--once", "What is this?", "--image", str(fake), "--server", vision_ollama.url, "--model", SEEING)
    assert result.returncode == 2
    assert result.stderr.strip() == "drawing.png is not a PNG, JPEG or WebP image, so it was not sent."
    assert vision_ollama.chat_requests == []


def test_image_without_once_is_a_usage_error(vision_ollama: FakeOllama, photo: Path) -> None:
    result = run_cli("--image", str(photo), "--server", vision_ollama.url)
    assert result.returncode == 2 and "--image goes with --once" in result.stderr


def test_the_prompt_sends_a_picture_and_export_writes_it_beside_the_markdown_after_a_restart(
    vision_ollama: FakeOllama, photo: Path, isolated: Path
) -> None:
    vision_ollama.script(Reply.text("Shrinkage, not structural."))
    typed = f"/image {photo} Is this crack structural?\n/exit\n"
    result = run_cli("--server", vision_ollama.url, "--model", SEEING, stdin=typed)
    assert result.returncode == 0, result.stderr
    assert "crack.jpg: 1176 × 1568 px, without its metadata." in result.stdout
    (sent,) = sent_pictures(vision_ollama)
    assert_clean(sent)
    assert questions(vision_ollama)[-1]["content"] == "Is this crack structural?"
    again = run_cli("--server", vision_ollama.url, "--model", SEEING, stdin="/export site.md\n/exit\n")  # a restart
    assert again.returncode == 0, again.stderr
    markdown = (isolated / "site.md").read_text()
    (link,) = re.findall(r"!\[Picture 1: 1176 × 1568 JPEG\]\(<(site-images/image-\d+\.jpg)>\)", markdown)
    assert (isolated / link).read_bytes() == sent
