"""How turns are drawn: answers (line breaks, units, copy, time), calculation cards, diagrams, live tool calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from streamlit.testing.v1 import AppTest

from app.presentation.calculation import present
from domain.calculations import CalcResult, Check
from domain.records import ToolCall
from faces.web.cards import check_line, diagram_spec, span_ticks
from faces.web.markdown import keep_line_breaks
from faces.web.view import model_text
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB

FAILING_BEAM = {"span": "6 m", "load": "12 kN/m", "elastic_modulus": "200 GPa", "moment_of_inertia": "2e7 mm**4"}


def ask(at: AppTest, text: str) -> AppTest:
    return at.chat_input(key="question").set_value(text).run()


def plain(markdown: str) -> str:
    """Markdown as read: escapes removed."""
    return markdown.replace("\\", "")


def check(name: str, value: str, limit: str, status: str) -> Check:
    """A check as a record kept before every check carried its ratio."""
    return Check.model_validate({"name": name, "value": value, "limit": limit, "status": status})


def test_ratios_and_the_governing_check() -> None:
    deflection = check("deflection ≤ L/360", "31.2 mm", "20 mm", "NG")
    stress = check("stress ≤ limit", "200 MPa", "250 MPa", "OK")
    bearing = check("bearing ≤ limit", "1.2e3 kPa", "1000 kPa", "NG")
    cover = check("cover ≥ minimum", "30 mm", "40 mm", "NG")
    assert deflection.ratio == pytest.approx(1.56) and stress.ratio == pytest.approx(0.8)
    assert cover.ratio == pytest.approx(40 / 30), "a minimum: the ratio is limit over value"
    assert check("odd", "3 m", "2 ft", "NG").ratio is None, "different units do not compare"
    assert "ratio" not in deflection.model_dump(exclude_unset=True), "the ratio worked out is not put in the record"
    shown = present(CalcResult(results={}, checks=[stress, cover, bearing, deflection])).checks
    assert [c.name for c in shown] == ["deflection ≤ L/360", "cover ≥ minimum", "bearing ≤ limit", "stress ≤ limit"]
    assert [plain(check_line(c)) for c in shown] == [
        ":material/cancel: :red[**NG** · deflection ≤ L/360: 31.2 mm > limit 20 mm (ratio 1.560) · **governs**]",
        ":material/cancel: :red[**NG** · cover ≥ minimum: 30 mm < limit 40 mm (ratio 1.333)]",
        ":material/cancel: :red[**NG** · bearing ≤ limit: 1.2e3 kPa > limit 1000 kPa (ratio 1.200)]",
        ":material/check_circle: **OK** · stress ≤ limit: 200 MPa ≤ limit 250 MPa (ratio 0.800)",
    ]
    with pytest.raises(ValidationError, match="status"):
        check("x", "1 m", "2 m", "warning")  # a check passes (OK) or fails (NG)


def test_a_diagram_spans_exactly_the_beam_and_labels_its_peak() -> None:
    spec = diagram_spec([0.0, 1.5, 3.0, 4.5, 6.0], [0.0, 40.5, 54.0, 40.5, 0.0], "m", "M", "kN·m")
    x = spec["encoding"]["x"]
    assert x["scale"] == {"domain": [0, 6.0], "nice": False, "zero": False, "padding": 0}
    assert x["axis"]["values"][-1] == 6.0
    label = spec["layer"][-1]
    assert label["data"]["values"] == [{"x": 3.0, "y": 54.0, "label": "max |M| = 54 kN·m"}]
    assert label["mark"]["align"] == "center"
    hogging = diagram_spec([0.0, 3.0], [-108.0, 0.0], "m", "M", "kN·m")["layer"][-1]
    assert hogging["data"]["values"][0]["label"] == "max |M| = 108 kN·m" and hogging["mark"]["align"] == "left"
    assert span_ticks(6.0) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert span_ticks(7.5) == [0.0, 2.0, 4.0, 6.0, 7.5]
    assert span_ticks(20.0) == [0.0, 5.0, 10.0, 15.0, 20.0]


def test_single_line_breaks_are_kept_and_units_made_readable_outside_code() -> None:
    text = "Span 6 m\nLoad 12 kN/m\n\n```\nx = 1\ny = 2\n```\nDone\n~~~\na\nb\n~~~"
    assert keep_line_breaks(text) == "Span 6 m  \nLoad 12 kN/m\n\n```\nx = 1\ny = 2\n```\nDone\n~~~\na\nb\n~~~"
    prose = "M = 54 kN * m, from `M = w * L ** 2 / 8`;\nI = 8.5e7 mm ** 4"
    assert model_text(prose) == "M = 54 kN·m, from `M = w * L ** 2 / 8`;  \nI = 8.5e7 mm⁴"


def test_a_failed_check_is_red_with_its_ratio_and_the_diagrams_span_the_beam(
    app: AppTest, fake_ollama: FakeOllama
) -> None:
    fake_ollama.script(Reply.tool_calls(("beam_analysis", FAILING_BEAM)), Reply.text("It fails in deflection."))
    app.run()
    ask(app, "Check the 6 m beam")
    assert not app.exception
    (assistant,) = [m for m in app.chat_message if m.name == "assistant"]
    lines = [plain(m.value) for m in assistant.markdown if ":red[" in m.value]
    assert lines == [
        ":material/cancel: :red[**NG** · deflection ≤ L/360: 50.62 mm > limit 16.67 mm (ratio 3.038)"
        " · IBC 2021 Table 1604.3 (floor members)]",
        ":red[**Verdict:** NG for the deflection under the load given against L/360 only: 1 of 1 check fails"
        " (worst ratio 3.038)]",
    ]
    specs = [json.loads(chart.proto.spec) for chart in app.get("vega_lite_chart")]
    assert [s["encoding"]["x"]["scale"]["domain"] for s in specs] == [[0, 6.0], [0, 6.0]]
    assert [s["layer"][-1]["data"]["values"][0]["label"] for s in specs] == ["max |V| = 36 kN", "max |M| = 54 kN·m"]


def test_the_governing_check_comes_first(app: AppTest, isolated: Path) -> None:
    db = ChatHistoryDB(isolated / "chat_history.sqlite")
    chat = db.create_chat("Footing")
    checks = [
        check("stress ≤ limit", "200 MPa", "250 MPa", "OK"),
        check("bearing ≤ limit", "120 kPa", "100 kPa", "NG"),
        check("settlement ≤ limit", "31.2 mm", "20 mm", "NG"),
    ]
    kept = CalcResult.model_validate({"results": {"area": "4 m ** 2"}, "checks": checks})  # as an older version kept it
    call = ToolCall(id="call_1", name="pad_footing", arguments={}, output="{}", calculation=kept)
    db.add_to_history(chat, "Footing?", "It fails.", tool_calls=[call])
    app.run()
    shown = [plain(m.value) for m in app.markdown if "limit" in m.value and "Verdict" not in m.value]
    assert [line.split("· ")[1].split(":")[0] for line in shown] == [
        "settlement ≤ limit",
        "bearing ≤ limit",
        "stress ≤ limit",
    ]
    assert shown[0].endswith("(ratio 1.560) · **governs**]") and ":red[" in shown[1] and ":red[" not in shown[2]
    assert "4 m²" in app.table[0].value["value"].tolist()


def test_an_answer_keeps_its_line_breaks_and_units_and_offers_copy_and_its_time(
    app: AppTest, fake_ollama: FakeOllama
) -> None:
    code = "```python\nM = w * L ** 2 / 8\nV = w * L / 2\n```"
    answer = f"Moment 54 kN * m\nShear 36 kN\n\n{code}"
    fake_ollama.script(Reply.text(answer))
    app.run()
    ask(app, "Moment and shear?")
    (assistant,) = [m for m in app.chat_message if m.name == "assistant"]
    assert (
        assistant.markdown[-1].value
        == "Moment 54 kN·m  \nShear 36 kN\n\n```python\nM = w * L ** 2 / 8\nV = w * L / 2\n```"
    )
    assert [c.value for c in assistant.code] == [
        "Moment 54 kN·m\nShear 36 kN\n\n```python\nM = w * L ** 2 / 8\nV = w * L / 2\n```"
    ]
    (footer,) = [c for c in assistant.caption if c.proto.help]
    assert footer.proto.help.startswith("Answered ") and footer.value.startswith("qwen3:4b")


@pytest.mark.parametrize("ending", ["the turn completes as stopped", "the stream is cut off"])
def test_no_tool_call_is_left_running_after_the_turn(ending: str) -> None:
    def script(ending: str) -> None:
        import streamlit as st

        from domain.events import ToolCallStarted, TurnCompleted
        from faces.web.view import LiveView

        with st.chat_message("assistant"):
            view = LiveView()
            view.show(ToolCallStarted(id="call_1", name="beam_analysis", arguments={"span": "6 m"}))
            if ending == "the turn completes as stopped":
                view.show(TurnCompleted(content="Partial", stop_reason="stopped", model="qwen3:4b"))
            else:
                view.finish()

    at = AppTest.from_function(script, kwargs={"ending": ending}).run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert not any("Running" in caption for caption in captions), captions
    assert "Stopped before this tool finished: no result." in captions
    assert [e.icon for e in at.expander] == [":material/block:"]
