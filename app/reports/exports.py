"""A workspace as documents: the calculation report, ready to check and sign, and the whole record in Markdown.

Each document is built as an iterator of text pieces, a turn at a time, so a
workspace of any length can be written to a file in constant memory
(`tools.atomic_files.write_atomically`); the service joins the pieces for a
workspace small enough to hold.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from app.presentation.calculation import present
from app.presentation.formatting import usage_caption
from app.presentation.interaction import PresentedInteraction, number_text
from app.presentation.sections import bar_rows, length, section_title
from domain.calculations import CalcResult, SectionDrawing
from domain.records import ToolCall, Turn, Workspace
from tools import is_calculation


def calculations(turns: Iterable[Turn]) -> Iterator[tuple[Turn, ToolCall | None]]:
    """What the report and the package list, in order: each calculation with its turn, and `(turn, None)` for
    a tool call that ended in an error (left out, and counted). File, search and memory tools are not listed
    (the catalogue says which a tool is: `tools.is_calculation`)."""
    for turn in turns:
        for call in turn.tool_calls:
            if is_calculation(call.name):
                yield turn, None if call.error else call


def _cell(text: Any) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: Iterable[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(value) for value in row) + " |" for row in rows]
    return [*lines, ""]


def _quote(text: str) -> list[str]:
    return [f"> {line}" if line else ">" for line in text.strip().splitlines()] + [""]


def _calculation(number: int, turn: Turn, call: ToolCall) -> list[str]:
    lines = [f"## {number}. `{call.name}` · {(turn.created_at or '')[:16]} UTC", "", "Question:", ""]
    lines += _quote(turn.user)
    lines += ["**Inputs**", ""] + _table(
        ["input", "value"], [[k, json.dumps(v, ensure_ascii=False)] for k, v in call.arguments.items()]
    )
    result = call.calculation
    if result is None:
        return [*lines, f"**Result:** `{_cell(call.output)}`", ""]
    return lines + calculation_markdown(result)


def calculation_markdown(result: CalcResult) -> list[str]:
    """The report's layout of a calculation: warnings, formula, substitution, results, checks (the governing one
    first), the verdict with what it covers, what was not checked, reference, notes, and in words what a drawing
    shows elsewhere (a column's interaction diagram, a concrete section)."""
    shown = present(result)
    lines = []
    for warning in shown.warnings:
        lines += [f"**Warning:** {warning}", ""]
    if shown.formula:
        lines += [f"**Formula:** {shown.formula}", ""]
    if shown.substituted:
        lines += [f"**Substituted:** {shown.substituted}", ""]
    rows = [[item.name, item.value, item.precise] for item in shown.results]
    lines += ["**Results**", ""] + _table(["result", "value", "full precision"], rows)
    if shown.checks:
        checks = [
            [c.name + (" (governs)" if c.governs else ""), c.value, f"{c.relation} {c.limit}", c.ratio, c.status,
             c.clause]
            for c in shown.checks
        ]  # fmt: skip
        lines += ["**Checks**", ""] + _table(["check", "value", "limit", "ratio", "status", "clause"], checks)
    if shown.verdict_line:
        lines += [f"**Verdict:** {shown.verdict_line}", ""]
    if shown.not_checked:
        lines += [f"**Not checked:** {'; '.join(shown.not_checked)}", ""]
    if shown.reference:
        lines += [f"**Reference:** {shown.reference}", ""]
    lines += [f"- {note}" for note in shown.notes]
    lines = [*lines, ""] if shown.notes else lines
    if shown.interaction:
        lines += interaction_markdown(shown.interaction)
    if shown.section:
        lines += section_markdown(shown.section)
    return lines


def interaction_markdown(shown: PresentedInteraction) -> list[str]:
    """The interaction diagram where no chart can go: the curve's key points and where the applied load stands."""
    rows = [[point.name, point.moment_text, point.axial_text] for point in (*shown.key_points, shown.applied)]
    return [
        "**Interaction diagram** (design values, compression positive)",
        "",
        *_table(["point", "moment", "axial load"], rows),
        f"The applied load {shown.standing}.",
        "",
    ]


def section_markdown(section: SectionDrawing) -> list[str]:
    """The section where no drawing can go: its size, stirrups and cover, and its bars row by row."""
    unit = section.unit
    rows = [
        [
            f"{len(row.positions)} Ø {length(row.diameter, unit)}",
            length(row.depth, unit),
            ", ".join(number_text(x) for x in row.positions) + f" {unit}",
        ]
        for row in bar_rows(section)
    ]
    heading = f"**{section_title(section)}**"
    return [heading, "", *_table(["bars", "depth from the top face", "from the left face"], rows)]


def _document(chunks: Iterable[list[str]]) -> Iterator[str]:
    """The lines of `chunks` as `"\\n".join(lines).rstrip() + "\\n"` would give them, piece by piece.

    Whitespace at the end of what has been given is held back until more text
    follows, so the document's trailing whitespace is dropped as `rstrip` would.
    """
    held = ""
    separator = ""
    for lines in chunks:
        text = separator + "\n".join(lines)
        separator = "\n"
        body = text.rstrip()
        if body:
            yield held + body
            held = text[len(body) :]
        else:
            held += text
    yield "\n"


def report_pieces(
    chat: Workspace, turns: Iterable[Turn], models: Sequence[str], generated: datetime | None = None
) -> Iterator[str]:
    """The calculation report in pieces: each calculation in order, with the question that led to it."""
    return _document(_report_chunks(chat, turns, models, generated))


def _report_chunks(
    chat: Workspace, turns: Iterable[Turn], models: Sequence[str], generated: datetime | None
) -> Iterator[list[str]]:
    stamp = (generated or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    yield [
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
    for turn, call in calculations(turns):
        if call is None:
            skipped += 1
            continue
        number += 1
        yield _calculation(number, turn, call)
    if number == 0:
        yield ["*This workspace has no calculations yet.*", ""]
    if skipped:
        yield [f"*{skipped} tool calls that ended in an error are not listed.*", ""]


def calculation_report(chat: Workspace, turns: Iterable[Turn], generated: datetime | None = None) -> str:
    """Markdown listing each calculation in order, with the question that led to it."""
    turns = list(turns)
    models = sorted({turn.model for turn in turns if turn.model})
    return "".join(report_pieces(chat, turns, models, generated))


_BACKTICK_RUNS = re.compile(r"`{3,}")


def fenced(text: str, language: str = "") -> str:
    """`text` in a fence longer than any run of backticks in it (three at least)."""
    fence = "```"
    if fence in text:  # rare: only then are the runs looked for
        fence = "`" * (max(map(len, _BACKTICK_RUNS.findall(text))) + 1)
    return f"{fence}{language}\n{text}\n{fence}"


class _NotPlainJsonError(Exception):
    """A value `indented_json` leaves to the standard library (a tuple, a number subclass, a key not text)."""


def indented_json(value: Any) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, the same text, from C-encoded strings.

    The standard library has no C encoder for indented JSON, and its Python one was
    the largest cost of an export; values that are not plain JSON go to it still.
    """
    try:
        return _indented(value, "\n")
    except _NotPlainJsonError:
        return json.dumps(value, indent=2, ensure_ascii=False)


def _indented(value: Any, newline: str) -> str:
    kind = type(value)
    if kind is str:
        return _json_string(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = newline + "  "
        items = []
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlainJsonError
            items.append(f"{_json_string(key)}: {_indented(item, inner)}")
        return "{" + inner + ("," + inner).join(items) + newline + "}"
    if kind is list:
        if not value:
            return "[]"
        inner = newline + "  "
        return "[" + inner + ("," + inner).join([_indented(item, inner) for item in value]) + newline + "]"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        return _json_float(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    raise _NotPlainJsonError


_json_string: Callable[[str], str] = json.encoder.encode_basestring  # C, without ASCII escapes


def _json_float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _pictures(turn: Turn, folder: str | None) -> str:
    """The turn's pictures: linked by file name in `folder` (beside the export), or described (None)."""
    lines = []
    for number, image in enumerate(turn.images, 1):
        kind = "PNG" if image.media_type == "image/png" else "JPEG"
        if folder is None:
            lines.append(f"*Picture {number}: {image.width} × {image.height} {kind}, SHA-256 {image.sha256}.*")
        else:
            lines.append(f"![Picture {number}: {image.width} × {image.height} {kind}](<{folder}/{image.file_name}>)")
    return "\n\n".join(lines) + "\n"


def _turn_markdown(number: int, turn: Turn, pictures: str | None = None) -> list[str]:
    """One turn as one piece of text: what its lines joined by line breaks would give (its pictures linked in the
    folder `pictures`, or described)."""
    parts = [f"## Turn {number} · {(turn.created_at or '')[:19]}\n\n**You:**\n\n{fenced(turn.user)}\n"]
    if turn.images:
        parts.append(_pictures(turn, pictures))
    for call in turn.tool_calls:
        arguments = fenced(indented_json(call.arguments), "json")
        outcome = "error" if call.error else "result"
        parts.append(
            f"**Tool `{call.name}`** ({call.duration_ms:.1f} ms)\n\n{arguments}\n\n{outcome}:\n\n"
            f"{fenced(call.output)}\n"
        )
    status = "" if turn.status == "complete" else f" *({turn.status}{': ' + turn.error if turn.error else ''})*"
    parts.append(f"**Assistant:**{status}\n\n{turn.assistant or '*(no answer)*'}\n")
    if caption := usage_caption(turn.model, turn.prompt_tokens, turn.completion_tokens, turn.duration_ms):
        parts.append(f"*{caption}*\n")
    return ["\n".join(parts)]


def workspace_pieces(chat: Workspace, turns: Iterable[Turn], pictures: str | None = None) -> Iterator[str]:
    """The whole workspace as Markdown, in pieces: summary, then every turn with its pictures (linked by file name
    in the folder `pictures` beside the export, or described when None) and its tool calls."""
    return _document(_workspace_chunks(chat, turns, pictures))


def _workspace_chunks(chat: Workspace, turns: Iterable[Turn], pictures: str | None) -> Iterator[list[str]]:
    yield [
        f"# {chat.chat_name}",
        "",
        f"Created {(chat.created_at or '')[:19]} UTC.",
        "",
        "## Summary (digital twin)",
        "",
    ]
    if chat.context_summary:
        yield [f"*Updated {(chat.context_updated_at or '')[:19]} UTC.*", "", chat.context_summary, ""]
    else:
        yield ["*No summary yet.*", ""]
    for number, turn in enumerate(turns, start=1):
        yield _turn_markdown(number, turn, pictures)
