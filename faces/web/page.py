"""One run of the web page: carry out what a button asked for, then draw the sidebar and the conversation."""

from __future__ import annotations

import streamlit as st

from faces.web import actions
from faces.web.conversation import conversation, live_turn, wait_for_interrupted_turn
from faces.web.markdown import escape_markdown
from faces.web.sidebar import sidebar
from faces.web.state import service, state, sync_url


def show_notices() -> None:
    for kind, message in state.notices:
        getattr(st, kind)(escape_markdown(message))
    state.notices = []


def main() -> None:
    st.set_page_config(page_title="Engineering assistant", page_icon="📐", layout="wide")
    spaces = service()
    wait_for_interrupted_turn()
    actions.run_action(spaces)
    sync_url(spaces)
    show_notices()
    sidebar(spaces)
    conversation(spaces)
    question = st.chat_input("Ask about your project…", key="question")
    regenerating = bool(state.pop("regenerate_requested", False))
    if regenerating and (chat := spaces.current) is not None:
        question = spaces.last_question(chat.chat_id)
    if question and question.strip():
        live_turn(spaces, question.strip(), regenerating)
        st.rerun()
