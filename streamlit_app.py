"""The web face: `streamlit run streamlit_app.py`.

It renders the agent's events and calls the store; the workspace rules it shares
with the CLI live in `core.workspaces`. Everything per user lives in
`st.session_state` (each browser tab has its own SQLite connection and agent).
No user, model or file text is ever rendered as HTML.
"""

from __future__ import annotations

import asyncio
import time

import streamlit as st

from core.failures import CallSite
from core.file_edits import edit_diff
from core.records import Chat, FileEdit
from core.rendering import (
    escape_markdown,
    safe_markdown,
    workspace_markdown,
)
from core.report import calculation_report
from core.server import ServerStatus, server_status
from core.settings import Settings, SettingsError, configure_logging, load_settings
from core.sync_bridge import iterate_sync, run_sync
from core.transcript import Transcript
from core.web_view import LiveView, past_turn
from core.workspaces import Workspaces
from history import HistoryError

PAGE_TURNS = 50
LISTED_WORKSPACES = 30
STATUS_SECONDS = 15
WAIT_TICK_SECONDS = 0.25
FINISH_WAIT_SECONDS = 5.0

state = st.session_state


# Per-user state ---------------------------------------------------------------------


def workspaces() -> Workspaces:
    """This tab's store connection and agent, made once per browser tab."""
    if "spaces" not in state:
        try:
            settings = load_settings()
            configure_logging(settings)
            spaces = Workspaces.from_settings(settings)
        except (SettingsError, HistoryError) as error:
            st.error(str(error))
            st.stop()
        state.settings, state.spaces, state.turn_window, state.notices = settings, spaces, PAGE_TURNS, []
        state.loop = asyncio.new_event_loop()  # this tab's loop: the agent keeps its connection to Ollama
        open_from_url(spaces)
    return state.spaces


def open_from_url(spaces: Workspaces) -> None:
    """`?chat=<id>` opens that workspace (a reload or a bookmark comes back to it); else the latest."""
    wanted = st.query_params.get("chat", "")
    if wanted.isascii() and wanted.isdigit() and len(wanted) < 15 and spaces.db.get_chat(int(wanted)) is not None:
        spaces.open(int(wanted))
        return
    if wanted:
        notify("warning", f"There is no workspace {wanted[:20]}; showing the most recent one instead.")
    spaces.open_latest()


def settings() -> Settings:
    return state.settings


def notify(kind: str, message: str) -> None:
    """A message shown once, at the top of the next page."""
    state.notices.append((kind, message))


# Actions (button callbacks only record what was asked; the page does it) -----------------


def ask_switch(chat_id: int) -> None:
    state.action = ("switch", chat_id)


def ask_new() -> None:
    state.action = ("new", None)


def ask_delete(chat_id: int) -> None:
    state.confirm_delete = chat_id


def cancel_delete() -> None:
    state.pop("confirm_delete", None)


def confirm_delete(chat_id: int) -> None:
    state.pop("confirm_delete", None)
    state.action = ("delete", chat_id)


def show_earlier() -> None:
    state.turn_window += PAGE_TURNS


def regenerate() -> None:
    state.regenerate_requested = True


def run_action(spaces: Workspaces) -> None:
    """Do what a button asked for: switch, new, delete, or decide a file edit."""
    kind, target = state.pop("action", (None, None))
    try:
        do_action(spaces, kind, target)
    except LookupError:  # deleted meanwhile, in another window
        notify("warning", "That workspace no longer exists (it was deleted in another window).")
        spaces.open_latest()


def do_action(spaces: Workspaces, kind: str | None, target: int | None) -> None:
    if kind == "delete" and target is not None:
        chat = spaces.db.get_chat(target)
        spaces.delete(target)
        notify("success", f"Deleted {chat.chat_name if chat else 'the workspace'}.")
        spaces.open_latest()
        state.turn_window = PAGE_TURNS
    elif kind in ("switch", "new"):
        switch_workspace(spaces, kind, target)
        state.turn_window = PAGE_TURNS
    elif kind in ("approve", "reject", "undo"):
        decide_edit(spaces, kind, target)


def switch_workspace(spaces: Workspaces, kind: str, target: int | None) -> None:
    """Leave the current workspace (summarising it if it has new turns, with progress shown), open another."""
    leaving = spaces.current
    label = f"Updating the summary of {leaving.chat_name}…" if leaving and spaces.needs_summary() else "Switching…"
    with st.status(label, expanded=False) as status:
        if kind == "new":
            _, outcome = run_sync(spaces.start_new(), state.loop)
        else:
            outcome = run_sync(spaces.switch(target), state.loop)
        status.update(label="Summary updated." if outcome.summarised else "Switched.", state="complete")
    if outcome.error is not None:
        name = leaving.chat_name if leaving else "the workspace"
        notify(
            "warning", f"The summary of {name} was not updated and the previous one was kept: {outcome.error.message}"
        )


