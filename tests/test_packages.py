"""Calculation packages through the service: the PDF read back holds what the records hold, sign-off follows its
rules, and approval freezes a revision's bytes."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pypdfium2.raw as pdfium
import pytest

from app.packages import SignoffError
from app.packages.records import package_calculations, records_digest
from app.presentation.calculation import present
from app.presentation.formatting import pretty_units, result_text
from domain.packages import ProjectDetails, Signer
from domain.records import ToolCall, Turn
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.package_helpers import (
    BEAM,
    PREPARER,
    RED,
    STEEL_QUESTION,
    WORKSPACE,
    ask,
    coloured_words,
    object_kinds,
    pages,
    service,
    text_of,
    three_calculations,
)

CHECKER, APPROVER = Signer(name="Ben Checker"), Signer(name="Cara Approver")


async def test_the_package_holds_every_result_ratio_clause_and_name_of_the_records(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    package = spaces.packages.pdf(chat_id)
    assert package.letter == "A" and package.status == "draft" and not package.issued
    text = text_of(package.data)
    assert "Revision A — draft" in text and WORKSPACE in text and f"Prepared by {PREPARER}" in text
    calls = [call for turn in spaces.turns.of(chat_id) for call in turn.tool_calls if not call.error]
    assert [call.name for call in calls] == ["steel_beam_check", "load_combination", "continuous_beam"]
    for number, call in enumerate(calls, 1):
        record = call.calculation
        assert record is not None
        assert f"{number}. {call.name}" in text
        for name, value in record.results.items():
            assert f"{name} {result_text(value)}" in text, (call.name, name)
        for check in present(record).checks:
            name = check.name + (" (governs)" if check.governs else "")
            row = f"{name} {check.value} {check.relation} {check.limit} {check.ratio} {check.status}"
            assert row in text and check.clause and check.clause in text, row
        assert record.reference and record.reference in text
        assert record.substituted and pretty_units(record.substituted) in text
    assert "Mu ≤ φMn: lateral-torsional buckling" in text and "8.960 NG AISC 360-22 F2.2 eq. F2-3" in text
    assert "1 tool call that ended in an error is not in the package" in text
    assert STEEL_QUESTION in text
    assert "No: it fails" not in text and "Use 20 kN/m." not in text, "the model's answers are not in it"


async def test_ng_is_red_and_the_diagrams_are_drawn_as_vectors(fake_ollama: FakeOllama, isolated: Path) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    data = spaces.packages.pdf(chat_id).data
    assert RED in coloured_words(data, "NG"), "a failed check's NG is red"
    assert set(coloured_words(data, "OK")) == {(0, 0, 0)}
    kinds = object_kinds(data)
    assert pdfium.FPDF_PAGEOBJ_PATH in kinds and pdfium.FPDF_PAGEOBJ_IMAGE not in kinds, "vector, not raster"
    text = text_of(data)
    assert "Shear V (kip)" in text and "max |M| = 266.4 kip·ft at x = 17.5 ft" in text
    assert "Bending moment M (kN·m), sagging positive" in text and "max |M| = 45 kN·m at x = 6 m" in text


async def test_every_page_has_page_x_of_y_the_revision_and_the_records_digest(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    texts = pages(spaces.packages.pdf(chat_id).data)
    cover = texts[0]
    digest = cover.split("Records digest ", 1)[1].split(" Calculations")[0].replace(" ", "")
    assert len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)
    for number, page in enumerate(texts, 1):
        assert f"Page {number} of {len(texts)}" in page
        assert f"{WORKSPACE} · Revision A — draft · records digest {digest[:16]}" in page
    index = cover.split("Index", 1)[1]
    assert "1 steel_beam_check" in index and " NG 2 " in index, "the index gives each sheet's page"


async def test_approval_freezes_revision_a_and_a_later_calculation_starts_b(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    assert "checked by Ben Checker" in spaces.packages.sign_off(chat_id, "checked", CHECKER, "Checked against S-301")
    issued = spaces.packages.sign_off(chat_id, "approved", APPROVER)
    frozen = spaces.packages.pdf(chat_id)
    assert frozen.issued and frozen.letter == "A" and f"SHA-256 {frozen.sha256}" in issued
    assert hashlib.sha256(frozen.data).hexdigest() == frozen.sha256
    text = text_of(frozen.data)
    assert "Revision A ·" in text and "draft" not in text.split("Revisions")[0]
    assert "Checked by Ben Checker" in text and "Checked against S-301" in text and "Approved by Cara Approver" in text
    spaces.workspaces.rename(chat_id, "Level 3 framing (renamed)")
    assert spaces.packages.pdf(chat_id).data == frozen.data, "every download of A gives the bytes approved"
    assert spaces.packages.pdf(chat_id, "A").data == frozen.data
    fake_ollama.script(Reply.tool_calls(BEAM), Reply.text("54 kN·m."))
    await ask(spaces, "Moment of the 6 m beam at 12 kN/m?")
    assert spaces.packages.pdf(chat_id, "A").data == frozen.data, "what happens after does not change A"
    draft = spaces.packages.pdf(chat_id)
    assert draft.letter == "B" and draft.status == "draft"
    text = text_of(draft.data)
    assert "Revision B — draft" in text and "4. beam_analysis" in text
    assert "A 20" in text and "approved First issue: 3 calculations." in text
    assert "Added 4. beam_analysis; 4 calculations." in text, "the revision table says what changed"
    with pytest.raises(LookupError, match="Revision B is not issued yet"):
        spaces.packages.pdf(chat_id, "B")
    assert spaces.packages.verify(frozen.data) is not None
    assert spaces.packages.verify(draft.data) is None


async def test_the_checker_may_not_be_the_preparer_and_each_step_comes_in_order(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    for preparer in (Signer(name=PREPARER), Signer(name="  ana   PREPARER ")):
        with pytest.raises(SignoffError, match="the checker may not be the preparer"):
            spaces.packages.sign_off(chat_id, "checked", preparer)
    status = spaces.packages.status(chat_id, Signer(name=PREPARER))
    assert status.allowed == () and "checked" in status.refusals
    with pytest.raises(SignoffError, match="must be checked before it is approved"):
        spaces.packages.sign_off(chat_id, "approved", APPROVER)
    assert spaces.packages.status(chat_id, CHECKER).allowed == ("checked",)
    spaces.packages.sign_off(chat_id, "checked", CHECKER)
    with pytest.raises(SignoffError, match="already checked"):
        spaces.packages.sign_off(chat_id, "checked", CHECKER)
    assert spaces.packages.status(chat_id, APPROVER).allowed == ("approved",)
    spaces.packages.sign_off(chat_id, "approved", APPROVER)
    for step in ("checked", "approved"):
        with pytest.raises(SignoffError, match="Revision A is already approved .*starts revision B"):
            spaces.packages.sign_off(chat_id, step, APPROVER)
    revisions = spaces.packages.status(chat_id, APPROVER).revisions
    assert [(r.letter, r.status, r.checked_by, r.approved_by) for r in revisions] == [
        ("A", "approved", "Ben Checker", "Cara Approver")
    ]


async def test_a_check_made_before_a_new_calculation_does_not_cover_it(fake_ollama: FakeOllama, isolated: Path) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    spaces.packages.sign_off(chat_id, "checked", CHECKER)
    fake_ollama.script(Reply.tool_calls(BEAM), Reply.text("54 kN·m."))
    await ask(spaces, "Moment of the 6 m beam at 12 kN/m?")
    assert spaces.packages.status(chat_id, APPROVER).status == "draft"
    with pytest.raises(SignoffError, match="changed after Ben Checker checked revision A"):
        spaces.packages.sign_off(chat_id, "approved", APPROVER)
    spaces.packages.sign_off(chat_id, "checked", Signer(name="Dan Checker"))
    spaces.packages.sign_off(chat_id, "approved", APPROVER)
    text = text_of(spaces.packages.pdf(chat_id, "a").data)
    assert "Checked by Dan Checker" in text and "4. beam_analysis" in text


async def test_the_cover_shows_the_project_and_a_change_to_it_after_approval_starts_the_next_revision(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat_id = await three_calculations(spaces, fake_ollama)
    details = ProjectDetails(project_name="Riverside Offices", project_number="P-2041", client="Harbour Ltd",
                             description="Level 3 steel framing")  # fmt: skip
    assert spaces.packages.project_details(chat_id, details) == details
    text = text_of(spaces.packages.pdf(chat_id).data)
    assert "Project Riverside Offices Project number P-2041 Client Harbour Ltd" in text
    assert "Riverside Offices (P-2041) Revision A — draft" in pages(spaces.packages.pdf(chat_id).data)[1]
    spaces.packages.sign_off(chat_id, "checked", CHECKER)
    spaces.packages.sign_off(chat_id, "approved", APPROVER)
    spaces.packages.project_details(chat_id, details.model_copy(update={"client": "Harbour Developments Ltd"}))
    draft = spaces.packages.pdf(chat_id)
    assert draft.letter == "B" and "Project details changed; 3 calculations." in text_of(draft.data)
    assert "Client Harbour Ltd" in text_of(spaces.packages.pdf(chat_id, "A").data)
    with pytest.raises(ValueError, match="at most 500 characters"):
        spaces.packages.project_details(chat_id, details.model_copy(update={"client": "x" * 501}))


# check_structural_integrity's record as the store kept it before calculations were typed: its check has no ratio.
KEPT_EARLIER = {
    "results": {"stress": "200 MPa", "limit": "250 MPa", "safety_factor": "1.25", "verdict": "SAFE"},
    "precise": {"stress": "200.0 MPa", "limit": "250.0 MPa", "safety_factor": "1.25", "verdict": "SAFE"},
    "diagram": None,
    "formula": "σ = m·g/A; safety factor = limit/σ",
    "substituted": "σ = 2.039e+04 kg × 9.80665 m/s² / 0.001 m² = 200 MPa",
    "reference": None,
    "checks": [
        {
            "name": "stress ≤ limit",
            "value": "200 MPa",
            "limit": "250 MPa",
            "status": "OK",
            "ratio": None,
            "clause": None,
        }
    ],
    "notes": ["Simplified limits (concrete 25, steel 250, wood 10 MPa), not a code design check."],
    "warnings": [],
}


def earlier_digest(turn: Turn, record: dict[str, Any]) -> str:
    """The records digest as the version that kept `record` worked it out (from the stored dictionary)."""
    (call,) = turn.tool_calls
    canonical = [{"key": f"{turn.turn_id}:{call.id}", "asked_at": turn.created_at, "asked_by": turn.asked_by,
                  "question": turn.user, "tool": call.name, "arguments": call.arguments, "output": call.output,
                  "data": record}]  # fmt: skip
    text = json.dumps(canonical, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def test_a_record_kept_before_calculations_were_typed_reads_back_whole_and_keeps_its_digest(
    fake_ollama: FakeOllama, isolated: Path
) -> None:
    spaces = service(fake_ollama, isolated)
    chat = spaces.workspaces.create("Kept earlier")
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    call = ToolCall(id="call_1", name="check_structural_integrity", arguments={"material": "steel"}, output="{}")
    store.add_to_history(chat.chat_id, "Stress?", "Fine.", tool_calls=[call], asked_by="Ana")
    with closing(sqlite3.connect(isolated / "chat_history.sqlite")) as raw, raw:
        raw.execute("UPDATE tool_calls SET data = ?", (json.dumps(KEPT_EARLIER),))
    (turn,) = spaces.turns.of(chat.chat_id)
    record = turn.tool_calls[0].calculation
    assert record is not None and record.stored() == KEPT_EARLIER, "read back as it was kept"
    assert record.checks[0].ratio == pytest.approx(0.8) and record.verdict == "OK", "its ratio worked out to show"
    found, _ = package_calculations([turn])
    assert records_digest(found) == earlier_digest(turn, KEPT_EARLIER), "a revision signed on it still matches"
    assert "stress ≤ limit 200 MPa ≤ 250 MPa 0.800 OK" in text_of(spaces.packages.pdf(chat.chat_id).data)


async def test_a_record_that_no_longer_reads_leaves_its_turn_whole(fake_ollama: FakeOllama, isolated: Path) -> None:
    spaces = service(fake_ollama, isolated)
    chat = spaces.workspaces.create("Odd record")
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    call = ToolCall(id="call_1", name="pad_footing", arguments={"width": "2 m"}, output="area 4 m²")
    store.add_to_history(chat.chat_id, "Footing?", "4 m².", tool_calls=[call, call], asked_by="Ana")
    with closing(sqlite3.connect(isolated / "chat_history.sqlite")) as raw, raw:
        raw.execute("UPDATE tool_calls SET data = ? WHERE position = 0", ('{"results": 5}',))
        raw.execute("UPDATE tool_calls SET data = ? WHERE position = 1", (json.dumps(KEPT_EARLIER),))
    (turn,) = spaces.turns.of(chat.chat_id)
    assert [c.output for c in turn.tool_calls] == ["area 4 m²", "area 4 m²"] and turn.assistant == "4 m²."
    assert turn.tool_calls[0].calculation is None and turn.tool_calls[1].calculation is not None
    assert "area 4 m²" in text_of(spaces.packages.pdf(chat.chat_id).data), "the sheet shows what the tool returned"
