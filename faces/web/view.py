"""How the web app draws turns: messages, tool calls as calculation cards (cards.py), live replies.

Model and file text is rendered as safe Markdown or as code; user text is
escaped; nothing is rendered as HTML.
"""

from __future__ import annotations

import json
import time
from typing import Any

import streamlit as st

from app.formatting import call_signature, usage_caption
from domain.events import AgentEvent, ErrorEvent, TextDelta, ThinkingDelta, ToolCallFinished, ToolCallStarted
from domain.records import ToolCall, Turn
from faces.web.cards import calculation_card
from faces.web.markdown import escape_markdown, safe_markdown


def tool_call(call: ToolCall, running: bool = False) -> None:
    """One collapsible element per tool call: arguments, then the calculation card or the raw result."""
    icon = ":material/error:" if call.error else ":material/calculate:" if call.data else ":material/build:"
    label = escape_markdown(call_signature(call.name, call.arguments))
    with st.expander(label if len(label) < 120 else label[:117] + "…", icon=icon):
        st.caption("Arguments")
        st.code(json.dumps(call.arguments, indent=2, ensure_ascii=False), language="json")
        if running:
            st.caption("Running…")
            return
        if call.data and not call.error:
            calculation_card(call.data)
        else:
            st.caption("Error" if call.error else "Result")
            st.code(call.output, language=None, wrap_lines=True)
        st.caption(f"{call.duration_ms:.1f} ms")


def past_turn(turn: Turn) -> None:
    with st.chat_message("user"):
        st.markdown(escape_markdown(turn.user))
    with st.chat_message("assistant"):
        if turn.thinking:
            with st.expander("Thinking", icon=":material/psychology:"):
                st.markdown(safe_markdown(turn.thinking))
        for call in turn.tool_calls:
            tool_call(call)
        if turn.assistant:
            st.markdown(safe_markdown(turn.assistant))
        if turn.status == "stopped":
            st.caption("Stopped before the end of the answer.")
        elif turn.status == "superseded":
            st.caption("Replaced by a regenerated answer below.")
        elif turn.status == "error":
            st.error(escape_markdown(turn.error or "This answer failed."))
        st.caption(usage_caption(turn.model, turn.prompt_tokens, turn.completion_tokens, turn.duration_ms))


class LiveView:
    """Places in the assistant's message for thinking, tool calls, the answer and notices."""

    def __init__(self) -> None:
        self.thinking_box: Any = None
        self.tools = st.container()
        self.answer = st.empty()
        self.progress = st.empty()
        self.notes = st.container()
        self.text = ""
        self.thinking = ""
        self.running: dict[str, Any] = {}
        self.started = time.monotonic()

    def waiting(self) -> None:
        """Between events: show that the model is still working (each update also lets Stop interrupt)."""
        self.progress.caption(f"Waiting for the model… {time.monotonic() - self.started:.1f} s")

    def show(self, event: AgentEvent) -> None:
        self.progress.empty()
        if isinstance(event, TextDelta):
            self.text += event.text
            self.answer.markdown(safe_markdown(self.text) + " ▌")
        elif isinstance(event, ThinkingDelta):
            self.thinking += event.text
            if self.thinking_box is None:
                with self.tools:
                    self.thinking_box = st.expander("Thinking", icon=":material/psychology:").empty()
            self.thinking_box.markdown(safe_markdown(self.thinking))
        elif isinstance(event, ToolCallStarted):
            self.running[event.id] = self.tools.empty()
            with self.running[event.id].container():
                tool_call(ToolCall(id=event.id, name=event.name, arguments=event.arguments, output=""), running=True)
        elif isinstance(event, ToolCallFinished):
            slot = self.running.pop(event.call.id, None) or self.tools.empty()
            with slot.container():
                tool_call(event.call)
        elif isinstance(event, ErrorEvent):
            self.notes.error(escape_markdown(event.message))
        elif event.type == "warning":
            self.notes.warning(escape_markdown(event.message))
        elif event.type == "turn_completed":
            self.answer.markdown(safe_markdown(event.content))
            self.notes.caption(
                usage_caption(event.model, event.usage.prompt_tokens, event.usage.completion_tokens, event.duration_ms)
            )
