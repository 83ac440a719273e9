"""One user cannot crowd out the others: another's thousands of workspaces neither hide a user's own from their
search nor land in their list, and MAX_WORKSPACES_PER_USER caps what one user owns and shares with everyone, in one
sentence. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from app import Application, ForbiddenError
from app.accounts.user_turns import UserTurns
from app.application import AccountSettings
from fakes.ollama import FakeOllama
from store import ChatHistoryDB
from tests.agent_helpers import make_agent
from tests.test_accounts_app import PASSWORD, user

CROWD = 1_500


def office(store_target: str, fake_ollama: FakeOllama, most: int) -> Application:
    """The server's owner with AUTH=accounts and MAX_WORKSPACES_PER_USER=`most`."""
    settings = AccountSettings("accounts", UserTurns(2), most_workspaces=most)
    return Application(ChatHistoryDB(store_target), make_agent(fake_ollama), accounts=settings)


def test_anothers_thousands_of_workspaces_neither_hide_mine_nor_reach_my_list(store_target: str) -> None:
    store = ChatHistoryDB(store_target)
    try:
        ann, bob = store.add_user("ann", "engineer", "h"), store.add_user("bob", "engineer", "h")
        mine = store.create_chat("Ann's footbridge", owner=ann)
        store.add_to_history(mine, "Check the steel beam", "The beam passes.")
        for number in range(CROWD):  # bob's, each newer than ann's and matching her words
            chat = store.create_chat(f"Bob {number}", owner=bob)
            store.add_to_history(chat, "Check the steel beam", "Another beam.")
        assert [hit.chat_id for hit in store.search_chats("steel beam", viewer=ann)] == [mine]
        assert [chat.chat_id for chat in store.recent_chats(viewer=ann)] == [mine]
        assert store.count_chats(viewer=ann) == 1 and len(store.search_chats("steel beam", viewer=bob)) == 20
    finally:
        store.close()


def test_one_user_owns_and_shares_with_everyone_at_most_the_cap(store_target: str, fake_ollama: FakeOllama) -> None:
    capped = office(store_target, fake_ollama, 3)
    for name in ("ann", "bob"):
        capped.accounts.add(name, "engineer", PASSWORD)
    ann, bob = user(capped, "ann"), user(capped, "bob")
    made = [ann.workspaces.create(f"Tower {number}").chat_id for number in range(3)]
    with pytest.raises(ForbiddenError) as refused:
        ann.workspaces.create("Tower 4")
    assert str(refused.value) == (
        "One user may own at most 3 workspaces (MAX_WORKSPACES_PER_USER); delete some you no longer need."
    )
    assert bob.workspaces.create("Bob's own").chat_id, "the cap is each user's own"
    ann.sharing.share_with_everyone(made[0])
    ann.sharing.share_with_everyone(made[1])
    capped.close()
    tighter = office(store_target, fake_ollama, 2)  # the office lowers the cap
    ann = user(tighter, "ann")
    ann.sharing.share_with_everyone(made[0])  # shared already: nothing more counted
    with pytest.raises(ForbiddenError) as refused:
        ann.sharing.share_with_everyone(made[2])
    assert str(refused.value) == (
        "One user may share at most 2 workspaces with everyone (MAX_WORKSPACES_PER_USER); unshare some."
    )
    ann.workspaces.delete(made[2])
    with pytest.raises(ForbiddenError, match="own at most 2 workspaces"):
        ann.workspaces.create("Tower 5")
    denied = [r.detail for r in tighter.audit.records() if r.action == "denied"]
    assert denied == ["exceed 3 workspaces owned", "exceed 2 workspaces shared with everyone",
                      "exceed 2 workspaces owned"]  # fmt: skip
    tighter.close()
