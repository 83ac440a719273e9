"""The documents (the Markdown export, the calculation report) built a batch of turns at a time, on real SQLite
files and PostgreSQL databases: each is held byte for byte to what the plain, whole-list way gave."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agent import AIAgent
from app.application import Application
from app.presentation.formatting import usage_caption
from app.reports.exports import _calculation, report_pieces, workspace_pieces
from domain.calculations import CalcResult
from domain.records import ToolCall, Turn, Workspace
from history import ChatHistoryDB, HistoryError
from tools.atomic_files import write_atomically

FILE_TOOLS = frozenset({"read_file", "list_files", "edit_file"})  # what the report left out before it streamed


ODD_ARGUMENTS: list[dict[str, object]] = [
    {},
    {"span": "6 m", "load": "12 kN/m"},
    {
        "loads": [{"w": 1.5, "case": "D"}, [], {}, [[1, 2], [3]], None],
        "flags": {"pinned": True, "fixed": False, "note": None},
        "numbers": [0, -7, 10**30, -0.0, 1e-7, 1e22, 0.1 + 0.2, 2.5e-310, math.inf, -math.inf, math.nan],
        "text": 'béton ✓ 🏗️ "quoted" \\ back\nslash\t\x00\x1f\u2028\u007f',
        'clé "x"\n': "a key with quotes and a line break",
        "": "",
    },
    {"expression": "```python\nx = 1\n```", "fences": "`` ` ```` `````"},
    {"deep": {"a": {"b": {"c": {"d": [[[[]]]]}}}}},
]


@pytest.fixture
def service(store: ChatHistoryDB) -> Application:
    return Application(store, AIAgent("qwen3:4b", "http://127.0.0.1:9", "system"))


BEAM = ToolCall(
    name="beam_analysis",
    arguments={"span": "6 m", "load": "12 kN/m"},
    output='{"max_moment": "54 kN·m"}',
    duration_ms=1.5,
    calculation=CalcResult(
        formula="M = wL²/8", results={"max_moment": "54 kN * m"}, checks=[], notes=["simply supported"]
    ),
)


FAILED = ToolCall(name="divide", arguments={"a": 1, "b": 0}, output="Error: division by zero", error="division by zero")


def frozen_fenced(text: str, language: str = "") -> str:
    """The export's fenced block as it was first written (kept here to hold the export to its bytes)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def frozen_turn_markdown(number: int, turn: Turn) -> list[str]:
    """One turn of the export as it was first written: the reference the export is held to, byte for byte."""
    lines = [f"## Turn {number} · {(turn.created_at or '')[:19]}", "", "**You:**", "", frozen_fenced(turn.user), ""]
    for call in turn.tool_calls:
        outcome = "error" if call.error else "result"
        lines += [
            f"**Tool `{call.name}`** ({call.duration_ms:.1f} ms)",
            "",
            frozen_fenced(json.dumps(call.arguments, indent=2, ensure_ascii=False), "json"),
            "",
            f"{outcome}:",
            "",
            frozen_fenced(call.output),
            "",
        ]
    status = "" if turn.status == "complete" else f" *({turn.status}{': ' + turn.error if turn.error else ''})*"
    lines += [f"**Assistant:**{status}", "", turn.assistant or "*(no answer)*", ""]
    if caption := usage_caption(turn.model, turn.prompt_tokens, turn.completion_tokens, turn.duration_ms):
        lines += [f"*{caption}*", ""]
    return lines


def whole_list_markdown(chat: Workspace, turns: Iterable[Turn]) -> str:
    """The export as it was built before it streamed: every line in one list, joined once."""
    lines = [
        f"# {chat.chat_name}",
        "",
        f"Created {(chat.created_at or '')[:19]} UTC.",
        "",
        "## Summary (digital twin)",
        "",
    ]
    if chat.context_summary:
        lines += [f"*Updated {(chat.context_updated_at or '')[:19]} UTC.*", "", chat.context_summary, ""]
    else:
        lines += ["*No summary yet.*", ""]
    for number, turn in enumerate(turns, start=1):
        lines += frozen_turn_markdown(number, turn)
    return "\n".join(lines).rstrip() + "\n"


def whole_list_report(chat: Workspace, turns: list[Turn], generated: datetime) -> str:
    """The calculation report as it was built before it streamed."""
    models = sorted({turn.model for turn in turns if turn.model})
    lines = [
        f"# Calculation report: {chat.chat_name}",
        "",
        f"Workspace {chat.chat_id} · generated {generated:%Y-%m-%d %H:%M UTC} · model {', '.join(models) or 'unknown'}",
        "",
        "Every value below was computed by the application's tools, not by the model; the model chose the "
        "inputs. Check the inputs against the drawings before relying on a result.",
        "",
    ]
    number = skipped = 0
    for turn in turns:
        for call in turn.tool_calls:
            if call.name in FILE_TOOLS:
                continue
            if call.error:
                skipped += 1
                continue
            number += 1
            lines += _calculation(number, turn, call)
    if skipped:
        lines += [f"*{skipped} tool calls that ended in an error are not listed.*", ""]
    return "\n".join(lines).rstrip() + "\n"


def chat_of(store: ChatHistoryDB, chat_id: int) -> Workspace:
    chat = store.get_chat(chat_id)
    assert chat is not None
    return chat


