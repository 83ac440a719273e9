"""The sidebar: workspaces and search, the digital twin, managing the workspace, the model and Ollama's status."""

from __future__ import annotations

from functools import partial

import streamlit as st

from app import ServerStatus, WorkspaceService
from domain.records import Chat
from faces.web import actions
from faces.web.markdown import escape_markdown, safe_markdown
from faces.web.state import state
from faces.web.sync_bridge import run_sync

LISTED_WORKSPACES = 30
STATUS_SECONDS = 15


def sidebar(service: WorkspaceService) -> None:
    with st.sidebar:
        st.button(
            "New workspace",
            icon=":material/add:",
            on_click=actions.ask,
            args=("new",),
            width="stretch",
            key="new-workspace",
        )
        query = st.text_input("Search workspaces", key="search", placeholder="Name or words from a message")
        if query.strip():
            workspace_hits(service, query)
        else:
            workspace_list(service)
        if (chat := service.current) is not None:
            st.divider()
            digital_twin(service, chat)
            manage_workspace(service, chat)
        st.divider()
        model_and_status(service)


def workspace_button(service: WorkspaceService, chat_id: int, name: str, key: str) -> None:
    current = chat_id == service.current_id
    st.button(
        escape_markdown(name),
        key=key,
        on_click=actions.ask,
        args=("switch", chat_id),
        width="stretch",
        type="primary" if current else "secondary",
        disabled=current,
    )


def workspace_list(service: WorkspaceService) -> None:
    chats = service.workspaces(limit=LISTED_WORKSPACES + 1)
    for chat in chats[:LISTED_WORKSPACES]:
        workspace_button(service, chat.chat_id, chat.chat_name, key=f"workspace-{chat.chat_id}")
    if len(chats) > LISTED_WORKSPACES:
        st.caption(f"{service.count_workspaces() - LISTED_WORKSPACES} older workspaces: use the search box.")


def workspace_hits(service: WorkspaceService, query: str) -> None:
    hits = service.search(query)
    if not hits:
        st.caption("No workspace mentions that.")
    for hit in hits:
        workspace_button(service, hit.chat_id, hit.chat_name, key=f"hit-{hit.chat_id}")
        if hit.snippet:
            st.caption(escape_markdown(hit.snippet))


def digital_twin(service: WorkspaceService, chat: Chat) -> None:
    stamp = f" · {chat.context_updated_at[:16]} UTC" if chat.context_updated_at else ""
    with st.expander(f"Digital twin{stamp}", expanded=False):
        if st.toggle("Edit", key=f"edit-summary-{chat.chat_id}"):
            with st.form(f"summary-form-{chat.chat_id}", border=False):
                text = st.text_area(
                    "Summary", value=chat.context_summary or "", height=220, key=f"summary-{chat.chat_id}"
                )
                if st.form_submit_button("Save summary"):
                    service.set_summary(chat.chat_id, text)
                    st.rerun()
        elif chat.context_summary:
            st.markdown(safe_markdown(chat.context_summary))
        else:
            st.caption("No summary yet: it is written when you leave this workspace after new turns.")
        if chat.context_summary and st.button("Clear summary", key=f"clear-summary-{chat.chat_id}"):
            service.set_summary(chat.chat_id, None)
            st.rerun()


def manage_workspace(service: WorkspaceService, chat: Chat) -> None:
    with st.expander("Workspace", expanded=state.get("confirm_delete") == chat.chat_id):
        with st.form(f"rename-form-{chat.chat_id}", border=False):
            name = st.text_input("Name", value=chat.chat_name, max_chars=200, key=f"name-{chat.chat_id}")
            if st.form_submit_button("Rename") and name.strip() and name.strip() != chat.chat_name:
                service.rename(chat.chat_id, name)
                st.rerun()
        downloads(service, chat.chat_id)
        if service.edits.has_applied(chat.chat_id):
            st.button(
                "Undo last file edit", key="undo-edit", icon=":material/undo:", on_click=actions.ask, args=("undo",)
            )
        if state.get("confirm_delete") != chat.chat_id:
            st.button("Delete workspace…", key="delete", on_click=actions.ask_delete, args=(chat.chat_id,))
            return
        turns = service.count_turns(chat.chat_id)
        st.warning(f"Delete {escape_markdown(chat.chat_name)} and its {turns} turns? This cannot be undone.")
        left, right = st.columns(2)
        left.button(
            "Delete", key="delete-confirmed", type="primary", on_click=actions.confirm_delete, args=(chat.chat_id,)
        )
        right.button("Cancel", key="delete-cancelled", on_click=actions.cancel_delete)


def downloads(service: WorkspaceService, chat_id: int) -> None:
    """The calculation report and the whole workspace as Markdown, each built only when clicked."""
    for label, icon, name, document in (
        ("Calculation report", ":material/summarize:", "calculations", service.calculation_report),
        ("Export as Markdown", ":material/download:", "workspace", service.export_markdown),
    ):
        st.download_button(
            label,
            key=f"download-{name}-{chat_id}",
            icon=icon,
            file_name=f"{name}-{chat_id}.md",
            data=partial(document, chat_id),
            mime="text/markdown",
            on_click="ignore",
        )


@st.cache_data(ttl=STATUS_SECONDS, show_spinner=False)
def ollama_status(endpoint: str, _service: WorkspaceService) -> ServerStatus:
    """The server's status, asked at most every 15 s per endpoint (reruns are frequent)."""
    return run_sync(_service.server_status())


def model_and_status(service: WorkspaceService) -> None:
    status = ollama_status(service.endpoint, service)
    options = list(dict.fromkeys([service.model, *status.models]))
    service.model = st.selectbox("Model", options, index=options.index(service.model), key="model")
    if status.error:
        st.warning(f"{escape_markdown(status.error)}  \nYour workspaces stay readable meanwhile.")
    else:
        count = len(status.models)
        st.caption(
            f"Ollama {status.version} at {escape_markdown(service.endpoint)} · {count} model{'s' * (count != 1)}"
        )
