"""The document index as it lives beside the app: the first question waits for it, briefly and visibly, and
says what it has not read yet; the folder stays current without /reindex (`app.document_watch`)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from app import documents as documents_module
from app.documents import DocumentLibrary
from fakes.documents import build_document_set, write_pdf
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tests.cli_helpers import run_cli
from tools.documents.reading import read_in_worker

QUESTION = "What lap splice does the spec require for #5 bars?"
SEARCH = ("search_documents", {"query": "lap splice #5 bars"})


def tool_messages(fake: FakeOllama) -> list[str]:
    return [m["content"] for m in fake.chat_requests[-1]["messages"] if m["role"] == "tool"]


def test_a_first_question_in_a_fresh_process_waits_for_the_index(isolated: Path, fake_ollama: FakeOllama) -> None:
    build_document_set(isolated / "workspace")  # never indexed: the CLI starts reading it as the question goes out
    write_pdf(isolated / "workspace" / "manual.pdf", [f"Clause {n}: general requirements." for n in range(1, 400)])
    fake_ollama.script(Reply.tool_calls(SEARCH), Reply.text("24 inches (spec.pdf, p. 4)."))
    result = run_cli("--once", QUESTION, "--server", fake_ollama.url, env={"EMBED_MODEL": ""}, timeout=120)
    assert result.returncode == 0, result.stderr
    (sent,) = tool_messages(fake_ollama)
    found = json.loads(sent)
    assert (found["passages"][0]["file"], found["passages"][0]["page"]) == ("spec.pdf", 4), sent
    assert "24 inches" in found["passages"][0]["text"]
    assert "None" not in found.get("note", ""), found
    assert "indexing " in result.stderr and " files…" in result.stderr, result.stderr  # the wait, said once


def test_a_search_that_waits_too_long_says_what_it_has_not_read(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    held = threading.Event()

    def slow_memo(path: Path) -> Any:
        if path.name == "wellness.txt":
            held.wait(60)  # the sixth file of eight: it holds the run until the test lets it go
        return read_in_worker(path)

    monkeypatch.setattr(documents_module, "read_in_worker", slow_memo)
    monkeypatch.setattr(documents_module, "INDEX_WAIT_SECONDS", 1.0)
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.refresh()
    try:
        found = docs.search("partitions load", 3)
        assert found["passages"][0]["file"] == "loads.xlsx"  # read before the memo
        assert "Indexing is still under way (5 of 8 files read)" in found["note"]
        assert "3 files were not searched yet" in found["note"]
        assert docs.index_wait() is None, "nothing waits any more"
    finally:
        held.set()
    assert docs.wait(60)
    found = docs.search("lap splice #5 bars", 3)
    assert found["passages"][0]["file"] == "spec.pdf" and "still under way" not in found.get("note", "")
