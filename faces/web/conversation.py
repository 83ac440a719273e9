"""The conversation: past turns, proposed file edits, and a live turn streamed as it arrives."""

from __future__ import annotations

import time

import streamlit as st

from app import WorkspaceService, edit_diff
from domain.records import FileEdit
from faces.web import actions
from faces.web.markdown import escape_markdown
from faces.web.state import loop, show_earlier, state, sync_url
from faces.web.sync_bridge import iterate_sync
from faces.web.view import LiveView, past_turn

WAIT_TICK_SECONDS = 0.25
FINISH_WAIT_SECONDS = 5.0


def conversation(service: WorkspaceService) -> None:
    chat = service.current
    st.subheader(escape_markdown(chat.chat_name) if chat else "New workspace", anchor=False)
    if chat is None:
        st.caption("Ask a question to start; your first message names the workspace.")
        return
    turns = service.turns(chat.chat_id, limit=state.turn_window)
    if service.count_turns(chat.chat_id) > len(turns):
        st.button("Show earlier turns", on_click=show_earlier, key="earlier", icon=":material/expand_less:")
    for turn in turns:
        past_turn(turn)
    for edit in service.edits.pending(chat.chat_id):
        proposed_edit(edit)
    if turns:
        st.button(
            "Regenerate", key="regenerate", on_click=actions.regenerate, icon=":material/refresh:", type="tertiary"
        )


def proposed_edit(edit: FileEdit) -> None:
    """A file edit the model asked for, shown as a diff, applied only if the user approves it."""
    with st.container(border=True):
        st.markdown(f"**Proposed edit to** {escape_markdown(edit.path)} (not applied yet)")
        st.code(edit_diff(edit), language="diff")
        left, right, _ = st.columns([1, 1, 4])
        left.button(
            "Approve",
            key=f"approve-{edit.edit_id}",
            type="primary",
            on_click=actions.ask,
            args=("approve", edit.edit_id),
        )
        right.button("Reject", key=f"reject-{edit.edit_id}", on_click=actions.ask, args=("reject", edit.edit_id))


def live_turn(service: WorkspaceService, question: str, regenerating: bool = False) -> None:
    """Stream one turn into the page; the service stores it however it ends (a Stop click or a rerun included)."""
    chat = service.ensure_current()
    sync_url(service)
    with st.chat_message("user"):
        st.markdown(escape_markdown(question))
    with st.chat_message("assistant"):
        stop = st.empty()
        stop.button("Stop", key="stop", icon=":material/stop:")
        view = LiveView()
        state.turn_in_progress = True
        events = iterate_sync(
            service.ask(question, chat.chat_id, regenerating), heartbeat=WAIT_TICK_SECONDS, loop=loop()
        )
        try:
            for event in events:
                if event is None:
                    view.waiting()
                else:
                    view.show(event)
        finally:
            try:
                events.close()  # a cut-off turn is stored here, with what had arrived
            finally:
                state.turn_in_progress = False
        stop.empty()


def wait_for_interrupted_turn() -> None:
    """A click during a reply starts a new run while the old one is still storing the partial reply."""
    deadline = time.monotonic() + FINISH_WAIT_SECONDS
    while state.get("turn_in_progress") and time.monotonic() < deadline:
        time.sleep(0.02)
