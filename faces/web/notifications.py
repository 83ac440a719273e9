"""The notifications in the sidebar: what others did that concerns the signed-in user, each with Open (its
workspace) and Dismiss. They are kept in the store until dismissed, so a closed tab loses none: the next sign-in
shows them, and an open page shows a new one within a few seconds (`faces.web.live`)."""

from __future__ import annotations

import streamlit as st

from app import Application
from domain.records import Notification
from faces.web import actions
from faces.web.dates import hover_time, zone_named
from faces.web.markdown import escape_markdown


def notifications_panel(service: Application) -> None:
    """The user's notifications, newest first (nothing without accounts, or with none)."""
    notes = service.notifications.mine()
    if not notes:
        return
    st.caption(f"**Notifications** ({len(notes)})")
    zone = zone_named(st.context.timezone)
    for note in notes:
        notification(note, hover_time(note.created_at, zone), note.chat_id != service.workspaces.current_id)


def notification(note: Notification, when: str | None, can_open: bool) -> None:
    """One notification: its sentence (its time on hover), Open when it is about another workspace, Dismiss."""
    with st.container(border=True, key=f"note-{note.notification_id}"):
        st.markdown(escape_markdown(note.text), help=f"{when}" if when else None)
        with st.container(horizontal=True, gap="small"):
            if can_open and note.chat_id is not None:
                st.button(
                    "Open",
                    key=f"open-note-{note.notification_id}",
                    on_click=actions.ask,
                    args=("switch", note.chat_id),
                    icon=":material/open_in_new:",
                    type="tertiary",
                )
            st.button(
                "Dismiss",
                key=f"dismiss-note-{note.notification_id}",
                on_click=actions.ask,
                args=("dismiss", note.notification_id),
                icon=":material/close:",
                type="tertiary",
            )
