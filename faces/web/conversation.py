"""The conversation: past turns, proposed file edits, and a live turn streamed as it arrives."""

from __future__ import annotations

import threading
from collections.abc import Callable

import streamlit as st
from streamlit.runtime.scriptrunner import StopException

from app import Application, edit_diff
from app.presentation.formatting import visible_bidi_controls
from domain.records import CleanImage, FileEdit, Turn
from faces.web import actions
from faces.web.background import LiveReply, live_replies
from faces.web.markdown import escape_markdown, escape_name
from faces.web.pictures import show_pictures
from faces.web.state import loop, show_earlier, state, sync_url
from faces.web.sync_bridge import iterate_sync
from faces.web.view import LiveView, past_turn

WAIT_TICK_SECONDS = 0.02  # how often a click (Stop, another workspace) is looked for while the model is silent
FINISH_WAIT_SECONDS = 5.0


EXAMPLE_QUESTIONS = (
    "Maximum moment and deflection of a 6 m simply supported beam under 12 kN/m?",
    "Buckling load of a 4 m pinned steel column, I = 2,770 cm⁴?",
    "Factored load for 5 kPa dead and 3 kPa live (1.2D + 1.6L)?",
    "Concrete volume of a 2 x 2 x 0.6 m pad footing, and the rebar weight of 12 H16 bars 1.9 m long?",
    "Convert 50 ksi to MPa, and 1,200 lb·ft to kN·m.",
    "What files are in this project's folder?",
)


def conversation(service: Application, can_change: bool = True) -> None:
    """The open workspace's turns; with `can_change` False (a reader), without Regenerate, Edit and approvals."""
    chat = service.workspaces.current
    state.shown_chat_id = chat.chat_id if chat else None
    st.subheader(escape_name(chat.chat_name) if chat else "New workspace", anchor=False)
    turns = service.turns.of(chat.chat_id, limit=state.turn_window) if chat else []
    if not turns:
        if can_change:
            empty_workspace()
        else:
            st.caption("No turns here yet.")
        return
    if service.turns.has_earlier(turns[0].chat_id, turns[0].turn_id):
        st.button("Show earlier turns", on_click=show_earlier, key="earlier", icon=":material/expand_less:")
    for turn in turns[:-1] if can_change else turns:
        past_turn(turn)
    if can_change:
        last_turn(turns[-1])
        for edit in service.approvals.pending(turns[-1].chat_id):
            proposed_edit(edit, service.approvals.may_decide(edit))


def empty_workspace() -> None:
    """What the assistant can do, as questions an engineer would ask; a click sends one."""
    st.caption("No turns here yet. Ask about your project, or start with one of these:")
    columns = st.columns(2)
    for number, question in enumerate(EXAMPLE_QUESTIONS):
        columns[number % 2].button(
            question,
            key=f"example-{number}",
            on_click=actions.send_example,
            args=(question,),
            width="stretch",
            icon=":material/lightbulb:",
        )


def last_turn(turn: Turn) -> None:
    """The newest turn, with Regenerate and Edit (an edited question replaces the turn)."""
    if state.get("editing_last") == turn.turn_id:
        with st.form(f"edit-last-{turn.turn_id}", border=False):
            st.text_area("Edit your question", value=turn.user, key=f"edited-{turn.turn_id}")
            left, right, _ = st.columns([1, 1, 4])
            left.form_submit_button("Send", type="primary", on_click=actions.resend, args=(f"edited-{turn.turn_id}",))
            right.form_submit_button("Cancel", on_click=actions.cancel_edit)
    else:
        past_turn(turn)
    with st.container(horizontal=True, gap="small"):  # one element where columns are four
        st.button(
            "Regenerate", key="regenerate", on_click=actions.regenerate, icon=":material/refresh:", type="tertiary"
        )
        st.button(
            "Edit question",
            key="edit-last",
            on_click=actions.edit_last,
            args=(turn.turn_id,),
            icon=":material/edit:",
            type="tertiary",
        )


