"""This browser tab's state: its application service, its event loop, and notices for the next page."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

import streamlit as st

from app import Application, HistoryError, McpPool, ServerPools, SettingsError, start

PAGE_TURNS = 5  # the turns drawn first: each element costs the browser about 1 ms a run, a turn about 12 of them
EARLIER_TURNS = 10  # added by "Show earlier turns"
NoticeKind = Literal["success", "info", "warning", "error"]

state = st.session_state


def service() -> Application:
    """This tab's service, made on its first run (a bad setting or store stops the page with one sentence)."""
    if "service" not in state:
        try:
            made = start(Path(".env"), {}, mcp_pool(), server_pools())
        except (SettingsError, HistoryError) as error:
            st.error(str(error))
            st.stop()
        state.service, state.turn_window, state.notices = made, PAGE_TURNS, []
        state.loop = asyncio.new_event_loop()  # this tab's loop: the agent keeps its connection to Ollama
        made.documents.refresh()  # new and changed documents are read in the background
        open_from_url(made)
    current: Application = state.service
    return current


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


def reset_window() -> None:
    state.turn_window = PAGE_TURNS


def show_earlier() -> None:
    state.turn_window += EARLIER_TURNS
