"""The "⋮" menu beside each workspace: rename, delete (with a confirmation), and for the open one its downloads
and, with accounts, Share.

Opening the menu does not rerun the page, so it never interrupts a reply being written.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from app import Application
from faces.web import actions
from faces.web.markdown import escape_name
from faces.web.package_menu import package_section
from faces.web.share_menu import share_section
from faces.web.state import said, state

RENAMING = "renaming_workspace"  # the workspace whose menu shows its name to edit


def workspace_menu(service: Application, chat_id: int, name: str) -> None:
    """Only what the user may do in the workspace is offered (the application checks it again)."""
    with st.popover("⋮", type="tertiary", key=f"menu-{chat_id}"):
        allowed = service.access.allowed(chat_id)
        if allowed.change:
            rename_step(service, chat_id, name)
        if chat_id == service.workspaces.current_id:
            downloads(service, chat_id)
            package_section(service, chat_id, allowed.change)
            share_section(service, chat_id, allowed.own)
            if allowed.change and service.approvals.has_applied(chat_id):
                st.button(
                    "Undo last file edit",
                    key="undo-edit",
                    icon=":material/undo:",
                    on_click=actions.ask,
                    args=("undo",),
                    width="stretch",
                )
        if allowed.own:
            delete_step(service, chat_id, name)
        elif not allowed.change:
            st.caption("Shared with you to read.")


def rename_step(service: Application, chat_id: int, name: str) -> None:
    """ "Rename…", then, in the same menu, the name to edit (drawn only then: text inputs are costly)."""
    if state.get(RENAMING) != chat_id:
        st.button(
            "Rename…",
            key=f"rename-{chat_id}",
            icon=":material/edit:",
            on_click=start_rename,
            args=(chat_id,),
            width="stretch",
        )
        return
    with st.form(f"rename-form-{chat_id}", border=False):
        st.text_input("Name", value=name, max_chars=200, key=f"name-{chat_id}")
        st.form_submit_button("Rename", type="primary", on_click=rename, args=(service, chat_id, name))
    st.button("Cancel", key=f"rename-cancelled-{chat_id}", on_click=cancel_rename)


def start_rename(chat_id: int) -> None:
    state[RENAMING] = chat_id


def cancel_rename() -> None:
    state.pop(RENAMING, None)


@said
def rename(service: Application, chat_id: int, old_name: str) -> None:
    """Form callback: the new name is in place before the sidebar is drawn again (blank or unchanged: nothing)."""
    cancel_rename()
    new_name = str(state.get(f"name-{chat_id}", "")).strip()
    if new_name and new_name != old_name:
        service.workspaces.rename(chat_id, new_name)


def delete_step(service: Application, chat_id: int, name: str) -> None:
    """ "Delete…", then, in the same menu, what it deletes and Delete / Cancel."""
    if state.get("confirm_delete") != chat_id:
        st.button(
            "Delete…",
            key=f"delete-{chat_id}",
            icon=":material/delete:",
            on_click=actions.ask_delete,
            args=(chat_id,),
            width="stretch",
        )
        return
    turns = service.turns.count(chat_id)
    st.warning(f"Delete {escape_name(name)} and its {turns} turn{'s' * (turns != 1)}? This cannot be undone.")
    left, right = st.columns(2)
    left.button(
        "Delete",
        key=f"delete-confirmed-{chat_id}",
        type="primary",
        on_click=actions.confirm_delete,
        args=(chat_id,),
    )
    right.button("Cancel", key=f"delete-cancelled-{chat_id}", on_click=actions.cancel_delete)


def downloads(service: Application, chat_id: int) -> None:
    """The calculation report and the whole workspace as Markdown, each built only when clicked."""
    for label, icon, name, document in (
        ("Calculation report", ":material/summarize:", "calculations", service.reports.report),
        ("Export as Markdown", ":material/download:", "workspace", service.reports.markdown),
    ):
        st.download_button(
            label,
            key=f"download-{name}-{chat_id}",
            icon=icon,
            file_name=f"{name}-{chat_id}.md",
            data=partial(document, chat_id),
            mime="text/markdown",
            on_click="ignore",
            width="stretch",
        )
