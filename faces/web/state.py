"""This browser tab's state: its application service, its event loop, and notices for the next page."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import streamlit as st

from app import Application, HistoryError, McpPool, ServerPools, SettingsError, load_settings, start
from faces.web.signing_in import session_still_stands, signed_in_user

PAGE_TURNS = 5  # the turns drawn first: each element costs the browser about 1 ms a run, a turn about 12 of them
EARLIER_TURNS = 10  # added by "Show earlier turns"
NoticeKind = Literal["success", "info", "warning", "error"]

state = st.session_state


def service() -> Application:
    """This tab's service, made on its first run (a bad setting or store stops the page with one sentence):
    its own view of the process's application; with AUTH=accounts, for the user who signs in on the page first."""
    if "service" not in state:
        made = opened()
        state.service, state.turn_window, state.notices = made, PAGE_TURNS, []
        state.loop = asyncio.new_event_loop()  # this tab's loop: the agent keeps its connection to Ollama
        open_from_url(made)
    current: Application = state.service
    if current.user is not None:  # with accounts: the session still stands, as checked at every run
        session_still_stands(current)
    return current


def opened() -> Application:
    """The tab's view of the process's application (its own open workspace, edit approvals and consent to outside
    tools), or, with accounts, that application opened for the user who signs in (their failed sign-ins and
    running turns count across tabs)."""
    try:
        settings = load_settings(env_file=Path(".env"), overrides={})
        base = shared_application(str(Path.cwd()), settings.model_dump_json())
    except (SettingsError, HistoryError) as error:
        st.error(str(error))
        st.stop()
    if not base.accounts_on:
        return base.sibling()
    return base.for_user(signed_in_user(base))


@st.cache_resource(show_spinner=False)
def shared_application(folder: str, settings: str) -> Application:
    """One application for the whole app process (run in `folder`, with these settings: a changed `.env` opens
    another for the tabs opened after it), on which each tab opens its view: one store connection, one agent,
    one summary writer, and one watch of the documents folder for them all. A tab's view costs a fraction of a
    millisecond, where an application of its own took its connection, its threads and ~5 ms on each page load."""
    base = start(Path(".env"), {}, mcp_pool(), server_pools())
    base.documents.follow()  # new and changed documents are read in the background, and as they change
    base.webhooks.keep_delivering()  # the web app serves: it delivers what other processes left pending too
    return base


@st.cache_resource
def mcp_pool() -> McpPool:
    """The MCP servers of the whole app process, shared by its tabs (each tab keeps its own consent)."""
    return McpPool()


@st.cache_resource
def server_pools() -> ServerPools:
    """The Ollama servers of the whole app process, shared by its tabs: their turns in flight count together."""
    return ServerPools()


def loop() -> asyncio.AbstractEventLoop:
    tab_loop: asyncio.AbstractEventLoop = state.loop
    return tab_loop


def open_from_url(spaces: Application) -> None:
    """`?chat=<id>` opens that workspace (a reload or a bookmark comes back to it); else the latest."""
    wanted = st.query_params.get("chat", "")
    if wanted.isascii() and wanted.isdigit() and len(wanted) < 15 and spaces.workspaces.get(int(wanted)) is not None:
        spaces.workspaces.open(int(wanted))
        return
    if wanted:
        notify("warning", f"There is no workspace {wanted[:20]}; showing the most recent one instead.")
    spaces.workspaces.open_latest()


def sync_url(spaces: Application) -> None:
    """Keep `?chat=` on the current workspace, so a reload comes back to it."""
    if spaces.workspaces.current_id is None:
        st.query_params.pop("chat", None)
    elif st.query_params.get("chat") != str(spaces.workspaces.current_id):
        st.query_params["chat"] = str(spaces.workspaces.current_id)


def notify(kind: NoticeKind, message: str) -> None:
    """A message shown once, at the top of the next page."""
    state.notices.append((kind, message))


Callback = TypeVar("Callback", bound=Callable[..., None])


def said(callback: Callback) -> Callback:
    """A button's callback whose refusal (the user may not, the workspace is gone, a value is refused, the store
    failed) is one sentence at the top of the intact page, never Streamlit's error page in its place."""

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            callback(*args, **kwargs)
        except (PermissionError, LookupError, ValueError, HistoryError) as refused:
            notify("warning", str(refused))

    return cast(Callback, run)


def reset_window() -> None:
    state.turn_window = PAGE_TURNS


def show_earlier() -> None:
    state.turn_window += EARLIER_TURNS
