"""The results of a search of past work (`search_past_work`), each citing its workspace by name with a link that
opens it (`?chat=`), its date, question, an excerpt of the answer and its calculations' results."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from faces.web.markdown import escape_markdown, escape_name
from faces.web.state import service as tab_service


def past_work_results(output: str) -> None:
    """The tool's JSON as the user reads it; anything else as it came."""
    try:
        found = json.loads(output)
        results = found["results"]
    except (ValueError, TypeError, KeyError):
        st.code(output, language=None, wrap_lines=True)
        return
    if not results:
        st.caption(escape_markdown(str(found.get("message", "Nothing matched."))))
    for result in results:
        if isinstance(result, dict):
            _result(result)


def _result(result: dict[str, Any]) -> None:
    name = str(result.get("workspace", ""))
    st.markdown(f"{_link(name)} · {escape_markdown(str(result.get('date', '')))}")
    st.markdown(
        f"*{escape_markdown(str(result.get('question', '')))}*  \n{escape_markdown(str(result.get('excerpt', '')))}"
    )
    for calculation in result.get("calculations") or []:
        figures = "; ".join(f"{key} {value}" for key, value in (calculation.get("results") or {}).items())
        verdict = f" · {calculation['verdict']}" if calculation.get("verdict") else ""
        st.caption(escape_markdown(f"{calculation.get('tool', '')}: {figures}{verdict}"))


def _link(name: str) -> str:
    """The workspace's name, linked to open it when the user may see one of that name."""
    try:
        chat = tab_service().workspaces.find(name)
    except (LookupError, ValueError):
        return f"**{escape_name(name)}**"
    return f"[{escape_name(name)}](?chat={chat.chat_id:d})"
