"""Working together in the web page, through Streamlit's AppTest on a real SQLite file: a question another process
asks in the open workspace is shown with who asks it until its answer is stored, then the answer; notifications are
in the sidebar with Open and Dismiss, and one dismissed meanwhile in another tab is a sentence, not an error. The
timer that draws an idle page again is driven in a real browser (tests/browser/test_working_together_in_browser.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app import start
from history import ChatHistoryDB
from tests.test_roles_in_the_faces import opened, tower  # noqa: F401 - the fixture
from tests.test_web_accounts import page_text

SHARED = "ann shared Ann tower with you (editor)."


def test_a_question_asked_elsewhere_shows_who_asks_it_then_its_answer(
    app: AppTest,
    tower: int,  # noqa: F811
    isolated: Path,
) -> None:
    opened(app, "vic", tower)
    store = ChatHistoryDB(isolated / "chat_history.sqlite")  # bob, on another web process
    running = store.begin_turn(tower, "And over 30 ft?", "qwen3:4b", "bob")
    app.run()
    assert not app.exception
    assert "bob is asking…" in page_text(app) and "And over 30 ft?" in page_text(app)
    assert "An answer is being written in this workspace" in page_text(app)
    store.add_to_history(tower, "And over 30 ft?", "Yes, with room to spare.", running_id=running, asked_by="bob")
    app.run()
    assert "bob is asking" not in page_text(app) and "Yes, with room to spare." in page_text(app)


def test_ones_own_question_in_another_tab_is_said_so(app: AppTest, tower: int, isolated: Path) -> None:  # noqa: F811
    opened(app, "bob", tower)
    ChatHistoryDB(isolated / "chat_history.sqlite").begin_turn(tower, "And over 30 ft?", "qwen3:4b", "bob")
    app.run()
    assert "You are asking, in another tab or window…" in page_text(app)


def notes_of(app: AppTest) -> list[str]:
    return [str(m.value).replace("\\", "") for m in app.sidebar.markdown if "with you" in str(m.value)]


def test_a_notification_opens_its_workspace_and_is_dismissed(
    app: AppTest,
    tower: int,  # noqa: F811
    isolated: Path,
) -> None:
    base = start(isolated / ".env", {})
    try:
        other = base.for_user(base.accounts.user("bob")).workspaces.create("Bob bridge").chat_id
    finally:
        base.close()
    app.query_params["chat"] = str(other)
    opened(app, "bob", other)
    assert notes_of(app) == [SHARED]
    (note,) = [b for b in app.button if b.key and b.key.startswith("open-note-")]
    note.click().run()
    assert "Ann tower" in [h.value for h in app.subheader], "Open: its workspace"
    assert not [b for b in app.button if b.key and b.key.startswith("open-note-")], "no Open where it is open"
    (dismiss,) = [b for b in app.button if b.key and b.key.startswith("dismiss-note-")]
    dismiss.click().run()
    assert notes_of(app) == [] and not app.exception


@pytest.mark.parametrize("user", ["bob", "vic"])
def test_a_notification_dismissed_in_another_tab_is_a_sentence(
    app: AppTest,
    tower: int,  # noqa: F811
    isolated: Path,
    user: str,
) -> None:
    opened(app, user, tower)
    (dismiss,) = [b for b in app.button if b.key and b.key.startswith("dismiss-note-")]
    base = start(isolated / ".env", {})
    try:
        view = base.for_user(base.accounts.user(user))
        view.notifications.dismiss(view.notifications.mine()[0].notification_id)  # in another tab
    finally:
        base.close()
    dismiss.click().run()
    assert not app.exception and "dismissed already" in page_text(app)