def proposed_edit(edit: FileEdit, may_decide: bool) -> None:
    """A file edit the model asked for, shown as a diff, applied only if the user whose question proposed it
    approves it (others see whom it waits for)."""
    with st.container(border=True):
        st.markdown(f"**Proposed edit to** {escape_name(edit.path)} (not applied yet)")
        st.code(visible_bidi_controls(edit_diff(edit)), language="diff")
        if not may_decide:
            st.caption(f"Waiting for {escape_name(edit.proposed_by or '')} to approve or reject it.")
            return
        left, right, _ = st.columns([1, 1, 4])
        left.button(
            "Approve",
            key=f"approve-{edit.edit_id}",
            type="primary",
            on_click=actions.ask,
            args=("approve", edit.edit_id),
        )
        right.button("Reject", key=f"reject-{edit.edit_id}", on_click=actions.ask, args=("reject", edit.edit_id))


def live_turn(
    service: Application,
    question: str,
    chat_id: int | None,
    regenerating: bool = False,
    pictures: tuple[CleanImage, ...] = (),
) -> None:
    """Stream one turn (the question, with its cleaned `pictures`) into the page; the service stores it however it
    ends.

    `chat_id` is the workspace that was on the screen when the question was sent
    (None: there was none yet); the question is asked there, and that workspace is shown.
    A click (Stop, or any other: a rerun) ends the reply at once, stored with what had
    arrived; if the tab goes away instead, the reply is finished without it and stored whole.
    """
    chat = service.workspaces.open(chat_id) if chat_id is not None else service.workspaces.ensure_current()
    sync_url(service)
    events = iterate_sync(
        service.turns.ask(question, chat.chat_id, regenerating, images=pictures),
        heartbeat=WAIT_TICK_SECONDS,
        loop=loop(),
    )
    reply = LiveReply(events, service.turns.stop, turn_finished(), live_replies())
    state.reply_without_tab = False
    try:
        show_reply(question, reply, service.documents.index_wait, [picture.data for picture in pictures])
    except StopException:  # the tab was closed (or the server is stopping): no element can be drawn any more
        reply.finish_without_the_tab()
        state.reply_without_tab = True  # should the tab come back (a reconnect), it does not wait for the reply
        raise
    finally:
        reply.end()  # a cut-off turn is stored here, with what had arrived (not when it was handed over)


def show_reply(
    question: str, reply: LiveReply, activity: Callable[[], str | None], pictures: list[bytes] | None = None
) -> None:
    """The question (with its pictures) and the reply as it streams; `activity` says what a running tool waits
    for."""
    with st.chat_message("user"):
        st.markdown(escape_markdown(question))
        show_pictures(pictures or [])
    with st.chat_message("assistant"):
        stop = st.empty()
        stop.button("Stop", key="stop", icon=":material/stop:")
        view = LiveView()
        try:
            for event in reply.events:
                if event is None:
                    view.waiting(activity())
                    _ = "stop" in state  # reading the tab's state, like drawing, is where Streamlit acts on a click
                else:
                    view.show(event)
        finally:
            view.finish()  # cut off (Stop, a click): no tool call may still look as if it were running
        stop.empty()


def turn_finished() -> threading.Event:
    """Set when no reply of this tab is being streamed (an object shared by the tab's runs, not a state value)."""
    if "turn_finished" not in state:
        state.turn_finished = threading.Event()
        state.turn_finished.set()
    event: threading.Event = state.turn_finished
    return event


def wait_for_interrupted_turn() -> None:
    """If a click interrupted a reply in another run of this tab, wait until that run has stored it.

    With `runner.fastReruns = false` (.streamlit/config.toml) the interrupted run
    stores the reply before the next run starts and this returns at once; with fast
    reruns the next run starts beside it, and this keeps the page from being drawn
    without the reply. A reply being finished after the tab lost its connection is not
    waited for: the page says it is being written, and shows it when it is stored.
    """
    if not state.get("reply_without_tab"):
        turn_finished().wait(FINISH_WAIT_SECONDS)


def replying() -> bool:
    """Whether a reply of this tab is still being written (finished in the background after a reconnect)."""
    return not turn_finished().is_set()
