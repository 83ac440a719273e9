"""The sidebar: workspaces grouped by the reader's day, each with its menu, and readable search hits."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from streamlit.testing.v1 import AppTest

from faces.web.dates import activity_group, group_of, hover_time
from faces.web.snippets import hit_snippet
from history import ChatHistoryDB

TODAY = date(2026, 11, 23)
PARIS = ZoneInfo("Europe/Paris")


def store(isolated: Path) -> ChatHistoryDB:
    return ChatHistoryDB(isolated / "chat_history.sqlite")


def set_last_active(isolated: Path, chat_id: int, when: datetime) -> None:
    """Move a workspace's last activity back in time (the store only ever writes "now")."""
    with sqlite3.connect(isolated / "chat_history.sqlite") as db:
        db.execute(
            "UPDATE chats SET last_active_at = ? WHERE chat_id = ?",
            (when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"), chat_id),
        )
    db.close()


def sidebar_outline(at: AppTest) -> list[str]:
    """The group headings and workspace buttons of the sidebar, top to bottom."""
    outline = []
    for node in at.sidebar:
        if node.type == "caption" and node.value.startswith("**"):
            outline.append(node.value.strip("*"))
        elif node.type == "button" and str(node.key).startswith(("workspace-", "hit-")):
            outline.append(f"  {node.label}")
    return outline


@pytest.mark.parametrize(
    ("last_active", "group"),
    [
        (date(2026, 11, 23), "Today"),
        (date(2026, 11, 24), "Today"),  # a clock that ran ahead
        (date(2026, 11, 22), "Yesterday"),
        (date(2026, 11, 21), "Previous 7 days"),
        (date(2026, 11, 16), "Previous 7 days"),
        (date(2026, 11, 15), "Previous 30 days"),
        (date(2026, 10, 24), "Previous 30 days"),
        (date(2026, 10, 23), "October 2026"),
        (date(2025, 11, 30), "November 2025"),
        (None, "Earlier"),
    ],
)
def test_the_groups_of_the_workspace_list(last_active: date | None, group: str) -> None:
    assert activity_group(last_active, TODAY) == group


def test_a_workspace_is_grouped_by_the_readers_day_not_by_utc() -> None:
    # 23:30 UTC on the 22nd is 00:30 on the 23rd in Paris: today there, yesterday in UTC.
    assert group_of("2026-11-22 23:30:00", TODAY, PARIS) == "Today"
    assert group_of("2026-11-22 23:30:00", TODAY, UTC) == "Yesterday"
    assert group_of("2026-11-22 22:59:59.999999", TODAY, PARIS) == "Yesterday"
    assert group_of(None, TODAY, PARIS) == group_of("not a time", TODAY, PARIS) == "Earlier"
    assert hover_time("2026-11-22 23:30:05", PARIS) == "Mon 23 Nov 2026, 00:30:05"


def test_search_snippets_are_plain_words_with_the_matches_in_bold() -> None:
    raw = '…{"name": "pad_footing", "arguments": {"load": "1200 kN", "note": "Footing \\"F1\\""}} **done**…'
    shown = hit_snippet(raw, "footing")
    assert not set('{}[]"`') & set(shown.replace("\\", "")), shown
    assert shown.count("**") == 4 and "pad\\_**footing**" in shown and "**Footing**" in shown
    assert hit_snippet("C3 needs 100%", "%") == r"C3 needs 100**%**"


def test_workspaces_are_listed_under_today_yesterday_earlier_days_and_months(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    now = datetime.now(UTC).astimezone()
    ages = [("March audit", None), ("Canopy", 20), ("Basement wall", 4), ("Roof truss", 1), ("Tower A", 0)]
    for name, days in ages:
        chat = db.create_chat(name)
        when = datetime(2025, 3, 10, 12, tzinfo=UTC) if days is None else now - timedelta(days=days)
        set_last_active(isolated, chat, when)
    app.run()
    assert not app.exception
    assert sidebar_outline(app) == [
        "Today",
        "  Tower A",
        "Yesterday",
        "  Roof truss",
        "Previous 7 days",
        "  Basement wall",
        "Previous 30 days",
        "  Canopy",
        "March 2025",
        "  March audit",
    ]


def test_any_workspace_is_renamed_from_its_menu(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    other, current = db.create_chat("Tower A"), db.create_chat("Bridge deck")
    app.run()
    assert [t.key for t in app.text_input if t.key.startswith(("search", "name-"))] == ["search"], (
        "no name to edit until asked"
    )
    app.button(key=f"rename-{other}").click().run()
    app.text_input(key=f"name-{other}").set_value("  Tower A — level 3 slab ")
    app.button(key=f"FormSubmitter:rename-form-{other}-Rename").click().run()
    assert not app.exception
    assert db.get_chat(other).chat_name == "Tower A — level 3 slab"
    assert app.button(key=f"workspace-{other}").label == "Tower A — level 3 slab", "the list shows it at once"
    assert app.query_params["chat"] == str(current), "renaming does not open it"
    assert [t.key for t in app.text_input if t.key.startswith(("search", "name-"))] == ["search"], (
        "the menu is back to its buttons"
    )
    app.button(key=f"rename-{other}").click().run()
    app.text_input(key=f"name-{other}").set_value("   ")
    app.button(key=f"FormSubmitter:rename-form-{other}-Rename").click().run()
    assert db.get_chat(other).chat_name == "Tower A — level 3 slab", "a blank name changes nothing"


def test_delete_from_the_menu_asks_first_and_names_what_goes(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    other, current = db.create_chat("Tower A"), db.create_chat("Bridge deck")
    db.add_to_history(other, "Pad footing?", "2.4 m square.")
    set_last_active(isolated, other, datetime.now(UTC) - timedelta(days=1))
    app.run()
    app.button(key=f"delete-{other}").click().run()
    assert any("Delete Tower A and its 1 turn?" in w.value for w in app.sidebar.warning)
    app.button(key=f"delete-cancelled-{other}").click().run()
    assert db.get_chat(other) is not None and not app.sidebar.warning
    app.button(key=f"delete-{other}").click().run()
    app.button(key=f"delete-confirmed-{other}").click().run()
    assert not app.exception
    assert db.get_chat(other) is None and db.get_chat(current) is not None
    assert app.query_params["chat"] == str(current)
    assert sidebar_outline(app) == ["Today", "  Bridge deck"]


def test_the_open_workspace_is_listed_even_when_it_is_old(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    old = db.create_chat("Old warehouse")
    set_last_active(isolated, old, datetime(2025, 1, 5, 9, tzinfo=UTC))
    for i in range(31):
        db.create_chat(f"Recent {i}")
    app.query_params["chat"] = str(old)
    app.run()
    assert sidebar_outline(app)[-2:] == ["January 2025", "  Old warehouse"]
    assert any("1 older workspace: use the search box." in c.value for c in app.sidebar.caption)
    assert [d.proto.label for d in app.get("download_button")] == ["Calculation report", "Export as Markdown"]


def test_a_search_hit_shows_a_readable_snippet_under_its_button(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    tower = db.create_chat("Tower A")
    db.add_to_history(tower, "Size it", '{"name": "pad_footing", "arguments": {"width": "2.4 m"}} for column C3')
    app.run()
    app.sidebar.text_input(key="search").set_value("footing").run()
    hit = app.button(key=f"hit-{tower}")
    assert hit.label == "Tower A"
    (snippet,) = [c.value for c in app.sidebar.caption if "footing" in c.value]
    assert "pad\\_**footing**" in snippet and "2\\.4 m" in snippet
    assert not set('{}"') & set(snippet), snippet
    app.sidebar.text_input(key="search").set_value("tower").run()
    assert app.button(key=f"hit-{tower}").label == "**Tower** A", "a name that matches shows the match"


def test_the_digital_twin_says_when_it_was_written_in_the_readers_time(app: AppTest, isolated: Path) -> None:
    db = store(isolated)
    chat = db.create_chat("Tower A")
    db.set_context_summary(chat, "- Tower A: 45 m tall.")
    with sqlite3.connect(isolated / "chat_history.sqlite") as raw:
        raw.execute("UPDATE chats SET context_updated_at = '2026-11-22 23:30:05' WHERE chat_id = ?", (chat,))
    raw.close()
    app.context = {"timezone": "Europe/Paris"}
    app.run()
    assert not app.exception
    (twin,) = [e for e in app.sidebar.expander if e.label == "Digital twin"]
    assert "Updated Mon 23 Nov 2026, 00:30:05" in [c.value for c in twin.caption], "Paris time, not UTC"
    assert not any("UTC" in e.label for e in app.sidebar.expander)
