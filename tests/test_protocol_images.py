"""Pictures over the protocol (`images`, base64, on a dispatch), through `python main.py serve` on real sockets
against a fake Ollama whose `/api/show` says which model sees: a phone photo of several megabytes (a line far past
1 MiB) reaches the vision model cleaned, resized and upright, and `get-session` gives it back as `request.images`;
a text-only model or a file that is no picture is `INVALID_REQUEST` with the sentence, before any turn starts or
workspace is made; only a dispatch that carries images may pass 1 MiB."""

from __future__ import annotations

import base64
from pathlib import Path

from fakes.ollama import FakeOllama, Reply, is_summary_request
from tests.photos import as_base64, assert_clean, site_photo
from tests.protocol_client import running_server
from tests.test_turn_images import BLIND, MODELS, SEEING

ASK = {"type": "dispatch", "agentID": "assistant"}


def vision_fake() -> FakeOllama:
    fake = FakeOllama(models=(SEEING, BLIND), capabilities=MODELS)
    fake.summary_reply = Reply.text("Summary.")
    return fake


def questions(fake: FakeOllama) -> list[dict]:
    return [body["messages"][-1] for body in fake.chat_requests if not is_summary_request(body)]


def test_a_large_photo_reaches_the_vision_model_cleaned_and_comes_back_with_the_session(isolated: Path) -> None:
    photo = site_photo(grainy=True)
    assert len(as_base64(photo)) > 4 * 1024 * 1024, "the dispatch's line is several times the 1 MiB of others"
    with vision_fake() as fake, running_server(fake.url, isolated, "--model", SEEING) as server:
        fake.script(Reply.text("A shrinkage crack."))
        client = server.connect()
        events = client.request({**ASK, "id": "p1", "content": "What is this crack?", "images": [as_base64(photo)]})
        assert [events[0]["type"], events[-1]["type"]] == ["turn-started", "turn-completed"], events
        assert events[-1]["content"] == "A shrinkage crack."
        (question,) = questions(fake)
        (sent,) = [base64.b64decode(image) for image in question["images"]]
        assert_clean(sent)
        (session,) = client.request({"id": "g", "type": "get-session", "sessionID": events[-1]["sessionID"]})
        (turn,) = session["turns"]
        assert turn["request"]["content"] == "What is this crack?"
        assert [base64.b64decode(image) for image in turn["request"]["images"]] == [sent]


def test_a_text_only_model_or_a_file_that_is_no_picture_is_invalid_before_the_turn(isolated: Path) -> None:
    with vision_fake() as fake, running_server(fake.url, isolated, "--model", BLIND) as server:
        client = server.connect()
        photo = as_base64(site_photo())
        (refused,) = client.request({**ASK, "id": "b1", "content": "What is this?", "images": [photo]})
        assert refused["type"] == "error" and refused["code"] == "INVALID_REQUEST"
        assert refused["message"].startswith(f"The model {BLIND} cannot see images")
        not_a_picture = base64.b64encode(b"%PDF-1.7").decode()
        (bad,) = client.request({**ASK, "id": "b2", "content": "And this?", "images": [photo, not_a_picture]})
        assert (bad["code"], bad["message"]) == (
            "INVALID_REQUEST",
            "image 2 is not a PNG, JPEG or WebP image, so it was not sent.",
        )
        (garbled,) = client.request({**ASK, "id": "b3", "content": "And this?", "images": ["not base64!"]})
        assert garbled["message"] == "image 1 is not base64, so it was not sent."
        (sessions,) = client.request({"id": "l", "type": "list-sessions"})
        assert sessions["sessions"] == [], "no workspace was made"
        assert fake.chat_requests == []


def test_only_a_dispatch_with_images_may_pass_1_mib(isolated: Path) -> None:
    with vision_fake() as fake, running_server(fake.url, isolated, "--model", SEEING) as server:
        client = server.connect()
        padded = {"id": "big", "type": "list-sessions", "images": ["x"], "padding": "x" * (1024 * 1024)}
        (refused,) = client.request(padded)
        assert refused["code"] == "INVALID_REQUEST"
        assert refused["message"] == "only a dispatch that carries images may be longer than 1,048,576 bytes"
        (sessions,) = client.request({"id": "l", "type": "list-sessions"})
        assert sessions["type"] == "sessions", "the connection goes on"
        assert fake.chat_requests == []