def long_workspace(store: ChatHistoryDB) -> int:
    chat = store.create_chat("Tower A — transfer beams")
    store.set_context_summary(chat, "12 storeys; TB1–TB3 carry the columns.")
    for i in range(1_234):
        calls = [BEAM, FAILED] if i % 7 == 0 else [BEAM] if i % 3 == 0 else []
        store.add_to_history(
            chat, f"TB{i}: moment?\n\n  indented", f"54 kN·m ```fenced``` {json.dumps({'i': i})}", tool_calls=calls
        )
    store.add_to_history(chat, "Last one", "Stopped half way   \n\n\t ", status="stopped", model="qwen3:8b")
    return chat


def test_the_export_streams_byte_for_byte_what_the_whole_list_gave(
    store: ChatHistoryDB, service: Application, tmp_path: Path
) -> None:
    chat = long_workspace(store)
    expected = whole_list_markdown(chat_of(store, chat), store.get_turns(chat))
    written = service.reports.write_export(chat, tmp_path / "export.md")
    assert written.read_bytes() == expected.encode("utf-8")
    assert service.reports.markdown(chat) == expected
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no partial file left"


def varied_workspace(store: ChatHistoryDB) -> int:
    """Turns of every shape the export writes: backtick runs, odd arguments, errors, statuses, usage, no answer."""
    chat = store.create_chat("Odd — «names» | pipes `ticks`")
    store.set_context_summary(chat, "Line one\n\n  indented line   \n")
    texts = ["plain", "has ``` three", "has ```` four and ` one", "``````six``````", "", "  \n\t trailing  \n", "ü"]
    statuses = ["complete", "stopped", "error", "superseded"]
    for i in range(60):
        calls = [
            ToolCall(name=f"tool_{j}", arguments=ODD_ARGUMENTS[(i + j) % len(ODD_ARGUMENTS)],
                     output=texts[(i + 2 * j) % len(texts)], error="failed: `x`" if (i + j) % 5 == 0 else None,
                     duration_ms=[0.0, 0.04, 0.05, 1234.5678, 1e9][(i + j) % 5],
                     calculation=CalcResult(results={}, formula="M = wL²/8") if j == 1 else None)
            for j in range(i % 4)
        ]  # fmt: skip
        store.add_to_history(
            chat,
            texts[i % len(texts)] + f" question {i}",
            texts[(i + 3) % len(texts)] if i % 9 else "",
            tool_calls=calls,
            status=statuses[i % 4],  # type: ignore[arg-type]
            model=None if i % 3 else f"qwen3:{i % 2 * 4 + 4}b",
            prompt_tokens=None if i % 2 else 1234 * i,
            completion_tokens=None if i % 4 else i,
            duration_ms=None if i % 5 else 3210.5 * i,
            error="Ollama stopped | half way" if i % 4 in (1, 2) else None,
            thinking="hmm" if i % 6 == 0 else None,
        )
    store.add_to_history(chat, "last", "trailing whitespace at the very end   \n\n\t ")
    return chat


@pytest.mark.parametrize("batch", [1, 7, 500])
def test_the_export_of_a_varied_workspace_is_byte_for_byte_the_first_version_s(
    store: ChatHistoryDB, service: Application, tmp_path: Path, batch: int
) -> None:
    chat = varied_workspace(store)
    expected = whole_list_markdown(chat_of(store, chat), store.get_turns(chat))
    assert "``````json\n{" in expected and "```````\n``````six" in expected and "NaN" in expected
    written = service.reports.write_export(chat, tmp_path / "export.md")
    assert written.read_bytes() == expected.encode("utf-8")
    assert service.reports.markdown(chat) == expected
    pieces = workspace_pieces(chat_of(store, chat), store.iter_turns(chat, batch=batch))
    assert "".join(pieces) == expected


def test_the_report_streams_byte_for_byte_what_the_whole_list_gave(store: ChatHistoryDB) -> None:
    chat = long_workspace(store)
    generated = datetime(2026, 11, 23, 9, 30, tzinfo=UTC)
    record = chat_of(store, chat)
    expected = whole_list_report(record, store.get_turns(chat), generated)
    pieces = report_pieces(record, store.iter_turns(chat, batch=100), store.turn_models(chat), generated)
    assert "".join(pieces) == expected
    assert "model qwen3:8b" in expected and "tool calls that ended in an error are not listed" in expected


def test_turns_are_read_in_batches_oldest_first_without_gaps(store: ChatHistoryDB) -> None:
    chat = long_workspace(store)
    other = store.create_chat("other")
    store.add_to_history(other, "elsewhere", "x")
    everything = store.get_turns(chat)
    for batch in (1, 7, 500, 5_000):
        assert [t.model_dump() for t in store.iter_turns(chat, batch=batch)] == [t.model_dump() for t in everything]
    assert list(store.iter_turns(other)) == store.get_turns(other)
    assert list(store.iter_turns(12345)) == []


def test_a_failed_write_leaves_the_earlier_file_and_no_partial_one(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_text("the signed version", encoding="utf-8")

    def pieces() -> Iterator[str]:
        yield "# Calculation report: half of it"
        raise HistoryError("The chat history could not be used.")

    with pytest.raises(HistoryError):
        write_atomically(target, pieces())
    assert target.read_text(encoding="utf-8") == "the signed version"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_the_export_refuses_the_store_files(sqlite_store: ChatHistoryDB, tmp_path: Path) -> None:
    service = Application(sqlite_store, AIAgent("qwen3:4b", "http://127.0.0.1:9", "system"))
    chat = sqlite_store.create_chat("w")
    for own in ("history.sqlite", "history.sqlite-wal", "history.sqlite-shm"):
        with pytest.raises(PermissionError, match="chat history itself"):
            service.reports.write_export(chat, tmp_path / own)
    with pytest.raises(LookupError):
        service.reports.write_export(999, tmp_path / "nothing.md")
    assert not (tmp_path / "nothing.md").exists()
