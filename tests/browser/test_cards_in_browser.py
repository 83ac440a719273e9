"""Calculation cards in a real browser: what Vega draws, and what it says in the console while it draws."""

from __future__ import annotations

import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage

from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.browser.conftest import ARTIFACTS, Browser, send

FAILING_BEAM = {"span": "6 m", "load": "12 kN/m", "elastic_modulus": "200 GPa", "moment_of_inertia": "2e7 mm**4"}
EARLIER_WORK = [  # name, days since it was last used (None: a fixed date long ago)
    ("Retaining wall", None),
    ("Canopy", 12),
    ("Basement wall", 3),
    ("Roof truss", 1),
    ("Tower A footing", 0),
]


def seed_earlier_work(store: Path) -> None:
    db = ChatHistoryDB(store)
    chats = {name: db.create_chat(name) for name, _ in EARLIER_WORK}
    db.close()
    now = datetime.now(UTC)
    with sqlite3.connect(store) as raw:
        for name, days in EARLIER_WORK:
            when = datetime(2026, 3, 10, 12, tzinfo=UTC) if days is None else now - timedelta(days=days)
            raw.execute(
                "UPDATE chats SET last_active_at = ? WHERE chat_id = ?",
                (when.strftime("%Y-%m-%d %H:%M:%S"), chats[name]),
            )
    raw.close()


def is_vega_warning(message: ConsoleMessage) -> bool:
    """Vega logs through the console as "WARN …" (warnings) and "ERROR …"."""
    text = message.text
    return text.startswith(("WARN", "ERROR")) or (message.type == "warning" and "vega" in text.lower())


def test_beam_diagrams_span_the_beam_label_their_peaks_and_warn_nothing(
    browser: Browser, web_app: str, fake_ollama: FakeOllama, isolated: Path
) -> None:
    page = browser.page
    page.set_viewport_size({"width": 1280, "height": 1100})
    console: list[ConsoleMessage] = []
    page.on("console", lambda message: console.append(message))
    seed_earlier_work(isolated / "chat_history.sqlite")
    fake_ollama.script(Reply.tool_calls(("beam_analysis", FAILING_BEAM)), Reply.text("It fails in deflection."))
    page.goto(web_app)
    page.get_by_role("button", name="New workspace").click()
    page.wait_for_url("**/?chat=6")
    page.get_by_text("No turns here yet").first.wait_for()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "empty-workspace.png"))  # the README's picture of a first visit
    send(page, "Check the 6 m beam")
    page.get_by_text("It fails in deflection.").first.wait_for()
    page.reload()  # the stored turn, as it is drawn from then on
    page.get_by_text("It fails in deflection.").first.wait_for()
    page.get_by_text("beam_analysis(span='6 m'").first.click()
    charts = page.get_by_test_id("stVegaLiteChart")
    charts.nth(1).locator("svg").first.wait_for()
    time.sleep(1.0)  # Vega logs its warnings as it lays the charts out
    x_axes = [axis.get_attribute("aria-label") for axis in charts.locator("[aria-label^='X-axis']").all()]
    assert x_axes == ["X-axis titled 'x (m)' for a linear scale with values from 0 to 6"] * 2, "exactly the span"
    labels = charts.locator("svg text").all_text_contents()
    assert "max |V| = 36 kN" in labels and "max |M| = 54 kN·m" in labels
    assert labels.count("6") == 2 and not {"7", "6.5"} & set(labels), "the span's end is labelled, nothing past it"
    failed = page.get_by_text("NG · deflection ≤ L/360: 50.62 mm > limit 16.67 mm (ratio 3.038)")
    assert failed.is_visible()
    assert [f"{m.type}: {m.text}" for m in console if is_vega_warning(m)] == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.get_by_test_id("stSidebar").screenshot(path=str(ARTIFACTS / "sidebar.png"))
    page.screenshot(path=str(ARTIFACTS / "calculation-card.png"))
    assert browser.outside_requests == []


COLUMN = {
    "width": "16 in",
    "height": "16 in",
    "bars": "8 #9",
    "concrete": "5000 psi",
    "steel": "Grade 60",
    "axial_load": "271 kip",
    "moment": "200 kip*ft",
    "effective_depth": "13.5 in",
}


def test_a_column_s_curve_and_section_are_drawn_with_their_labels_and_warn_nothing(
    browser: Browser, web_app: str, fake_ollama: FakeOllama
) -> None:
    page = browser.page
    page.set_viewport_size({"width": 1280, "height": 1600})
    console: list[ConsoleMessage] = []
    page.on("console", lambda message: console.append(message))
    fake_ollama.script(Reply.tool_calls(("concrete_column_check", COLUMN)), Reply.text("It works."))
    page.goto(web_app)
    send(page, "Check the 16 in column for 271 kips and 200 kip-ft")
    page.get_by_text("It works.").first.wait_for()
    page.reload()
    page.get_by_text("It works.").first.wait_for()
    page.get_by_text("concrete_column_check(width='16 in'").first.click()
    charts = page.get_by_test_id("stVegaLiteChart")
    charts.nth(1).locator("svg").first.wait_for()
    time.sleep(1.0)  # Vega logs its warnings as it lays the charts out
    labels = charts.locator("svg text").all_text_contents()
    assert (
        "Interaction diagram: the applied load lies inside the design curve (ratio 0.832 at its eccentricity)" in labels
    )
    assert "(200 kip·ft, 271 kip)" in labels and "applied load, inside" in labels
    assert "moment M (kip·ft)" in labels and "axial load P, compression positive (kip)" in labels
    assert "width b = 16 in (x from the left face, in)" in labels
    bars = charts.nth(1).locator("path[aria-roledescription='point']").all()
    assert len(bars) == 8
    boxes = [bar.bounding_box() for bar in bars]
    assert all(box is not None for box in boxes)
    pixels = 260 / 16  # the section's longer side is 260 pixels
    assert {round(box["width"], 1) for box in boxes if box} == {round(1.128 * pixels, 1)}, "bars to scale"
    lefts = sorted({round(box["x"], 1) for box in boxes if box})
    tops = sorted({round(box["y"], 1) for box in boxes if box})
    assert lefts[-1] - lefts[0] == pytest.approx((13.561 - 2.439) * pixels, abs=0.5), "the section's scale across"
    assert tops[-1] - tops[0] == pytest.approx((13.5 - 2.5) * pixels, abs=0.5), "and the same scale down"
    assert [f"{m.type}: {m.text}" for m in console if is_vega_warning(m)] == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "column-card.png"), full_page=True)
    assert browser.outside_requests == []