def decide_edit(spaces: Workspaces, kind: str, edit_id: int | None) -> None:
    try:
        if kind == "undo":
            notify("success", spaces.edits.undo_last())
        elif edit_id is not None:
            decision = spaces.edits.approve if kind == "approve" else spaces.edits.reject
            notify("success", decision(edit_id))
    except (LookupError, ValueError, OSError) as error:
        notify("warning", str(error)[:1].upper() + str(error)[1:] + ".")


def ask_edit(kind: str, edit_id: int | None = None) -> None:
    state.action = (kind, edit_id)


def sync_url(spaces: Workspaces) -> None:
    if spaces.current_id is None:
        st.query_params.pop("chat", None)
    elif st.query_params.get("chat") != str(spaces.current_id):
        st.query_params["chat"] = str(spaces.current_id)


# Sidebar --------------------------------------------------------------------------------


@st.cache_data(ttl=STATUS_SECONDS, show_spinner=False)
def ollama_status(endpoint: str, model: str) -> ServerStatus:
    return run_sync(server_status(CallSite(endpoint, model, 3.0)))


def sidebar(spaces: Workspaces) -> None:
    with st.sidebar:
        st.button("New workspace", icon=":material/add:", on_click=ask_new, width="stretch", key="new-workspace")
        query = st.text_input("Search workspaces", key="search", placeholder="Name or words from a message")
        if query.strip():
            workspace_hits(spaces, query)
        else:
            workspace_list(spaces)
        if (chat := spaces.current) is not None:
            st.divider()
            digital_twin(spaces, chat)
            manage_workspace(spaces, chat)
        st.divider()
        model_and_status(spaces)


def workspace_button(spaces: Workspaces, chat_id: int, name: str, key: str) -> None:
    current = chat_id == spaces.current_id
    st.button(
        escape_markdown(name),
        key=key,
        on_click=ask_switch,
        args=(chat_id,),
        width="stretch",
        type="primary" if current else "secondary",
        disabled=current,
    )


def workspace_list(spaces: Workspaces) -> None:
    chats = spaces.db.list_chats()
    for chat_id, name, _ in chats[:LISTED_WORKSPACES]:
        workspace_button(spaces, chat_id, name, key=f"workspace-{chat_id}")
    if len(chats) > LISTED_WORKSPACES:
        st.caption(f"{len(chats) - LISTED_WORKSPACES} older workspaces: use the search box.")


def workspace_hits(spaces: Workspaces, query: str) -> None:
    hits = spaces.db.search_chats(query)
    if not hits:
        st.caption("No workspace mentions that.")
    for hit in hits:
        workspace_button(spaces, hit.chat_id, hit.chat_name, key=f"hit-{hit.chat_id}")
        if hit.snippet:
            st.caption(escape_markdown(hit.snippet))


def digital_twin(spaces: Workspaces, chat: Chat) -> None:
    stamp = f" · {chat.context_updated_at[:16]} UTC" if chat.context_updated_at else ""
    with st.expander(f"Digital twin{stamp}", expanded=False):
        if st.toggle("Edit", key=f"edit-summary-{chat.chat_id}"):
            with st.form(f"summary-form-{chat.chat_id}", border=False):
                text = st.text_area(
                    "Summary", value=chat.context_summary or "", height=220, key=f"summary-{chat.chat_id}"
                )
                if st.form_submit_button("Save summary"):
                    spaces.db.set_context_summary(chat.chat_id, text.strip() or None)
                    spaces.open(chat.chat_id)
                    st.rerun()
        elif chat.context_summary:
            st.markdown(safe_markdown(chat.context_summary))
        else:
            st.caption("No summary yet: it is written when you leave this workspace after new turns.")
        if chat.context_summary and st.button("Clear summary", key=f"clear-summary-{chat.chat_id}"):
            spaces.db.set_context_summary(chat.chat_id, None)
            spaces.open(chat.chat_id)
            st.rerun()


def manage_workspace(spaces: Workspaces, chat: Chat) -> None:
    with st.expander("Workspace", expanded=state.get("confirm_delete") == chat.chat_id):
        with st.form(f"rename-form-{chat.chat_id}", border=False):
            name = st.text_input("Name", value=chat.chat_name, max_chars=200, key=f"name-{chat.chat_id}")
            if st.form_submit_button("Rename") and name.strip() and name.strip() != chat.chat_name:
                spaces.db.rename_chat(chat.chat_id, name.strip())
                st.rerun()
        for label, icon, name, document in (
            ("Calculation report", ":material/summarize:", "calculations", calculation_report),
            ("Export as Markdown", ":material/download:", "workspace", workspace_markdown),
        ):
            st.download_button(
                label,
                key=f"download-{name}-{chat.chat_id}",
                icon=icon,
                file_name=f"{name}-{chat.chat_id}.md",
                data=lambda write=document: write(chat, spaces.db.get_turns(chat.chat_id)),  # built when clicked
                mime="text/markdown",
                on_click="ignore",
            )
        if spaces.db.file_edits(chat.chat_id, "applied"):
            st.button("Undo last file edit", key="undo-edit", icon=":material/undo:", on_click=ask_edit, args=("undo",))
        if state.get("confirm_delete") != chat.chat_id:
            st.button("Delete workspace…", key="delete", on_click=ask_delete, args=(chat.chat_id,))
            return
        turns = spaces.db.count_turns(chat.chat_id)
        st.warning(f"Delete {escape_markdown(chat.chat_name)} and its {turns} turns? This cannot be undone.")
        left, right = st.columns(2)
        left.button("Delete", key="delete-confirmed", type="primary", on_click=confirm_delete, args=(chat.chat_id,))
        right.button("Cancel", key="delete-cancelled", on_click=cancel_delete)


