"""The sidebar: workspaces by date and search, each with its menu; the digital twin; the model and Ollama's status."""

from __future__ import annotations

from datetime import date, tzinfo

import streamlit as st

from app import Application, ServerStatus
from app.presentation.formatting import shown_name
from domain.records import Workspace
from faces.web import actions
from faces.web.dates import group_of, hover_time, today_in, zone_named
from faces.web.documents import documents_panel
from faces.web.labels import row_label
from faces.web.markdown import escape_markdown, keep_line_breaks, safe_markdown, sentence_markdown
from faces.web.memory_panel import memory_panel
from faces.web.notifications import notifications_panel
from faces.web.outside_tools import outside_tools_panel
from faces.web.signing_in import signed_in_bar
from faces.web.snippets import highlighted, hit_snippet
from faces.web.sync_bridge import run_sync
from faces.web.users_view import side_page_buttons
from faces.web.workspace_menu import workspace_menu

LISTED_WORKSPACES = 30
STATUS_SECONDS = 15


def sidebar(service: Application) -> None:
    with st.sidebar:
        signed_in_bar(service)
        notifications_panel(service)
        if service.user is None or service.access.role != "viewer":  # a viewer makes no workspace
            st.button(
                "New workspace",
                icon=":material/add:",
                on_click=actions.ask,
                args=("new",),
                width="stretch",
                key="new-workspace",
            )
        side_page_buttons(service)
        query = st.text_input("Search workspaces", key="search", placeholder="Name or words from a message")
        if query.strip():
            workspace_hits(service, query)
        else:
            workspace_list(service)
        if (chat := service.workspaces.current) is not None:
            st.divider()
            agent_picker(service, chat)
            digital_twin(service, chat)
        st.divider()
        documents_panel(service)
        memory_panel(service)
        outside_tools_panel(service)
        model_and_status(service)


def workspace_row(
    service: Application, chat_id: int, name: str, key: str, query: str | None = None, owner: str | None = None
) -> None:
    """The workspace's button (the open one highlighted) and its "⋮" menu, on one row: a long name is
    shortened to fit, whole in the tooltip; with `query`, the words searched for are in bold; with `owner`
    (another user's workspace, shared with this one), whose it is, below."""
    current = chat_id == service.workspaces.current_id
    whole = shown_name(name)  # a line break or a bidi control in it is written out
    shown = row_label(whole)
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.button(
            highlighted(shown, query) if query else escape_markdown(shown),
            key=key,
            help=escape_markdown(whole) if shown != whole else None,
            on_click=actions.ask,
            args=("switch", chat_id),
            width="stretch",
            type="primary" if current else "secondary",
            disabled=current,
        )
        workspace_menu(service, chat_id, name)
    if owner is not None:
        st.caption(f":material/group: Shared by {escape_markdown(owner)}")


def others_owners(service: Application) -> dict[int, str]:
    """With accounts, the owner of each listed workspace that is not the signed-in user's own."""
    if service.user is None:
        return {}
    me = service.user.name
    return {chat_id: name for chat_id, name in service.sharing.owners().items() if name != me}


def listed_workspaces(service: Application) -> tuple[list[Workspace], int]:
    """The most recent workspaces (and the open one, however old), and how many more there are."""
    chats = service.workspaces.recent(limit=LISTED_WORKSPACES + 1)
    more = service.workspaces.count() - LISTED_WORKSPACES if len(chats) > LISTED_WORKSPACES else 0
    chats = chats[:LISTED_WORKSPACES]
    if (current := service.workspaces.current) is not None and all(chat.chat_id != current.chat_id for chat in chats):
        chats.append(current)
        more -= 1
    return chats, more


def by_activity_date(chats: list[Workspace], today: date, zone: tzinfo | None) -> dict[str, list[Workspace]]:
    """Workspaces under Today, Yesterday, Previous 7 days, Previous 30 days, then by month, in the order given."""
    groups: dict[str, list[Workspace]] = {}
    for chat in chats:
        groups.setdefault(group_of(chat.last_active_at, today, zone), []).append(chat)
    return groups


