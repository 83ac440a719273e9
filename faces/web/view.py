"""How the web app draws turns: messages, tool calls as calculation cards, live replies.

Model and file text is rendered as safe Markdown or as code, its bidirectional
controls written out (`[U+202E]`); user text is escaped; nothing is rendered as HTML.
"""

from __future__ import annotations

import json
import time
from typing import Any, Literal

import streamlit as st

from app import tool_kind
from app.presentation.formatting import pretty_units, usage_caption, visible_bidi_controls
from domain.events import (
    AgentEvent,
    ErrorEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    WaitingForServer,
)
from domain.records import ToolCall, Turn
from faces.text import call_signature
from faces.web.cards import calculation_card
from faces.web.dates import hover_time, zone_named
from faces.web.documents import passages
from faces.web.markdown import escape_markdown, keep_line_breaks, outside_code, safe_markdown, sentence_markdown
from faces.web.past_work import past_work_results
from faces.web.pictures import stored_pictures

CallState = Literal["done", "running", "cut off"]
LABEL_LENGTH = 120


def model_text(text: str) -> str:
    """Model Markdown made safe, its line breaks kept and its quantities written as engineers write them."""
    return keep_line_breaks(safe_markdown(outside_code(visible_bidi_controls(text), pretty_units)))


def tool_call(call: ToolCall, state: CallState = "done", key: str = "") -> None:
    """One collapsible element per tool call: arguments, then the calculation card or the raw result (`key`,
    unique on the page, lets a stored search's PDF passages open their pages)."""
    icons = {"running": "spinner", "cut off": ":material/block:"}
    icon = icons.get(state) or (
        ":material/error:" if call.error else ":material/calculate:" if call.calculation else ":material/build:"
    )
    label = escape_markdown(visible_bidi_controls(call_signature(call.name, call.arguments)))
    with st.expander(label if len(label) < LABEL_LENGTH else label[: LABEL_LENGTH - 3] + "…", icon=icon):
        # The arguments, under the call they belong to; each element drawn costs the browser about 1 ms a run.
        st.code(visible_bidi_controls(json.dumps(call.arguments, indent=2, ensure_ascii=False)), language="json")
        if state != "done":
            st.caption("Running…" if state == "running" else "Stopped before this tool finished: no result.")
            return
        took = f"{call.duration_ms:.1f} ms"
        if call.calculation and not call.error:
            calculation_card(call.calculation)
            st.caption(took)
        elif tool_kind(call.name) == "documents" and not call.error:
            passages(call.output, key)
            st.caption(took)
        elif tool_kind(call.name) == "history" and not call.error:
            past_work_results(call.output)
            st.caption(took)
        else:
            st.caption(f"{'Error' if call.error else 'Result'} · {took}")
            st.code(visible_bidi_controls(call.output), language=None, wrap_lines=True)


def answer_footer(turn: Turn) -> None:
    """Under an answer: a copy button for its Markdown, and what it cost, with its time on hover."""
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        if turn.assistant:
            with st.popover(
                "Copy",
                icon=":material/content_copy:",
                type="tertiary",
                key=f"copy-{turn.turn_id}",
                help="The answer as Markdown: the button at the top right of the box copies it.",
            ):
                st.code(
                    visible_bidi_controls(outside_code(turn.assistant, pretty_units)), language=None, wrap_lines=True
                )
        when = hover_time(turn.created_at, zone_named(st.context.timezone))
        usage = usage_caption(turn.model, turn.prompt_tokens, turn.completion_tokens, turn.duration_ms)
        st.caption(usage or "Answered", help=f"Answered {when}" if when else None, width="content")


def past_turn(turn: Turn) -> None:
    with st.chat_message("user"):
        st.markdown(escape_markdown(turn.user))
        stored_pictures(turn)
    with st.chat_message("assistant"):
        if turn.thinking:
            with st.expander("Thinking", icon=":material/psychology:"):
                st.markdown(model_text(turn.thinking))
        for call in turn.tool_calls:
            tool_call(call, key=f"{turn.turn_id}-{call.id}")
        if turn.assistant:
            st.markdown(model_text(turn.assistant))
        if turn.status == "stopped":
            st.caption("Stopped before the end of the answer.")
        elif turn.status == "superseded":
            st.caption("Replaced by a regenerated answer below.")
        elif turn.status == "error":
            st.error(sentence_markdown(turn.error or "This answer failed."))
        answer_footer(turn)


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
        self.running: dict[str, tuple[Any, ToolCall]] = {}
        self.started = time.monotonic()
        self.waiting_shown = ""
        self.in_line = ""  # while every server with the model is busy: the turn's place in line

    def waiting(self, doing: str | None = None) -> None:
        """Between events: show that the model is still working, or what `doing` says it waits for ("indexing 3
        of 7 files…"), or that the turn waits in line for a server, redrawn when the shown tenth of a second
        changes."""
        if doing:
            what = escape_markdown(doing[:1].upper() + doing[1:])
        else:
            what = escape_markdown(self.in_line) if self.in_line else "Waiting for the model…"
        shown = f"{what} {time.monotonic() - self.started:.1f} s"
        if shown != self.waiting_shown:
            self.waiting_shown = shown
            self.progress.caption(shown)

    def show(self, event: AgentEvent) -> None:
        self.progress.empty()
        if isinstance(event, TextDelta):
            self.text += event.text
            self.answer.markdown(model_text(self.text) + " ▌")
        elif isinstance(event, ThinkingDelta):
            self.thinking += event.text
            if self.thinking_box is None:
                with self.tools:
                    self.thinking_box = st.expander("Thinking", icon=":material/psychology:").empty()
            self.thinking_box.markdown(model_text(self.thinking))
        elif isinstance(event, ToolCallStarted):
            call = ToolCall(id=event.id, name=event.name, arguments=event.arguments, output="")
            self.running[event.id] = (self.tools.empty(), call)
            with self.running[event.id][0].container():
                tool_call(call, "running")
        elif isinstance(event, ToolCallFinished):
            slot, _ = self.running.pop(event.call.id, None) or (self.tools.empty(), None)
            with slot.container():
                tool_call(event.call)
        elif isinstance(event, WaitingForServer):
            self.in_line = event.message if event.position else ""
            self.waiting_shown = ""
            self.waiting()
        elif isinstance(event, ErrorEvent):
            self.notes.error(sentence_markdown(event.message))
        elif event.type == "warning":
            self.notes.warning(sentence_markdown(event.message))
        elif event.type == "turn_completed":
            self.finish()
            self.answer.markdown(model_text(event.content))
            self.notes.caption(
                usage_caption(event.model, event.usage.prompt_tokens, event.usage.completion_tokens, event.duration_ms)
            )

    def finish(self) -> None:
        """The turn is over (done, failed or stopped): no tool call may still look as if it were running."""
        self.progress.empty()
        for slot, call in self.running.values():
            with slot.container():
                tool_call(call, "cut off")
        self.running.clear()