def model_and_status(spaces: Workspaces) -> None:
    agent = spaces.agent
    status = ollama_status(settings().endpoint, settings().model)
    options = list(dict.fromkeys([agent.model, *status.models]))
    agent.model = st.selectbox("Model", options, index=options.index(agent.model), key="model")
    if status.error:
        st.warning(f"{escape_markdown(status.error)}  \nYour workspaces stay readable meanwhile.")
    else:
        count = len(status.models)
        st.caption(
            f"Ollama {status.version} at {escape_markdown(settings().endpoint)} · {count} model{'s' * (count != 1)}"
        )


# Conversation ---------------------------------------------------------------------------


def live_turn(spaces: Workspaces, question: str, regenerating: bool = False) -> None:
    """Stream one turn into the page; store it however it ends (a Stop click or a rerun included)."""
    chat_id = spaces.begin_turn(regenerating)
    sync_url(spaces)
    with st.chat_message("user"):
        st.markdown(escape_markdown(question))
    with st.chat_message("assistant"):
        stop = st.empty()
        stop.button("Stop", key="stop", icon=":material/stop:")
        view = LiveView()
        transcript = Transcript()
        state.turn_in_progress = True
        events = iterate_sync(spaces.agent.stream(question), heartbeat=WAIT_TICK_SECONDS, loop=state.loop)
        try:
            for event in events:
                if event is None:
                    view.waiting()
                    continue
                transcript.add(event)
                view.show(event)
        finally:
            try:
                events.close()
                spaces.record_turn(question, transcript.outcome(spaces.agent.model), chat_id)
            finally:
                state.turn_in_progress = False
        stop.empty()


def wait_for_interrupted_turn() -> None:
    """A click during a reply starts a new run while the old one is still storing the partial reply."""
    deadline = time.monotonic() + FINISH_WAIT_SECONDS
    while state.get("turn_in_progress") and time.monotonic() < deadline:
        time.sleep(0.02)


def conversation(spaces: Workspaces) -> None:
    chat = spaces.current
    st.subheader(escape_markdown(chat.chat_name) if chat else "New workspace", anchor=False)
    if chat is None:
        st.caption("Ask a question to start; your first message names the workspace.")
        return
    turns = spaces.db.get_turns(chat.chat_id, limit=state.turn_window)
    if spaces.db.count_turns(chat.chat_id) > len(turns):
        st.button("Show earlier turns", on_click=show_earlier, key="earlier", icon=":material/expand_less:")
    for turn in turns:
        past_turn(turn)
    for edit in spaces.edits.pending():
        proposed_edit(edit)
    if turns:
        st.button("Regenerate", key="regenerate", on_click=regenerate, icon=":material/refresh:", type="tertiary")


def proposed_edit(edit: FileEdit) -> None:
    """A file edit the model asked for, shown as a diff, applied only if the user approves it."""
    with st.container(border=True):
        st.markdown(f"**Proposed edit to** {escape_markdown(edit.path)} (not applied yet)")
        st.code(edit_diff(edit), language="diff")
        left, right, _ = st.columns([1, 1, 4])
        left.button(
            "Approve", key=f"approve-{edit.edit_id}", type="primary", on_click=ask_edit, args=("approve", edit.edit_id)
        )
        right.button("Reject", key=f"reject-{edit.edit_id}", on_click=ask_edit, args=("reject", edit.edit_id))


def main() -> None:
    st.set_page_config(page_title="Engineering assistant", page_icon="📐", layout="wide")
    spaces = workspaces()
    wait_for_interrupted_turn()
    run_action(spaces)
    sync_url(spaces)
    for kind, message in state.notices:
        getattr(st, kind)(escape_markdown(message))
    state.notices = []
    sidebar(spaces)
    conversation(spaces)
    question = st.chat_input("Ask about your project…", key="question")
    regenerating = bool(state.pop("regenerate_requested", False))
    if regenerating:
        question = spaces.last_question()
    if question and question.strip():
        live_turn(spaces, question.strip(), regenerating)
        st.rerun()


main()