def workspace_list(service: Application) -> None:
    chats, more = listed_workspaces(service)
    zone = zone_named(st.context.timezone)
    owners = others_owners(service)
    for group, members in by_activity_date(chats, today_in(zone), zone).items():
        st.caption(f"**{group}**")
        for chat in members:
            key = f"workspace-{chat.chat_id}"
            workspace_row(service, chat.chat_id, chat.chat_name, key=key, owner=owners.get(chat.chat_id))
    if more > 0:
        st.caption(f"{more} older workspace{'s' * (more != 1)}: use the search box.")


def workspace_hits(service: Application, query: str) -> None:
    hits = service.workspaces.search(query)
    if not hits:
        st.caption("No workspace mentions that.")
    owners = others_owners(service) if hits else {}
    for hit in hits:
        key = f"hit-{hit.chat_id}"
        workspace_row(service, hit.chat_id, hit.chat_name, key=key, query=query, owner=owners.get(hit.chat_id))
        if hit.snippet and (snippet := hit_snippet(hit.snippet, query)):
            st.caption(snippet)


def agent_picker(service: Application, chat: Workspace) -> None:
    """The agent this workspace works with: its prompt, its tools, maybe its model."""
    profiles = service.agents.profiles
    names = list(profiles)
    current = service.agents.of(chat.chat_id)
    chosen = st.selectbox(
        "Agent",
        names,
        index=names.index(current),
        key=f"agent-{chat.chat_id}",
        format_func=lambda name: name,
        help=escape_markdown(profiles[current].description),
    )
    if chosen != current:
        service.agents.choose(chat.chat_id, chosen)
    for problem in service.agents.problems:
        st.caption(f":material/warning: Agent file skipped: {escape_markdown(problem)}")


def digital_twin(service: Application, chat: Workspace) -> None:
    """The summary, when it was written in the reader's own time, and its editor (one label: it stays open)."""
    with st.expander("Digital twin", expanded=False, key=f"twin-{chat.chat_id}"):
        if service.summaries.is_pending(chat.chat_id):
            st.caption("Being updated in the background…")
        elif when := hover_time(chat.context_updated_at, zone_named(st.context.timezone)):
            st.caption(f"Updated {when}")
        if st.toggle("Edit", key=f"edit-summary-{chat.chat_id}"):
            with st.form(f"summary-form-{chat.chat_id}", border=False):
                text = st.text_area(
                    "Summary", value=chat.context_summary or "", height=220, key=f"summary-{chat.chat_id}"
                )
                if st.form_submit_button("Save summary"):
                    service.summaries.set(chat.chat_id, text)
                    st.rerun()
        elif chat.context_summary:
            st.markdown(keep_line_breaks(safe_markdown(chat.context_summary)))
        else:
            st.caption("No summary yet: it is written when you leave this workspace after new turns.")
        if chat.context_summary and st.button("Clear summary", key=f"clear-summary-{chat.chat_id}"):
            service.summaries.set(chat.chat_id, None)
            st.rerun()


@st.cache_data(ttl=STATUS_SECONDS, show_spinner=False)
def ollama_status(endpoint: str, _service: Application) -> ServerStatus:
    """The server's status, asked at most every 15 s per endpoint (reruns are frequent)."""
    return run_sync(_service.models.status())


def model_and_status(service: Application) -> None:
    status = ollama_status(service.models.endpoint, service)
    options = list(dict.fromkeys([service.models.current, *status.models]))
    service.models.use(st.selectbox("Model", options, index=options.index(service.models.current), key="model"))
    if status.error:
        st.warning(f"{sentence_markdown(status.error)}  \nYour workspaces stay readable meanwhile.")
    elif status.not_answering:
        st.warning(status_line(service, status))
    else:
        st.caption(status_line(service, status))


def status_line(service: Application, status: ServerStatus) -> str:
    """The server's version, address and models; with several, how many answer and which do not."""
    count = len(status.models)
    models = f"{count} model{'s' * (count != 1)}"
    if status.note is None:
        return f"Ollama {status.version} at {escape_markdown(service.models.endpoint)} · {models}"
    return f"Ollama {escape_markdown(status.version or '')} · {escape_markdown(status.note)} · {models}"
