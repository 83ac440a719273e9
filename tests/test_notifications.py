"""Notifications for the people a change concerns, and what an open page watches, through the real application on
SQLite and PostgreSQL: a share tells whom it was shared with, a revision checked or approved tells the workspace's
owner and editors (not its viewers, not the one who signed), a file edit waiting tells the user whose question
proposed it until it is decided; each is kept until its user dismisses it, and nobody dismisses another's."""

from __future__ import annotations

from contextlib import aclosing

import pytest

from app import Application
from domain.packages import Signer
from fakes.ollama import FakeOllama, Reply
from tests.package_helpers import WORKSPACE, three_calculations
from tests.test_accounts_app import owner, user  # noqa: F401 - the fixture, and signing in


def said(view: Application) -> list[str]:
    return [note.text for note in view.notifications.mine()]


def test_a_share_tells_whom_it_was_shared_with_until_they_dismiss_it(owner: Application) -> None:  # noqa: F811
    ann, bob, vic = user(owner, "ann"), user(owner, "bob"), user(owner, "vic")
    chat_id = ann.workspaces.create("Footbridge").chat_id
    ann.sharing.share(chat_id, "bob", "editor")
    owner.sharing.share(chat_id, "vic", "viewer")  # on the server itself: nobody signed in
    assert said(bob) == ["ann shared Footbridge with you (editor)."] and said(ann) == []
    assert said(vic) == ["An admin shared Footbridge with you (viewer)."]
    (note,) = bob.notifications.mine()
    assert note.chat_id == chat_id
    with pytest.raises(LookupError, match="dismissed already"):
        vic.notifications.dismiss(note.notification_id)  # not hers: as if it were gone
    bob.notifications.dismiss(note.notification_id)
    assert said(bob) == [] and said(vic) != []
    with pytest.raises(LookupError, match="dismissed already"):
        bob.notifications.dismiss(note.notification_id)
    assert owner.notifications.mine() == [], "nobody signed in has none"


@pytest.mark.parametrize("store_target", ["sqlite"], indirect=True)
async def test_a_revision_checked_or_approved_tells_the_owner_and_editors(
    owner: Application,  # noqa: F811
    fake_ollama: FakeOllama,
) -> None:
    ann, bob, vic, ada = (user(owner, name) for name in ("ann", "bob", "vic", "ada"))
    chat_id = await three_calculations(ann, fake_ollama)
    ann.sharing.share(chat_id, "bob", "editor")
    ann.sharing.share(chat_id, "vic", "viewer")
    for view in (bob, vic):
        view.notifications.dismiss(view.notifications.mine()[0].notification_id)
    bob.packages.sign_off(chat_id, "checked", Signer(name="bob"))
    assert said(ann) == [f"Revision A checked by bob — ready to approve ({WORKSPACE})."]
    assert said(bob) == said(vic) == said(ada) == [], "not the checker, a viewer or an admin it is not shared with"
    ada.packages.sign_off(chat_id, "approved", Signer(name="ada"))
    approved = f"Revision A approved by ada ({WORKSPACE})."
    assert said(ann) == [approved], "the check's note went with the approval"
    assert said(bob) == [approved]
    assert said(vic) == [] and said(ada) == []


def test_a_file_edit_waiting_tells_whose_question_proposed_it_until_it_is_decided(
    owner: Application,  # noqa: F811
) -> None:
    ann, bob = user(owner, "ann"), user(owner, "bob")
    chat_id = ann.workspaces.create("Footbridge").chat_id
    ann.approvals.propose(chat_id, "notes.txt", None, b"Span 12 m\n")
    ann.approvals.propose(chat_id, "loads.txt", None, b"5 kN/m\n")
    assert said(ann) == [
        "An edit to loads.txt waits for your approval (Footbridge).",
        "An edit to notes.txt waits for your approval (Footbridge).",
    ]
    assert said(bob) == []
    first, second = ann.approvals.pending(chat_id)
    ann.approvals.approve(chat_id, first.edit_id)
    ann.approvals.reject(chat_id, second.edit_id)
    assert said(ann) == [], "decided: nothing waits any more"


async def test_what_an_open_page_watches_changes_with_what_it_shows(
    owner: Application,  # noqa: F811
    fake_ollama: FakeOllama,
) -> None:
    ann, bob, vic = user(owner, "ann"), user(owner, "bob"), user(owner, "vic")
    chat_id = ann.workspaces.create("Footbridge").chat_id
    seen = bob.live.activity(chat_id)
    assert not seen.seen and bob.live.asking(chat_id) is None, "not shared with bob: nothing of it"
    ann.sharing.share(chat_id, "bob", "editor")
    shared = bob.live.activity(chat_id)
    assert shared != seen and shared.seen and shared.notifications == 1
    fake_ollama.script(Reply.text("Twelve metres."))
    async with aclosing(ann.turns.ask("Span?", chat_id)) as events:
        await anext(events)
        asking = bob.live.asking(chat_id)
        assert asking is not None and (asking.asked_by, asking.question) == ("ann", "Span?")
        assert bob.live.activity(chat_id).running_id == asking.running_id and vic.live.asking(chat_id) is None
        assert [event async for event in events]
    after = bob.live.activity(chat_id)
    assert after != shared and after.turns == 1 and after.running_id is None
    assert bob.live.activity(chat_id) == after, "nothing changed: the same reading"
    assert vic.live.activity(chat_id) == vic.live.activity(None), "vic may not see it"
