"""Working together, live: the page says who is asking, and draws itself again when what it shows changes under it.

While the page is open and idle, a timer reads what it shows that others change (`Application.live.activity`: one
light statement every LIVE_SECONDS, whichever process or person changed it: another tab, a colleague on another
web process, the protocol server, a terminal). A turn beginning in the open workspace shows its question and who
asks it, at the end of the conversation, where its answer will appear; anything else (the answer stored, a file
edit, a notification, the user's access) draws the whole page again, without a reload or a click.
"""

from __future__ import annotations

import streamlit as st

from app import Application, HistoryError
from domain.records import PageActivity, RunningTurn
from faces.web.markdown import escape_markdown

LIVE_SECONDS = 2.0  # how often an idle page looks: "bob is asking…" shows within about this
WRITING = "An answer is being written in this workspace; it appears here when it is done."


def watch_page(service: Application, drawn: PageActivity, asking: bool = True) -> None:
    """Where it is called, while a turn runs in the open workspace, its question and who asks it (with `asking`);
    and every LIVE_SECONDS, look again: once anything else the page was `drawn` from changed (a turn stored, a file
    edit, a notification, the user's access), draw the whole page again.

    Only the timer's own run may draw the page again (`faces.web.timers`); a turn beginning redraws only this."""
    chat_id = service.workspaces.current_id
    page_run = True

    @st.fragment(run_every=LIVE_SECONDS)
    def watch() -> None:
        nonlocal page_run
        now = drawn if page_run else _looked(service, chat_id, drawn)
        if not page_run and _besides_asking(now) != _besides_asking(drawn):
            st.rerun()
        page_run = False
        if asking and chat_id is not None and now.running_id is not None:
            someone_asking(service, chat_id)

    watch()


def _looked(service: Application, chat_id: int | None, drawn: PageActivity) -> PageActivity:
    try:
        return service.live.activity(chat_id)
    except HistoryError:  # the store is away for a moment: the next look tries again
        return drawn


def _besides_asking(activity: PageActivity) -> PageActivity:
    """What needs the whole page drawn again: all but which turn runs (a turn ending changes the turns too)."""
    return activity.model_copy(update={"running_id": None})


def someone_asking(service: Application, chat_id: int) -> None:
    """The question being answered in the workspace now, shown with who asks it: at the end of the conversation,
    where its answer will appear."""
    asking = service.live.asking(chat_id)
    if asking is None:
        return
    with st.chat_message("user"):
        st.markdown(escape_markdown(asking.question))
        st.caption(escape_markdown(who_is_asking(asking, service.user.name if service.user else None)))
    with st.chat_message("assistant"):
        st.caption(WRITING)


def who_is_asking(asking: RunningTurn, me: str | None) -> str:
    """ "bob is asking…", or where one's own question is being answered."""
    if asking.asked_by and asking.asked_by != me:
        return f"{asking.asked_by} is asking…"
    if asking.asked_by and me is not None:
        return "You are asking, in another tab or window…"
    return "Asked in another tab or window…"
