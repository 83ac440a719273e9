"""Bad input to a package: each is one clear sentence, or a package that still opens and reads right."""

from __future__ import annotations

import sys
from pathlib import Path

import pypdfium2
import pytest

from app.packages import PackageError, SignoffError
from domain.calculations import CalcResult
from domain.packages import Signer
from domain.records import ToolCall
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.package_helpers import BEAM, ask, pages, service, text_of, three_calculations

CHECKER = Signer(name="Ben Checker")


def opens(data: bytes) -> int:
    """The PDF's page count, as a reader that opens it sees it."""
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    return len(pypdfium2.PdfDocument(data))


async def test_an_empty_workspace_gives_a_package_that_says_so_and_cannot_be_signed(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat = spaces.workspaces.create("Nothing yet")
    package = spaces.packages.pdf(chat.chat_id)
    assert opens(package.data) == 1
    assert "This workspace has no calculations yet." in text_of(package.data)
    with pytest.raises(SignoffError, match="^This workspace has no calculations to sign off yet; ask for one first.$"):
        spaces.packages.sign_off(chat.chat_id, "checked", CHECKER)


async def test_a_ten_thousand_character_input_is_cut_with_a_note_and_the_page_still_reads(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat = spaces.workspaces.create("Long input")
    question = "Moment of this beam? " + "x" * 9_979
    assert len(question) == 10_000
    fake_ollama.script(Reply.tool_calls(BEAM), Reply.text("54 kN·m."))
    await ask(spaces, question)
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    long_input = ToolCall(id="call_1", name="office__lookup", arguments={"query": "W" * 10_000}, output="found it")
    store.add_to_history(chat.chat_id, "Look the section up", "Done.", tool_calls=[long_input], asked_by="Ana")
    package = spaces.packages.pdf(chat.chat_id)
    assert opens(package.data) >= 3
    text = text_of(package.data)
    assert "Moment of this beam? xxxx" in text and "[8,000 more characters, kept in the workspace's record]" in text
    assert "WWWW" in text and "found it" in text
    assert "max_moment 54 kN·m" in text, "the sheet after a long input is whole"


async def test_characters_outside_latin_1_and_markup_are_text_never_a_broken_pdf(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated, engineer="Zoë Ωmega-Ø")
    chat = spaces.workspaces.create("Brücke über die Spree — 橋梁 🌉")
    question = 'Beam at Ω = 3 m, φ ≤ 0.9, 中文 and 😀, #read("/etc/passwd") *bold* $x^2$ ]) \u202eevil'
    fake_ollama.script(Reply.tool_calls(BEAM), Reply.text("Done."))
    await ask(spaces, question)
    package = spaces.packages.pdf(chat.chat_id)
    assert opens(package.data) == 2
    text = text_of(package.data)
    assert "Ω = 3 m, φ ≤ 0.9, [U+4E2D][U+6587] and [U+1F600]" in text, "a glyph the font lacks is its code point"
    assert '#read("/etc/passwd") *bold* $x^2$ ]) [U+202E]evil' in text, "markup is shown as typed, never run"
    assert "root:" not in text
    assert "Brücke über die Spree — [U+6A4B][U+6881] [U+1F309]" in text and "Zoë Ωmega-Ø" in text
    assert "written as their code point, such as [U+4E2D]" in text, "the cover says why"


async def test_a_diagram_with_one_point_is_said_and_the_rest_of_the_sheet_is_there(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat = spaces.workspaces.create("Odd record")
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    diagram = {"x": [0.0], "shear": [1.0], "moment": [0.0], "x_unit": "m", "shear_unit": "kN", "moment_unit": "kN*m"}
    data = {"results": {"max_moment": "54 kN * m"}, "formula": "M = wL²/8", "diagram": diagram}
    calculation = CalcResult.model_validate(data)
    call = ToolCall(id="call_1", name="beam_analysis", arguments={"span": "6 m"}, output="{}", calculation=calculation)
    store.add_to_history(chat.chat_id, "Moment?", "54 kN·m.", tool_calls=[call], asked_by="Ana")
    text = text_of(spaces.packages.pdf(chat.chat_id).data)
    assert "The shear diagram is not drawn: its record has 1 point, and a line needs two." in text
    assert "The bending moment diagram is not drawn: its record has 1 point" in text
    assert "max_moment 54 kN·m" in text and "M = wL²/8" in text


async def test_who_signs_needs_a_name_an_engineers_role_and_a_short_note(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    refusals = {
        Signer(name="  "): "Signing off needs your name: set ENGINEER_NAME",
        Signer(name="Vic Viewer", role="viewer"): "Vic Viewer may view this workspace but not sign it off",
    }
    for who, sentence in refusals.items():
        with pytest.raises(SignoffError, match=sentence):
            spaces.packages.sign_off(chat_id, "checked", who)
        assert spaces.packages.status(chat_id, who).allowed == (), "no button for them"
    with pytest.raises(SignoffError, match="A sign-off note may be at most 1,000 characters; this one has 10,000."):
        spaces.packages.sign_off(chat_id, "checked", CHECKER, "n" * 10_000)
    assert spaces.packages.status(chat_id, CHECKER).revisions == [], "nothing was signed"


async def test_a_revision_that_does_not_exist_or_is_not_issued_is_one_sentence(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    with pytest.raises(LookupError, match=r"^Revision A is not issued yet \(draft\)"):
        spaces.packages.pdf(chat_id, "A")
    with pytest.raises(LookupError, match=r"^There is no issued revision C of this package \(issued: none yet\)\.$"):
        spaces.packages.pdf(chat_id, "C")
    with pytest.raises(ValueError, match="A revision is named by its letter, such as A or B"):
        spaces.packages.pdf(chat_id, "../etc")
    texts = pages(spaces.packages.pdf(chat_id).data)
    starts = [text.split("draft ", 1)[1][:20] for text in texts[1:] if "Asked " in text]
    # the cover, and a sheet for each calculation (the steel check's, with what it does not check, runs onto a second
    # page for its diagrams)
    assert [start.split()[0] for start in starts] == ["1.", "2.", "3."] and len(texts) <= 5, starts


async def test_without_the_typesetter_installed_the_package_is_one_sentence(
    fake_ollama: FakeOllama, isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    monkeypatch.setitem(sys.modules, "typst", None)  # as if the requirements were not installed again
    with pytest.raises(PackageError, match=r"^Making a PDF needs the typst package, which is not installed; install"):
        spaces.packages.pdf(chat_id)
