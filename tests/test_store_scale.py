"""The documents on real SQLite files of a few thousand turns.

The documents are built a batch of turns at a time; these tests hold them to the
results of the plain, whole-list way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agent import AIAgent
from app.exports import FILE_TOOLS, _calculation, _turn_markdown, report_pieces, write_atomically
from app.service import WorkspaceService
from domain.records import Chat, ToolCall, Turn
from history import ChatHistoryDB, HistoryError

BEAM = ToolCall(
    name="beam_analysis",
    arguments={"span": "6 m", "load": "12 kN/m"},
    output='{"max_moment": "54 kN·m"}',
    duration_ms=1.5,
    data={"formula": "M = wL²/8", "results": {"max_moment": "54 kN * m"}, "checks": [], "notes": ["simply supported"]},
)
FAILED = ToolCall(name="divide", arguments={"a": 1, "b": 0}, output="Error: division by zero", error="division by zero")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ChatHistoryDB]:
    db = ChatHistoryDB(tmp_path / "history.sqlite")
    yield db
    db.close()


@pytest.fixture
def service(store: ChatHistoryDB) -> WorkspaceService:
    return WorkspaceService(store, AIAgent("qwen3:4b", "http://127.0.0.1:9", "system"))


# The documents, a batch at a time ---------------------------------------------------------------------------


def whole_list_markdown(chat: Chat, turns: Iterable[Turn]) -> str:
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
        lines += _turn_markdown(number, turn)
    return "\n".join(lines).rstrip() + "\n"


def whole_list_report(chat: Chat, turns: list[Turn], generated: datetime) -> str:
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


def chat_of(store: ChatHistoryDB, chat_id: int) -> Chat:
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
    store: ChatHistoryDB, service: WorkspaceService, tmp_path: Path
) -> None:
    chat = long_workspace(store)
    expected = whole_list_markdown(chat_of(store, chat), store.get_turns(chat))
    written = service.write_export(chat, tmp_path / "export.md")
    assert written.read_bytes() == expected.encode("utf-8")
    assert service.export_markdown(chat) == expected
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no partial file left"


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


def test_the_export_refuses_the_store_files(service: WorkspaceService, store: ChatHistoryDB, tmp_path: Path) -> None:
    chat = store.create_chat("w")
    for own in ("history.sqlite", "history.sqlite-wal", "history.sqlite-shm"):
        with pytest.raises(PermissionError, match="chat history itself"):
            service.write_export(chat, tmp_path / own)
    with pytest.raises(LookupError):
        service.write_export(999, tmp_path / "nothing.md")
    assert not (tmp_path / "nothing.md").exists()
