"""The document index as it lives beside the app: the first question waits for it, briefly and visibly, and
says what it has not read yet; the folder stays current without /reindex (`app.documents.watch`)."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app.documents import file_reading
from app.documents import library as documents_module
from app.documents import watch as document_watch
from app.documents.library import DocumentLibrary
from app.documents.watch import watches
from fakes.documents import build_document_set, write_pdf
from fakes.ollama import FakeOllama, Reply, wait_until
from history import ChatHistoryDB
from tests.cli_helpers import run_cli
from tools.documents.reading import read_in_worker

QUESTION = "What lap splice does the spec require for #5 bars?"
SEARCH = ("search_documents", {"query": "lap splice #5 bars"})
LOOKING = "indexing: looking through the workspace folder…"


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
    # The wait, said once, as the first look found it: still looking through the folder (on a busy machine), or
    # reading its files.
    (wait,) = [line for line in result.stderr.splitlines() if line.startswith("indexing")]
    assert wait == LOOKING or re.fullmatch(r"indexing \d+ of \d+ files…", wait), result.stderr


def held_at_the_memo(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The reader stops at the memo, the sixth file of eight, until the test lets it go: (reached, let go)."""
    reached, held = threading.Event(), threading.Event()

    def slow_memo(path: Path) -> Any:
        if path.name == "wellness.txt":
            reached.set()
            held.wait(60)
        return read_in_worker(path)

    monkeypatch.setattr(file_reading, "read_in_worker", slow_memo)
    return reached, held


def test_a_search_waits_for_the_files_being_read_and_says_so_meanwhile(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    reached, held = held_at_the_memo(monkeypatch)
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.refresh()
    answers: list[dict[str, Any]] = []
    asking = threading.Thread(target=lambda: answers.append(docs.search("lap splice #5 bars", 3)))
    try:
        assert reached.wait(60)
        assert docs.index_wait() is None, "nobody waits yet"
        asking.start()
        assert wait_until(lambda: docs.index_wait() == "indexing 5 of 8 files…", timeout=30), docs.index_wait()
    finally:
        held.set()
        asking.join(60)
    (found,) = answers
    assert found["passages"][0]["file"] == "spec.pdf", "read after the memo: the search waited for it"
    assert "still under way" not in found.get("note", "") and "None" not in found.get("note", "")


def test_a_search_that_waits_too_long_says_what_it_has_not_read(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    reached, held = held_at_the_memo(monkeypatch)
    monkeypatch.setattr(documents_module, "INDEX_WAIT_SECONDS", 1.0)
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.refresh()
    try:
        assert reached.wait(60)
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


def following(isolated: Path, root: Path) -> DocumentLibrary:
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.follow()
    assert docs.wait(120)
    return docs


def found_in(docs: DocumentLibrary, query: str, file: str) -> bool:
    return any(p["file"] == file for p in docs.search(query, 5)["passages"])


def test_files_added_changed_renamed_and_deleted_while_the_app_runs_are_searchable(isolated: Path) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    docs = following(isolated, root)
    try:
        (root / "site").mkdir()
        (root / "site" / "visit.md").write_text("# Site visit\nThe pile cap at grid D7 was poured on 3 March.\n")
        assert wait_until(lambda: found_in(docs, "pile cap grid D7", "site/visit.md"), timeout=30), "added"
        write_pdf(root / "spec.pdf", ["Lap splices for #5 bars shall be 30 inches."])
        assert wait_until(lambda: "30 inches" in json.dumps(docs.search("lap #5 bars", 3)), timeout=30), "changed"
        (root / "site" / "visit.md").rename(root / "visit-3-march.md")
        assert wait_until(lambda: found_in(docs, "pile cap grid D7", "visit-3-march.md"), timeout=30), "renamed"
        assert not found_in(docs, "pile cap grid D7", "site/visit.md")
        (root / "loads.xlsx").unlink()
        assert wait_until(lambda: "loads.xlsx" not in {f.path for f in docs.files()}, timeout=30), "deleted"
    finally:
        docs.close()
    assert watches.watching(root) is None, "a folder nobody follows is let go"


def test_a_burst_of_changes_is_read_once(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = isolated / "workspace"
    root.mkdir()
    read: list[str] = []

    def counted(path: Path) -> Any:
        read.append(path.name)
        return read_in_worker(path)

    monkeypatch.setattr(file_reading, "read_in_worker", counted)
    docs = following(isolated, root)
    try:
        for number in range(20):  # a folder of notes copied in, file after file
            (root / f"note-{number:02}.txt").write_text(f"Inspection note {number}: bolt torque checked at J{number}.")
        for save in range(10):  # an editor saving a draft every 50 ms (the pace of the saves, not an ordering)
            (root / "draft.txt").write_text(f"Draft {save}: the anchor rod embedment is {save + 10} inches.")
            time.sleep(0.05)
        assert wait_until(lambda: "19 inches" in json.dumps(docs.search("anchor rod embedment", 3)), timeout=30)
        assert len(docs.files()) == 21
        assert sorted(n for n in read if n.startswith("note")) == [f"note-{n:02}.txt" for n in range(20)], read
        assert read.count("draft.txt") <= 2, f"the draft was read {read.count('draft.txt')} times"
    finally:
        docs.close()


def test_where_the_folder_reports_no_changes_a_stat_walk_finds_them(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    here = document_watch.file_system(root.resolve())
    monkeypatch.setattr(document_watch, "NETWORK_FILE_SYSTEMS", frozenset({here}))  # as if it were an NFS share
    docs = following(isolated, root)
    try:
        assert (docs.following() or "").startswith("changes are looked for every 2 s: a "), docs.following()
        (root / "notes.md").write_text("# Site visit\nThe pile cap at grid D7 was poured on 3 March.\n")
        assert wait_until(lambda: found_in(docs, "pile cap grid D7", "notes.md"), timeout=30)
    finally:
        docs.close()


def test_tabs_on_one_folder_share_one_watch_and_each_stays_current(isolated: Path) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    tabs = [following(isolated, root) for _ in range(3)]
    folder = watches.watching(root)
    assert folder is not None and folder.how == "events" and len(folder.followers) == 3
    (root / "notes.md").write_text("# Site visit\nThe pile cap at grid D7 was poured on 3 March.\n")
    for tab in tabs:
        assert wait_until(lambda tab=tab: found_in(tab, "pile cap grid D7", "notes.md"), timeout=30)  # type: ignore[misc]
    for tab in tabs[:2]:
        tab.close()
    assert watches.watching(root) is folder
    tabs[2].close()
    assert watches.watching(root) is None
