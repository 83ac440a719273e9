"""Pictures in the web page (Streamlit's AppTest against a fake Ollama whose `/api/show` says which model sees): a
phone photo attached to the question reaches the vision model cleaned, resized and upright and is shown in the
question, again after a reload with `?chat=`; a text-only model, or a file that is no picture, is one sentence on
the page and nothing is sent or stored."""

from __future__ import annotations

import base64
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fakes.ollama import FakeOllama, Reply
from tests.conftest import ROOT
from tests.photos import assert_clean, site_photo, sketch_png
from tests.test_turn_images import BLIND, MODELS, SEEING


@pytest.fixture
def vision_ollama(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    with FakeOllama(models=(SEEING, BLIND), capabilities=MODELS) as fake:
        monkeypatch.setenv("ENDPOINT", fake.url)
        monkeypatch.setenv("EMBED_MODEL", "")
        yield fake


def page() -> AppTest:
    return AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)


def shown_pictures(at: AppTest) -> int:
    return sum(len(element.proto.imgs) for element in at.get("image"))


def stored_turns(folder: Path) -> int:
    with sqlite3.connect(folder / "chat_history.sqlite") as db:
        return int(db.execute("SELECT COUNT(*) FROM history").fetchone()[0])


def test_attached_photos_reach_the_vision_model_cleaned_and_stay_in_the_question(
    vision_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MODEL", SEEING)
    vision_ollama.script(Reply.text("A shrinkage crack, and the sketch shows a cantilever."))
    at = page().run()
    box = at.chat_input(key="question")
    box.upload("crack.jpg", site_photo(), "image/jpeg").upload("sketch.png", sketch_png(), "image/png")
    at = box.set_value("What are these?").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    question = vision_ollama.chat_requests[-1]["messages"][-1]
    sent = [base64.b64decode(image) for image in question["images"]]
    assert len(sent) == 2
    for picture in sent:
        assert_clean(picture)
    assert shown_pictures(at) == 2
    again = page()
    again.query_params["chat"] = at.query_params["chat"]
    again.run()
    assert shown_pictures(again) == 2, "a reload shows the pictures with their question"


def test_a_text_only_model_refuses_the_photo_and_nothing_is_sent(
    vision_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch, isolated: Path
) -> None:
    monkeypatch.setenv("MODEL", BLIND)
    at = page().run()
    at = at.chat_input(key="question").upload("crack.jpg", site_photo(), "image/jpeg").set_value("What is it?").run()
    assert [error.value for error in at.error if "cannot see images" in error.value], "the sentence is shown"
    assert vision_ollama.chat_requests == []
    assert stored_turns(isolated) == 0


def test_a_file_that_is_no_picture_is_refused_by_name_and_nothing_is_sent(
    vision_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch, isolated: Path
) -> None:
    monkeypatch.setenv("MODEL", SEEING)
    at = page().run()
    box = at.chat_input(key="question")
    at = box.upload("notes.png", b"%PDF-1.7 not a picture", "image/png").set_value("And this?").run()
    assert any("notes\\.png is not a PNG, JPEG or WebP image" in error.value for error in at.error), at.error
    assert vision_ollama.chat_requests == []
    assert stored_turns(isolated) == 0
