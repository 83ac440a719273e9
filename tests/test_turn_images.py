"""Pictures with a question, through the application against the fake Ollama: sent cleaned as `images` on the
question's user message to a model whose capabilities include vision, refused before anything is stored or sent
for one without, counted as a fixed number of tokens, stored with the turn (on both backends, through a restart
and `db copy`), read back only by those who may read the workspace, and their SHA-256 in the audit trail."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from app import Application
from app.application import AccountSettings
from app.database import copy
from app.turns.images import ImageRefusedError, clean_image
from domain.events import AgentEvent, ErrorEvent, TurnCompleted
from engine.context_window import IMAGE_TOKENS, ContextWindow
from engine.prompt import build_window
from fakes.ollama import FakeOllama, Reply
from store import ChatHistoryDB
from tests.agent_helpers import make_agent
from tests.photos import assert_clean, site_photo, sketch_png

SEEING = "qwen2.5vl:7b"
BLIND = "qwen3:4b"
MODELS: dict[str, Sequence[str]] = {
    SEEING: ("completion", "vision", "tools"),
    BLIND: ("completion", "tools", "thinking"),
}


@pytest.fixture
def vision_ollama() -> Any:
    with FakeOllama(models=(SEEING, BLIND), capabilities=MODELS) as fake:
        yield fake


def open_app(fake: FakeOllama, target: str, model: str = SEEING, **options: Any) -> Application:
    return Application(ChatHistoryDB(target), make_agent(fake, model), **options)


async def events_of(stream: AsyncIterator[AgentEvent]) -> list[AgentEvent]:
    return [event async for event in stream]


def sent_images(fake: FakeOllama) -> list[bytes]:
    (request,) = [body for body in fake.chat_requests if body["model"] == SEEING]
    user = [message for message in request["messages"] if message["role"] == "user"]
    assert all("images" not in message for message in user[:-1]), "only the question carries pictures"
    return [base64.b64decode(image) for image in user[-1].get("images", [])]


async def test_a_vision_model_is_sent_the_photo_cleaned_upright_and_resized(
    vision_ollama: FakeOllama, tmp_path: Path
) -> None:
    service = open_app(vision_ollama, str(tmp_path / "history.sqlite"))
    chat = service.workspaces.create("Level 2 slab").chat_id
    photo = clean_image("crack.jpg", site_photo())
    vision_ollama.script(Reply.text("A hairline shrinkage crack."))
    events = await events_of(service.turns.ask("What is this crack?", chat, images=[photo]))
    assert isinstance(events[-1], TurnCompleted) and events[-1].stop_reason == "end_turn"
    (sent,) = sent_images(vision_ollama)
    assert sent == photo.data
    assert_clean(sent)
    (turn,) = service.turns.of(chat)
    (stored,) = turn.images
    assert (stored.width, stored.height, stored.sha256) == (1176, 1568, photo.sha256)
    assert service.turns.image(chat, stored.image_id) == photo.data
    service.close()


async def test_a_text_only_model_refuses_the_picture_and_nothing_is_stored_or_sent(
    vision_ollama: FakeOllama, tmp_path: Path
) -> None:
    service = open_app(vision_ollama, str(tmp_path / "history.sqlite"), model=BLIND)
    chat = service.workspaces.create("Site visit").chat_id
    with pytest.raises(ImageRefusedError, match=rf"^The model {BLIND} cannot see images.*choose a model"):
        await service.turns.check_images(chat)
    with pytest.raises(ImageRefusedError, match="cannot see images"):
        await events_of(service.turns.ask("What is this?", chat, images=[clean_image("a.png", sketch_png())]))
    assert vision_ollama.chat_requests == []
    assert service.turns.of(chat) == []
    assert service.turns.count(chat) == 0
    service.close()


async def test_the_engine_refuses_pictures_for_a_blind_model_before_sending_anything(
    vision_ollama: FakeOllama,
) -> None:
    agent = make_agent(vision_ollama, BLIND)
    request = agent.request("What is this?", images=(clean_image("a.png", sketch_png()).data,))
    events = [event async for event in agent.stream(request)]
    errors = [event for event in events if isinstance(event, ErrorEvent)]
    assert [error.code for error in errors] == ["IMAGES_UNSUPPORTED"]
    assert vision_ollama.chat_requests == []
    await agent.aclose()


def test_a_picture_counts_as_a_fixed_number_of_tokens_not_its_base64() -> None:
    picture = b"\xff" * 600_000  # 800,000 characters of base64: far beyond an 8,192-token context
    question = {"role": "user", "content": "What is this?", "images": [picture, picture]}
    window = build_window("system", None, [], [question], context=ContextWindow(8192, "NUM_CTX=8192"), tools_chars=0)
    assert 2 * IMAGE_TOKENS < window.tokens < 2 * IMAGE_TOKENS + 100


async def test_the_pictures_survive_a_restart_and_a_copy_on_either_backend(
    vision_ollama: FakeOllama, store_target: str, tmp_path: Path
) -> None:
    service = open_app(vision_ollama, store_target)
    chat = service.workspaces.create("Riverside").chat_id
    pictures = [clean_image("crack.jpg", site_photo()), clean_image("sketch.png", sketch_png())]
    vision_ollama.script(Reply.text("Shrinkage."))
    await events_of(service.turns.ask("What are these?", chat, images=pictures))
    service.close()
    reopened = open_app(vision_ollama, store_target)
    (turn,) = reopened.turns.of(chat)
    assert [reopened.turns.image(chat, image.image_id) for image in turn.images] == [p.data for p in pictures]
    assert [image.media_type for image in turn.images] == ["image/jpeg", "image/png"]
    reopened.close()
    copied = str(tmp_path / "copy.sqlite")
    copy(store_target, copied)
    from_copy = open_app(vision_ollama, copied)
    (turn,) = from_copy.turns.of(chat)
    assert [from_copy.turns.image(chat, image.image_id) for image in turn.images] == [p.data for p in pictures]
    from_copy.close()


async def test_a_picture_is_read_only_through_a_workspace_the_user_may_read_and_its_digest_is_audited(
    vision_ollama: FakeOllama, tmp_path: Path
) -> None:
    owner = open_app(vision_ollama, str(tmp_path / "history.sqlite"), accounts=AccountSettings("accounts"))
    for name in ("ann", "bob"):
        owner.accounts.add(name, "engineer", "a long enough password")
    ann, bob = (owner.for_user(owner.accounts.sign_in(n, "a long enough password")) for n in ("ann", "bob"))
    chat = ann.workspaces.create("Ann's site").chat_id
    photo = clean_image("crack.jpg", site_photo())
    vision_ollama.script(Reply.text("A crack."))
    await events_of(ann.turns.ask("What is this?", chat, images=[photo]))
    (image,) = ann.turns.of(chat)[0].images
    assert ann.turns.image(chat, image.image_id) == photo.data
    with pytest.raises(LookupError):
        bob.turns.image(chat, image.image_id)
    other = bob.workspaces.create("Bob's").chat_id
    with pytest.raises(LookupError):
        bob.turns.image(other, image.image_id)  # not through a workspace of his own either
    details = [record.detail for record in owner.audit.records(chat_id=chat) if record.action == "picture"]
    assert details == [f"picture 1: 1176 × 1568 image/jpeg, sha256 {photo.sha256}"]
    owner.close()


async def test_regenerate_asks_again_with_the_same_pictures(vision_ollama: FakeOllama, tmp_path: Path) -> None:
    service = open_app(vision_ollama, str(tmp_path / "history.sqlite"))
    chat = service.workspaces.create("Site").chat_id
    photo = clean_image("crack.jpg", site_photo())
    vision_ollama.script(Reply.text("First look."), Reply.text("Second look."))
    await events_of(service.turns.ask("What is this crack?", chat, images=[photo]))
    await events_of(service.turns.ask("What is this crack?", chat, regenerate=True))
    last = vision_ollama.chat_requests[-1]["messages"][-1]
    assert [base64.b64decode(image) for image in last["images"]] == [photo.data]
    assert [len(turn.images) for turn in service.turns.of(chat)] == [1, 1]
    service.close()


async def test_a_calculation_asked_with_a_photo_has_it_on_its_sheet_of_the_package(
    vision_ollama: FakeOllama, tmp_path: Path
) -> None:
    import pypdfium2
    import pypdfium2.raw as pdfium

    service = open_app(vision_ollama, str(tmp_path / "history.sqlite"))
    chat = service.workspaces.create("Podium").chat_id
    beam = {"span": "6 m", "load": "12 kN/m"}
    vision_ollama.script(
        Reply.tool_calls(("beam_analysis", beam)), Reply.text("54 kN·m."), Reply.tool_calls(("beam_analysis", beam)),
        Reply.text("Again 54 kN·m."),
    )  # fmt: skip
    await events_of(
        service.turns.ask("Moment in the beam of this sketch?", chat, images=[clean_image("s.png", sketch_png())])
    )
    await events_of(service.turns.ask("And without a sketch?", chat))
    document = pypdfium2.PdfDocument(service.packages.pdf(chat).data)
    pictures = [
        sum(1 for _ in page.get_objects(filter=[pdfium.FPDF_PAGEOBJ_IMAGE])) for page in document
    ]  # the cover, the index, then a sheet a calculation
    assert pictures[-2:] == [1, 0], pictures
    service.close()
