"""The calculation report: every calculation of a workspace, in order, ready to check and sign."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from core.records import Chat, ToolCallRecord, Turn
from core.rendering import pretty_units

FILE_TOOLS = frozenset({"read_file", "list_files", "edit_file"})


def _cell(text: Any) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: Iterable[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(value) for value in row) + " |" for row in rows]
    return [*lines, ""]


def _quote(text: str) -> list[str]:
    return [f"> {line}" if line else ">" for line in text.strip().splitlines()] + [""]


def _calculation(number: int, turn: Turn, call: ToolCallRecord) -> list[str]:
    lines = [f"## {number}. `{call.name}` · {(turn.created_at or '')[:16]} UTC", "", "Question:", ""]
    lines += _quote(turn.user)
    lines += ["**Inputs**", ""] + _table(
        ["input", "value"], [[k, json.dumps(v, ensure_ascii=False)] for k, v in call.arguments.items()]
    )
    data = call.data
    if data is None:
        return [*lines, f"**Result:** `{_cell(call.output)}`", ""]
    if data.get("formula"):
        lines += [f"**Formula:** {data['formula']}", ""]
    if data.get("substituted"):
        lines += [f"**Substituted:** {pretty_units(data['substituted'])}", ""]
    precise = data.get("precise", {})
    rows = [[key, pretty_units(value), precise.get(key, value)] for key, value in data.get("results", {}).items()]
    lines += ["**Results**", ""] + _table(["result", "value", "full precision"], rows)
    if data.get("checks"):
        checks = [[c["name"], pretty_units(c["value"]), pretty_units(c["limit"]), c["status"]] for c in data["checks"]]
        lines += ["**Checks**", ""] + _table(["check", "value", "limit", "status"], checks)
    if data.get("reference"):
        lines += [f"**Reference:** {data['reference']}", ""]
    lines += [f"- {note}" for note in data.get("notes", [])]
    return [*lines, ""] if data.get("notes") else lines


def calculation_report(chat: Chat, turns: Iterable[Turn], generated: datetime | None = None) -> str:
    """Markdown listing each calculation in order, with the question that led to it."""
    turns = list(turns)
    models = sorted({turn.model for turn in turns if turn.model})
    stamp = (generated or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"# Calculation report: {chat.chat_name}",
        "",
        f"Workspace {chat.chat_id} · generated {stamp} · model {', '.join(models) or 'unknown'}",
        "",
        "Every value below was computed by the application's tools, not by the model; the model chose the "
        "inputs. Check the inputs against the drawings before relying on a result.",
        "",
    ]
    number = 0
    skipped = 0
    for turn in turns:
        for call in turn.tool_calls:
            if call.name in FILE_TOOLS:
                continue
            if call.error:
                skipped += 1
                continue
            number += 1
            lines += _calculation(number, turn, call)
    if number == 0:
        lines += ["*This workspace has no calculations yet.*", ""]
    if skipped:
        lines += [f"*{skipped} tool calls that ended in an error are not listed.*", ""]
    return "\n".join(lines).rstrip() + "\n"
