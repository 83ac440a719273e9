"""What the buttons ask for: a callback only records the request; the page carries it out on its next run."""

from __future__ import annotations

from typing import Literal

from app import Application
from app.presentation.formatting import shown_name
from faces.web.state import loop, notify, reset_window, state
from faces.web.sync_bridge import run_sync

ActionKind = Literal["switch", "new", "delete", "approve", "reject", "undo", "dismiss"]


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


def send_example(question: str) -> None:
    """An example question clicked in an empty workspace: sent as if typed."""
    state.example_question = question


def resend(key: str) -> None:
    """The last question, edited: it replaces the last turn (which stays in the record, superseded)."""
    edited = str(state.get(key, "")).strip()
    if edited:
        state.resend_question = edited
    state.pop("editing_last", None)


def edit_last(turn_id: int) -> None:
    state.editing_last = turn_id


def cancel_edit() -> None:
    state.pop("editing_last", None)


def next_question(service: Application, typed: str | None) -> tuple[str | None, bool]:
    """The question this run is to answer, and whether it replaces the last turn (Regenerate, an edit)."""
    if typed and typed.strip():
        return typed.strip(), False
    if (edited := state.pop("resend_question", None)) is not None:
        return edited, True
    if (example := state.pop("example_question", None)) is not None:
        return example, False
    if state.pop("regenerate_requested", False) and (chat := service.workspaces.current) is not None:
        return service.turns.last_question(chat.chat_id), True
    return None, False


def workspace_for_question(service: Application, shown: int | None) -> int | None:
    """The workspace a question belongs to: the one on the screen when it was sent (if it still exists)."""
    if shown is not None and service.workspaces.get(shown) is None:
        notify("warning", "The workspace you asked in was deleted meanwhile; the question was asked here instead.")
        return service.workspaces.current_id
    return shown


def run_action(service: Application) -> None:
    """Carry out what a button asked for: switch, new, delete, decide a file edit, or dismiss a notification."""
    kind, target = state.pop("action", (None, None))
    if kind == "dismiss" and target is not None:
        dismiss(service, target)
        return
    try:
        if kind == "delete" and target is not None:
            delete(service, target)
        elif kind in ("switch", "new"):
            switch(service, target if kind == "switch" else None)
        elif kind in ("approve", "reject", "undo"):
            decide_edit(service, kind, target)
    except LookupError:  # deleted meanwhile, in another window (or no longer shared)
        notify("warning", "That workspace no longer exists (it was deleted in another window).")
        service.workspaces.open_latest()
    except PermissionError as refused:  # the user may not (a role changed meanwhile): said on the intact page
        notify("warning", str(refused))


def dismiss(service: Application, notification_id: int) -> None:
    try:
        service.notifications.dismiss(notification_id)
    except LookupError as gone:  # dismissed in another tab meanwhile
        notify("info", str(gone))


def delete(service: Application, chat_id: int) -> None:
    chat = service.workspaces.get(chat_id)
    service.workspaces.delete(chat_id)
    notify("success", f"Deleted {shown_name(chat.chat_name) if chat else 'the workspace'}.")
    reset_window()


def switch(service: Application, target: int | None) -> None:
    """Open another workspace at once (`target` None starts a new one); the summary of the one left is
    written in the background, and the sidebar says so until it is done."""
    if target is None:
        run_sync(service.workspaces.start_new(), loop())
    else:
        run_sync(service.workspaces.switch(target), loop())
    reset_window()


def decide_edit(service: Application, kind: ActionKind, edit_id: int | None) -> None:
    chat = service.workspaces.current
    if chat is None:
        return
    try:
        if kind == "undo":
            notify("success", service.approvals.undo_last(chat.chat_id))
        elif edit_id is not None:
            decision = service.approvals.approve if kind == "approve" else service.approvals.reject
            notify("success", decision(chat.chat_id, edit_id))
    except (LookupError, ValueError, OSError) as error:  # a PermissionError too
        notify("warning", str(error))
