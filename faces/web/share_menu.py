"""Share, in the workspace menu with AUTH=accounts: with whom the open workspace is shared, each with Unshare;
share with a user as viewer or editor, or with everyone in the office to read. Only its owner or an admin
sees it (the application checks it again)."""

from __future__ import annotations

import streamlit as st

from app import Application, ForbiddenError
from domain.accounts import Share
from faces.web.markdown import escape_markdown
from faces.web.state import notify, state


def share_section(service: Application, chat_id: int, may_share: bool) -> None:
    """With accounts, for the workspace's owner or an admin only."""
    if service.user is None or not may_share:
        return
    st.divider()
    for current in service.sharing.shares(chat_id):
        shared_row(service, current)
    with st.form(f"share-form-{chat_id}", border=False, clear_on_submit=True):
        st.text_input("Share with", key=f"share-user-{chat_id}", placeholder="User name", max_chars=200)
        st.selectbox("As", ("viewer", "editor"), key=f"share-role-{chat_id}")
        st.form_submit_button("Share", icon=":material/share:", on_click=share, args=(service, chat_id))
    st.button(
        "Share with everyone to read",
        key=f"share-everyone-{chat_id}",
        icon=":material/groups:",
        on_click=share_with_everyone,
        args=(service, chat_id),
        width="stretch",
    )


def shared_row(service: Application, share: Share) -> None:
    who = share.user_name
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.caption(f"Shared with {escape_markdown(who) if who else 'everyone'} as {share.role}")
        st.button(
            "Unshare",
            key=f"unshare-{share.chat_id}-{who or 'everyone'}",
            type="tertiary",
            on_click=unshare,
            args=(service, share.chat_id, who),
        )


def share(service: Application, chat_id: int) -> None:
    """Form callback: share with the user named, as the role chosen."""
    name = str(state.get(f"share-user-{chat_id}", "")).strip()
    role = str(state.get(f"share-role-{chat_id}", "viewer"))
    if not name:
        notify("warning", "Give the name of the user to share with.")
        return
    try:
        shared = service.sharing.share(chat_id, name, role)
    except (LookupError, ValueError, ForbiddenError) as error:
        notify("warning", str(error))
        return
    notify("success", f"Shared with {shared.user_name} as {shared.role}.")


def share_with_everyone(service: Application, chat_id: int) -> None:
    try:
        service.sharing.share_with_everyone(chat_id)
    except (LookupError, ForbiddenError) as error:
        notify("warning", str(error))
        return
    notify("success", "Shared with everyone in the office, to read.")


def unshare(service: Application, chat_id: int, user_name: str | None) -> None:
    try:
        service.sharing.unshare(chat_id, user_name)
    except (LookupError, ForbiddenError) as error:
        notify("warning", str(error))
        return
    notify("success", f"No longer shared with {user_name or 'everyone'}.")
