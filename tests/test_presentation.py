"""One presentation of a calculation: the terminal, the web card, the Markdown report and the signed package write
every number the same way (one ratio precision, the governing check marked, no floating-point artefacts), and the
verdict says what it covers and what was not checked, in all four."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from streamlit.testing.v1 import AppTest

from app.presentation.calculation import precise_value, present
from app.reports.exports import calculation_report
from domain.calculations import CalcResult, Check
from domain.records import ToolCall
from faces.cli.calculations import calculation_lines
from fakes.ollama import FakeOllama
from history import ChatHistoryDB
from tests.package_helpers import service, text_of
from tools.steel import steel_beam_check

W18X50 = {"designation": "W18X50", "span": "35 ft", "dead_load": "0.45 kip/ft", "live_load": "0.75 kip/ft"}
ARTEFACT = re.compile(r"\d\.\d*(?:0000000|9999999)\d")  # 1.7400000000000004, 195.74999999999994
BOLTS_ONLY = CalcResult(
    results={"design_shear": "71.57 kip"},
    checks=[
        Check(name="Vu ≤ φRn: bolt shear", value="60 kip", limit="71.57 kip", status="OK", ratio=0.838, kind="maximum"),
        Check(name="edge distance", value="1.5 in", limit="1.25 in", status="OK", ratio=0.833, kind="minimum"),
    ],
    not_checked=["bearing and tear-out at the holes: give ply_thickness and ply_grade", "block shear (J4.3)"],
    covers="bolt shear and edge distance only",
)


def test_full_precision_is_shown_without_the_arithmetic_s_noise() -> None:
    assert precise_value("1.7400000000000004 kip / ft") == "1.74 kip/ft"
    assert precise_value("195.74999999999994 kip * ft") == "195.75 kip·ft"
    assert precise_value("11.911764705882351 mm") == "11.9117647059 mm"
    assert precise_value(["22.5 kN", "75.00000000000001 kN"]) == "22.5 kN, 75 kN"
    assert precise_value("A992 (Fy = 50 ksi)") == "A992 (Fy = 50 ksi)", "text stays text"


def test_the_verdict_covers_what_was_checked_and_names_what_was_not() -> None:
    shown = present(BOLTS_ONLY)
    assert shown.verdict_line == "OK for bolt shear and edge distance only"
    assert [c.relation for c in shown.checks] == ["≤", "≥"], "a minimum is read from its kind, not a '≥' in its name"
    assert shown.checks[0].governs and not shown.checks[1].governs
    failing = BOLTS_ONLY.model_copy(update={"checks": [BOLTS_ONLY.checks[0].model_copy(update={"status": "NG"})]})
    assert (
        present(failing).verdict_line
        == "NG for bolt shear and edge distance only: 1 of 1 check fails (worst ratio 0.838)"
    )
    unscoped = BOLTS_ONLY.model_copy(update={"covers": None})
    assert present(unscoped).verdict_line == "OK for the checks made", "never a bare OK when something was not checked"


def test_the_four_faces_write_the_same_figures(app: AppTest, fake_ollama: FakeOllama, isolated: Path) -> None:
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    chat = store.create_chat("Level 3 framing")
    beam = steel_beam_check("W18X50", "35 ft", "0.45 kip/ft", "0.75 kip/ft")
    calls = [
        ToolCall(id="1", name="steel_beam_check", arguments=W18X50, output="{}", calculation=beam),
        ToolCall(id="2", name="bolt_check", arguments={}, output="{}", calculation=BOLTS_ONLY),
    ]
    store.add_to_history(chat, "Is a W18x50 OK over 35 ft?", "Yes.", tool_calls=calls)
    turns = store.get_turns(chat)
    workspace = store.get_chat(chat)
    assert workspace is not None
    faces = {
        "terminal": "\n".join(line for result in (beam, BOLTS_ONLY) for _, line in calculation_lines(result)),
        "report": calculation_report(workspace, turns, generated=datetime(2026, 12, 1, tzinfo=UTC)),
        "web card": web_card_text(app),
        "package": " ".join(text_of(service(fake_ollama, isolated).packages.pdf(chat).data).split()),
    }
    for face, text in faces.items():
        for ratio in ("0.703", "0.159", "0.936"):  # Mu/φMn, Vu/φVn, deflection: the same three everywhere
            assert ratio in text, (face, ratio)
        assert not re.search(r"ratio 0\.\d\d\b(?!\d)|\(\d+ %\)", text), (face, "another precision")
        assert not ARTEFACT.search(text), (face, ARTEFACT.search(text))
        assert "bolt shear and edge distance only" in text, face
        assert "block shear (J4.3)" in text, (face, "what was not checked")


def web_card_text(at: AppTest) -> str:
    at.run()
    assert not at.exception
    shown = [element.value for element in [*at.markdown, *at.warning, *at.caption, *at.code]]
    return " ".join(str(value).replace("\\", "") for value in shown)
