"""The document index and `search_documents` on a small project's documents (`fakes.documents`):
lexical questions find the right file and page first, paraphrases are found through embeddings from the
loopback Ollama, the search falls back to words alone and says so once, updates are incremental, and
files that cannot be read are skipped with a reason while the others are indexed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from app.documents import file_reading
from app.documents.library import DocumentLibrary
from engine.embeddings import Embedder
from fakes.documents import build_document_set, write_pdf
from fakes.ollama import FakeOllama
from history import ChatHistoryDB
from tools import ToolContext, run_tool
from tools.documents.reading import read_in_worker

PARAPHRASES = {"overlap": "lap", "rebar": "bars", "joins": "splices", "precipitation": "snow", "top": "roof"}


@pytest.fixture
def folder(isolated: Path) -> Path:
    root = isolated / "workspace"
    build_document_set(root)
    return root


def library(store: Path | str, root: Path, fake: FakeOllama | None, model: str = "nomic-embed-text") -> DocumentLibrary:
    """The index of `root` in the store at `store` (a database's URL, or a folder for a SQLite file in it)."""
    embedder = Embedder(fake.url, model) if fake is not None else None
    target = store / "chat_history.sqlite" if isinstance(store, Path) else store
    made = DocumentLibrary(ChatHistoryDB(target), root, embedder)
    made.refresh()
    assert made.wait(120), "indexing did not finish"
    return made


@pytest.fixture
def embedding_ollama(fake_ollama: FakeOllama) -> FakeOllama:
    fake_ollama.models.append("nomic-embed-text")
    fake_ollama.synonyms = dict(PARAPHRASES)
    return fake_ollama


def first(found: dict[str, Any]) -> dict[str, Any]:
    assert found["passages"], found
    top: dict[str, Any] = found["passages"][0]
    return top


def test_lexical_questions_find_the_right_file_and_page_first(folder: Path, store_target: str) -> None:
    docs = library(store_target, folder, None)
    lap = first(docs.search("What lap length does the spec require for #5 bars?", 5))
    assert (lap["file"], lap["page"], lap["location"]) == ("spec.pdf", 4, "page 4") and "24 inches" in lap["text"]
    snow = first(docs.search("What roof snow load did the design basis use?", 5))
    assert (snow["file"], snow["location"]) == ("design-basis.docx", "Roof snow") and "pf = 21 psf" in snow["text"]
    assert "page" not in snow
    partitions = first(docs.search("partitions load", 5))
    assert (partitions["file"], partitions["location"]) == ("loads.xlsx", "sheet Floor loads, rows 1-3")
    curing = first(docs.search("how long is curing kept moist", 5))
    assert (curing["file"], curing["page"]) == ("spec.pdf", 6)


def test_the_distractor_with_the_same_words_does_not_win(folder: Path, store_target: str) -> None:
    docs = library(store_target, folder, None)
    found = docs.search("lap splice length #5 bars", 5)
    files = [p["file"] for p in found["passages"]]
    assert files[0] == "spec.pdf" and "memos/wellness.txt" in files  # found, but below the spec


def test_a_paraphrase_is_found_through_embeddings(folder: Path, isolated: Path, embedding_ollama: FakeOllama) -> None:
    question = "required overlap for rebar joins"  # no word of it is in the spec's text
    words_only = library(isolated / "a", folder, None).search(question, 3)
    assert all(p.get("page") != 4 for p in words_only["passages"])
    docs = library(isolated / "b", folder, embedding_ollama)
    top = first(docs.search(question, 3))
    assert (top["file"], top["page"]) == ("spec.pdf", 4)
    assert "note" not in docs.search(question, 3)
    embeds = [body for path, _, body in embedding_ollama.requests if path == "/api/embed"]
    assert embeds and all(body and body["model"] == "nomic-embed-text" for body in embeds)


def test_without_an_embedding_model_it_searches_by_words_and_says_so_once(
    folder: Path, store_target: str, fake_ollama: FakeOllama
) -> None:
    docs = library(store_target, folder, fake_ollama, model="nomic-embed-text")  # not pulled on this server
    found = docs.search("lap length #5 bars", 3)
    assert first(found)["page"] == 4
    assert "words only" in found["note"] and "ollama pull nomic-embed-text" in found["note"]
    assert "note" not in docs.search("roof snow", 3)


def test_files_that_cannot_be_read_are_skipped_with_a_reason(folder: Path, isolated: Path) -> None:
    os.symlink("/etc/hostname", folder / "outside.txt")
    os.mkfifo(folder / "pipe.txt")
    docs = library(isolated, folder, None)
    status = {f.path: (f.status, f.note) for f in docs.files()}
    assert status["spec.pdf"] == ("indexed", "6 pages")
    assert status["design-basis.docx"][0] == status["loads.xlsx"][0] == status["memos/wellness.txt"][0] == "indexed"
    assert status["broken.pdf"][0] == "skipped" and "not a readable PDF" in status["broken.pdf"][1]
    assert status["locked.pdf"] == ("skipped", "encrypted: it needs a password")
    assert status["scan.pdf"] == ("skipped", "no text layer, and no scanned image to read by OCR")
    assert status["empty.txt"] == ("skipped", "no text in it")
    assert status["outside.txt"] == ("skipped", "a link: links are not followed")
    assert status["pipe.txt"] == ("skipped", "not a regular file")
    assert not any("hostname" in p["text"] for p in docs.search("localhost", 10)["passages"])


def test_updates_are_incremental(folder: Path, isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    real = read_in_worker

    def counted(path: Path) -> Any:
        read.append(path.name)
        return real(path)

    monkeypatch.setattr(file_reading, "read_in_worker", counted)
    docs = library(isolated, folder, None)
    assert sorted(read) == sorted(["spec.pdf", "design-basis.docx", "loads.xlsx", "wellness.txt", "broken.pdf",
                                   "empty.txt", "scan.pdf", "locked.pdf"])  # fmt: skip
    read.clear()
    (folder / "memos" / "wellness.txt").write_text((folder / "memos" / "wellness.txt").read_text())  # same bytes
    write_pdf(folder / "spec.pdf", ["Lap splices for #5 bars shall be 30 inches."])  # changed
    (folder / "loads.xlsx").unlink()  # deleted
    docs.refresh()
    assert docs.wait(60)
    assert read == ["spec.pdf"], "unchanged bytes are not read again"
    assert "30 inches" in first(docs.search("lap #5 bars", 3))["text"]
    assert all(p["file"] != "loads.xlsx" for p in docs.search("partitions load", 5)["passages"])
    assert "24 inches" not in json.dumps(docs.search("lap #5 bars", 10))


def test_a_file_that_changes_while_being_read_is_read_again(
    folder: Path, isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = read_in_worker
    memo = folder / "memos" / "wellness.txt"

    def changing(path: Path) -> Any:
        result = real(path)
        if path.name == memo.name and "rewritten" not in memo.read_text():
            memo.write_text("The memo was rewritten during indexing: pool closed.")
        return result

    monkeypatch.setattr(file_reading, "read_in_worker", changing)
    docs = library(isolated, folder, None)
    note = {f.path: f.note for f in docs.files()}["memos/wellness.txt"]
    assert "changed while being read" in note
    docs.refresh()
    assert docs.wait(60)
    assert "rewritten" in first(docs.search("rewritten pool closed", 3))["text"]


def test_a_500_page_pdf_is_indexed_page_by_page(isolated: Path) -> None:
    root = isolated / "big"
    root.mkdir()
    write_pdf(root / "manual.pdf", [f"Page {n} of the manual: clause {n}.{n % 7} applies." for n in range(1, 501)])
    docs = library(isolated, root, None)
    assert {f.path: f.note for f in docs.files()} == {"manual.pdf": "500 pages"}
    assert first(docs.search("clause 437.3", 3))["page"] == 437


def test_the_tool_answers_in_the_pinned_shape(folder: Path, isolated: Path) -> None:
    docs = library(isolated, folder, None)
    outcome = run_tool("search_documents", {"query": "lap length #5 bars", "top_k": 2}, ToolContext(documents=docs))
    answer = json.loads(outcome.output)
    assert list(answer["passages"][0]) == ["file", "page", "location", "text", "score"]
    assert len(answer["passages"]) == 2 and isinstance(answer["passages"][0]["score"], float)
    refused = run_tool("search_documents", {"query": "x"}, ToolContext())
    assert refused.error and "document index is not available" in refused.error


def test_an_upload_cannot_leave_the_workspace_folder_or_follow_a_link(isolated: Path) -> None:
    root = isolated / "workspace"
    root.mkdir()
    outside = isolated / "outside.pdf"
    outside.write_bytes(b"keep me")
    os.symlink(outside, root / "linked.pdf")
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    assert docs.save_upload("../../evil.md", b"# Evil\ntext") == "evil.md"
    assert (root / "evil.md").exists() and not (isolated / "evil.md").exists()
    with pytest.raises(FileExistsError):  # the link's name is taken: nothing is written unasked
        docs.save_upload("linked.pdf", b"%PDF new")
    assert docs.save_upload("linked.pdf", b"%PDF new", "keep both") == "linked (2).pdf"
    assert docs.save_upload("linked.pdf", b"%PDF new", "replace") == "linked.pdf"
    assert outside.read_bytes() == b"keep me" and not (root / "linked.pdf").is_symlink()
    for name in (".env", "notes.exe", "", "..", "a\x00.txt"):
        with pytest.raises(ValueError, match="cannot be added"):
            docs.save_upload(name, b"x")
    assert docs.wait(60)


def test_removing_a_document_that_is_a_link_removes_the_link_only(isolated: Path) -> None:
    root = isolated / "workspace"
    root.mkdir()
    (root / "real.md").write_text("# Real\nkept")
    os.symlink(root / "real.md", root / "alias.md")
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.refresh()
    assert docs.wait(60) and {f.path for f in docs.files()} == {"alias.md", "real.md"}
    docs.remove("alias.md")
    assert (root / "real.md").read_text() == "# Real\nkept" and not (root / "alias.md").is_symlink()
    assert [f.path for f in docs.files()] == ["real.md"]
    with pytest.raises(LookupError):
        docs.remove("../chat_history.sqlite")


def test_a_file_that_takes_too_long_is_skipped_and_the_reader_recovers(isolated: Path) -> None:
    from tools.sandbox import WorkerProcess

    write_pdf(isolated / "long.pdf", [f"Page {n}." for n in range(1, 2001)])
    (isolated / "short.md").write_text("# Short\nQuick to read.")
    slow = WorkerProcess("tools.documents.reader_worker", "document reader", "took longer than {seconds:g} s", 0.05)
    try:
        slow.request({"path": str(isolated / "short.md")})  # started and warm
        with pytest.raises(ValueError, match="took longer than 0.05 s"):
            slow.request({"path": str(isolated / "long.pdf")})
        answer = slow.request({"path": str(isolated / "short.md")})  # a new worker took the killed one's place
        assert answer["passages"] == [[None, "Short", "Quick to read."]]
    finally:
        slow.stop()


def test_a_huge_csv_is_read_up_to_its_limit_and_says_so(isolated: Path) -> None:
    root = isolated / "data"
    root.mkdir()
    with (root / "survey.csv").open("w") as out:
        out.writelines(f"{n},point {n},{n * 0.01:.2f}\n" for n in range(1, 250_001))
    docs = library(isolated, root, None)
    (file,) = docs.files()
    assert file.status == "indexed" and file.note == "only the first 200,000 rows were indexed"
    assert first(docs.search("point 199990", 3))["location"] == "rows 199976-200000"


def test_a_cited_page_is_drawn_from_the_file_with_its_passage_marked(folder: Path, isolated: Path) -> None:
    docs = library(isolated, folder, None)
    lap = first(docs.search("lap length #5 bars", 1))
    shown = docs.page_image("spec.pdf", 4, lap["text"])
    assert shown.png.startswith(b"\x89PNG") and shown.marked
    assert not docs.page_image("spec.pdf", 3, lap["text"]).marked, "not on that page: nothing marked"
    with pytest.raises(ValueError, match="Page 9 of spec.pdf cannot be shown: it has no page 9"):
        docs.page_image("spec.pdf", 9)
    with pytest.raises(ValueError, match="not a PDF"):
        docs.page_image("design-basis.docx", 1)
    with pytest.raises(LookupError):
        docs.page_image("../chat_history.sqlite", 1)
