"""What the buttons ask for: a callback only records the request; the page carries it out on its next run."""

from __future__ import annotations

from typing import Literal

import streamlit as st

from app import WorkspaceService
from faces.web.state import loop, notify, reset_window, state
from faces.web.sync_bridge import run_sync

ActionKind = Literal["switch", "new", "delete", "approve", "reject", "undo"]


def ask(kind: ActionKind, target: int | None = None) -> None:
    """Button callback: remember what to do on the next run."""
    state.action = (kind, target)


def ask_delete(chat_id: int) -> None:
    state.confirm_delete = chat_id


def cancel_delete() -> None:
    state.pop("confirm_delete", None)


def confirm_delete(chat_id: int) -> None:
    state.pop("confirm_delete", None)
    ask("delete", chat_id)


def regenerate() -> None:
    state.regenerate_requested = True


def run_action(service: WorkspaceService) -> None:
    """Carry out what a button asked for: switch, new, delete, or decide a file edit."""
    kind, target = state.pop("action", (None, None))
    try:
        if kind == "delete" and target is not None:
            delete(service, target)
        elif kind in ("switch", "new"):
            switch(service, target if kind == "switch" else None)
        elif kind in ("approve", "reject", "undo"):
            decide_edit(service, kind, target)
    except LookupError:  # deleted meanwhile, in another window
        notify("warning", "That workspace no longer exists (it was deleted in another window).")
        service.open_latest()


def delete(service: WorkspaceService, chat_id: int) -> None:
    chat = service.get(chat_id)
    service.delete(chat_id)
    notify("success", f"Deleted {chat.chat_name if chat else 'the workspace'}.")
    reset_window()


def switch(service: WorkspaceService, target: int | None) -> None:
    """Leave the current workspace (summarising it if it has new turns, with progress shown), open another.

    `target` None starts a new workspace.
    """
    leaving = service.current
    label = f"Updating the summary of {leaving.chat_name}…" if leaving and service.needs_summary() else "Switching…"
    with st.status(label, expanded=False) as status:
        if target is None:
            _, outcome = run_sync(service.start_new(), loop())
        else:
            outcome = run_sync(service.switch(target), loop())
        status.update(label="Summary updated." if outcome.summarised else "Switched.", state="complete")
    if outcome.error is not None and outcome.notice is not None:
        notify("warning", outcome.notice)
    reset_window()


def decide_edit(service: WorkspaceService, kind: ActionKind, edit_id: int | None) -> None:
    chat = service.current
    if chat is None:
        return
    try:
        if kind == "undo":
            notify("success", service.edits.undo_last(chat.chat_id))
        elif edit_id is not None:
            decision = service.edits.approve if kind == "approve" else service.edits.reject
            notify("success", decision(chat.chat_id, edit_id))
    except (LookupError, ValueError, OSError) as error:
        notify("warning", str(error))
