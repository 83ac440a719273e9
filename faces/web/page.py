"""One run of the web page: carry out what a button asked for, then draw the sidebar and the conversation."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from app import DEFAULT_IMAGE_QUESTION, Application, ForbiddenError, HistoryError, SignInError
from domain.records import PageActivity
from faces.web import actions
from faces.web.background import watch_summaries
from faces.web.conversation import conversation, live_turn, replying, wait_for_interrupted_turn
from faces.web.live import watch_page
from faces.web.markdown import escape_markdown, sentence_markdown
from faces.web.pictures import IMAGE_TYPES, cleaned
from faces.web.sidebar import sidebar
from faces.web.signing_in import read_only, sign_out
from faces.web.state import notify, service, state, sync_url
from faces.web.users_view import draw_side_page, side_page

logger = logging.getLogger(__name__)


def show_notices() -> None:
    for kind, message in state.notices:
        getattr(st, kind)(sentence_markdown(message))
    state.notices = []


def report_summaries(spaces: Application) -> None:
    """Tell the user about the digital twins written in the background since the last run."""
    for outcome in spaces.summaries.finished():
        if outcome.notice is None:
            continue
        if outcome.error is not None:
            notify("warning", outcome.notice)
        else:
            st.toast(escape_markdown(outcome.notice), icon=":material/check:")


@contextmanager
def one_sentence_errors() -> Iterator[None]:
    """A failure of the store (or a bug) is shown as one sentence saying what to do, not as a traceback."""
    try:
        yield
    except HistoryError as error:
        st.error(sentence_markdown(str(error)), icon=":material/error:")
    except SignInError as error:  # the account was removed while signed in
        sign_out(str(error))
        st.rerun()
    except (ForbiddenError, LookupError) as error:  # refused, or hidden: said as for a missing workspace
        st.warning(sentence_markdown(str(error)), icon=":material/block:")
    except Exception as error:  # noqa: BLE001 - a bug must not show the user a traceback
        logger.exception("the page failed")
        st.error(
            f"Something went wrong in the application ({type(error).__name__}); your workspaces are safe. "
            "Reload the page, and if this happens again, see the server's log.",
            icon=":material/error:",
        )


def main() -> None:
    """Draw the page; a question sent streams its answer before the conversation above it is redrawn.

    The notices and the conversation each sit in one container, so a run that
    answers a question writes the live turn right below them while the previous
    run's conversation stays on the screen; the next run draws it with the new turn.
    """
    st.set_page_config(page_title="Engineering assistant", page_icon="📐", layout="wide")
    spaces = service()
    shown = state.get("shown_chat_id")  # the workspace on the screen when this run was asked for
    wait_for_interrupted_turn()
    with one_sentence_errors():
        actions.run_action(spaces)
        sync_url(spaces)
        drawn = spaces.live.activity(spaces.workspaces.current_id)  # what others change, as the page is drawn
        with st.container():
            report_summaries(spaces)
            show_notices()
            watch_summaries(spaces)  # the note that a summary is done comes without a click
        sidebar(spaces)
        if (page := side_page(spaces)) is not None:  # My account, Users, the audit trail: in place of the talk
            draw_side_page(spaces, page)
            watch_page(spaces, drawn, asking=False)  # a notification comes without a click
            return
        if (reading_only := read_only(spaces)) is not None:  # a viewer: the conversation, and no input
            conversation(spaces, can_change=False)
            watch_page(spaces, drawn)  # who is asking, their answer, a notification: without a click
            st.info(sentence_markdown(reading_only), icon=":material/visibility:")
            return
        talk(spaces, drawn, shown)


def talk(spaces: Application, drawn: PageActivity, shown: int | None) -> None:
    """The conversation and the question box (with photos and sketches); a question sent is answered below the
    conversation, live."""
    prompt = st.chat_input(
        "Ask about your project, or attach photos and sketches…",
        key="question",
        disabled=replying(),  # one reply at a time
        accept_file="multiple",
        file_type=IMAGE_TYPES,
    )
    files = list(prompt.files) if prompt else []
    typed = (prompt.text if prompt else None) or (DEFAULT_IMAGE_QUESTION if files else None)
    question, regenerating = actions.next_question(spaces, typed) if not replying() else (None, False)
    history = st.container()
    if question:
        target = spaces.workspaces.current_id if regenerating else actions.workspace_for_question(spaces, shown)
        pictures = cleaned(spaces, files, target) if files else ()
    if not question or pictures is None:  # a refused picture: its sentence is shown and nothing is sent
        with history:
            conversation(spaces)
            watch_page(spaces, drawn, asking=not replying())  # who is asking, their answer: without a click
        return
    live_turn(spaces, question, target, regenerating, pictures)
    st.rerun()
