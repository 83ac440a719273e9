"""The sidebar's Outside tools panel: the MCP servers' tools, and which of them the user allows in this run."""

from __future__ import annotations

import streamlit as st

from app import Application
from faces.web.markdown import escape_markdown


def outside_tools_panel(service: Application) -> None:
    tools = service.outside_tools
    if not tools.configured:
        return
    names = tools.names()
    with st.expander(f"Outside tools ({len(names)})", icon=":material/extension:"):
        st.caption("Tools of the MCP servers in MCP_CONFIG. Those marked need your approval before they run.")
        for name in names:
            if not tools.needs_consent(name):
                st.caption(f":material/check: {escape_markdown(name)} · approved in MCP_CONFIG")
                continue
            allowed = st.checkbox(f"Allow {escape_markdown(name)}", value=tools.allowed(name), key=f"allow-{name}")
            tools.allow(name, allowed)
        for problem in tools.problems:
            st.caption(f":material/warning: {escape_markdown(problem)}")
