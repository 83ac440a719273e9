"""Pictures in a real browser: two attached to the question (a phone photo with GPS in its EXIF, and a sketch) reach
the vision model cleaned and upright, are shown in the question, and again after a reload with `?chat=`; a file
that is no picture is refused with its sentence, and nothing is sent or stored."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.browser.conftest import Browser, send
from tests.photos import assert_clean, site_photo, sketch_png
from tests.test_turn_images import BLIND, MODELS, SEEING

PICTURES = "[data-testid='stChatMessage'] [data-testid='stImage'] img"


@pytest.fixture
def fake_ollama(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    """A vision model, the one the app uses, beside a text-only one."""
    monkeypatch.setenv("MODEL", SEEING)
    monkeypatch.setenv("EMBED_MODEL", "")
    with FakeOllama(models=(SEEING, BLIND), capabilities=MODELS) as fake:
        yield fake


def attach(page: Page, *paths: Path) -> None:
    """Attach files to the question and wait until they are uploaded (until then, Send is disabled)."""
    page.locator("[data-testid='stChatInput'] input[type='file']").set_input_files([str(p) for p in paths])
    expect(page.get_by_test_id("stFileChip")).to_have_count(len(paths))
    expect(page.get_by_test_id("stFileChipIconSpinner")).to_have_count(0)


def turns_stored(folder: Path) -> int:
    store = ChatHistoryDB(folder / "chat_history.sqlite")
    try:
        return sum(store.count_turns(chat_id) for chat_id, _, _ in store.list_chats())
    finally:
        store.close()


def test_two_pictures_are_sent_cleaned_shown_and_shown_again_after_a_reload(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    photo, sketch = isolated / "crack.jpg", isolated / "sketch.png"
    photo.write_bytes(site_photo())
    sketch.write_bytes(sketch_png())
    fake_ollama.script(Reply.text("A shrinkage crack; the sketch is a cantilever."))
    page = browser.page
    page.goto(web_app)
    attach(page, photo, sketch)
    send(page, "What do these show?")
    page.get_by_text("A shrinkage crack; the sketch is a cantilever.").first.wait_for()
    question = fake_ollama.chat_requests[-1]["messages"][-1]
    sent = [base64.b64decode(image) for image in question["images"]]
    assert len(sent) == 2
    for picture in sent:
        assert_clean(picture)
    expect(page.locator(PICTURES)).to_have_count(2)
    assert "chat=" in page.url
    chat = page.url.split("chat=")[-1]
    page.goto(web_app)  # another workspace first, so the reload is the link's doing
    page.goto(f"{web_app}/?chat={chat}")
    page.get_by_text("What do these show?").first.wait_for()
    expect(page.locator(PICTURES)).to_have_count(2)
    assert browser.outside_requests == []


def test_a_refused_upload_says_why_and_sends_nothing(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    fake = isolated / "notes.png"
    fake.write_bytes(b"%PDF-1.7 meeting notes, not a picture")
    page = browser.page
    page.goto(web_app)
    attach(page, fake)
    send(page, "What is in this?")
    expect(page.get_by_text("notes.png is not a PNG, JPEG or WebP image, so it was not sent.")).to_be_visible()
    assert fake_ollama.chat_requests == []
    assert turns_stored(isolated) == 0
