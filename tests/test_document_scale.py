"""The document index past its everyday size: searches that rank only what can tell passages apart, and
indexing that stores one file while the reader worker reads the next (a failure to store still stops it
and says so). No time is asserted; the figures are in bench/README.md."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import store.documents as document_store
from app.documents.library import DocumentLibrary
from domain.records import DocumentFile, Passage
from fakes.documents import build_document_set
from history import ChatHistoryDB

COMMON = "beam column slab footing rebar splice".split()


def passages_of(store: ChatHistoryDB, files: int, per_file: int, rare: dict[tuple[int, int], str]) -> None:
    """`files` documents of `per_file` passages, every common word in each; `rare` adds a word to a few."""
    for f in range(files):
        rows = [
            Passage(path=f"doc{f}.pdf", page=p + 1, location=f"page {p + 1}",
                    text=" ".join(COMMON[(p + i) % len(COMMON)] for i in range(12 + p % 5))
                    + (f" {rare[(f, p)]}" if (f, p) in rare else ""))
            for p in range(per_file)
        ]  # fmt: skip
        record = DocumentFile(path=f"doc{f}.pdf", size=1, mtime_ns=1, sha256="x", status="indexed")
        store.save_document(record, rows)


def filled(target: str | Path) -> ChatHistoryDB:
    made = ChatHistoryDB(target)
    passages_of(made, 20, 30, {(0, 3): "anchorage", (1, 7): "anchorage anchorage", (19, 2): "weld"})
    return made


@pytest.fixture
def store(store_target: str) -> ChatHistoryDB:
    return filled(store_target)


def test_a_rare_word_among_common_ones_finds_its_passages_however_old(
    store: ChatHistoryDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(document_store, "RANKED_MATCHES", 50)  # far fewer than the 600 passages with common words
    found = store.search_passages("anchorage length of the beam splice", 5)
    assert [(p.path, p.page) for p, _ in found[:2]] == [("doc1.pdf", 8), ("doc0.pdf", 4)], "twice the word first"
    assert all("anchorage" in p.text for p, _ in found), "only the word that tells passages apart is ranked"


def test_when_every_word_is_common_only_the_newest_matches_are_ranked(
    store: ChatHistoryDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(document_store, "RANKED_MATCHES", 50)
    found = store.search_passages("beam splice", 10)
    assert len(found) == 10
    assert {p.path for p, _ in found} <= {"doc18.pdf", "doc19.pdf"}, "the newest 50 of 600 matching passages"
    monkeypatch.setattr(document_store, "RANKED_MATCHES", 10_000)
    assert {p.path for p, _ in store.search_passages("beam splice", 10)} - {"doc18.pdf", "doc19.pdf"}


def test_the_ranking_within_reach_is_bm25_over_every_match(tmp_path: Path) -> None:
    store = filled(tmp_path / "index.sqlite")
    expected = sqlite3.connect(tmp_path / "index.sqlite").execute(
        """SELECT rowid FROM passage_search WHERE passage_search MATCH '"beam" OR "weld"'
           ORDER BY bm25(passage_search, 1.0, 0.5), rowid LIMIT 3"""
    )
    assert [p.passage_id for p, _ in store.search_passages("beam weld", 3)][:1] == [next(expected)[0]]


def test_a_failure_to_store_a_document_stops_indexing_and_says_so(tmp_path: Path) -> None:
    root = tmp_path / "workspace"
    build_document_set(root)
    store = ChatHistoryDB(tmp_path / "chat_history.sqlite")
    raw = sqlite3.connect(tmp_path / "chat_history.sqlite")
    raw.execute("DROP TABLE passages")  # every save now fails inside the store
    raw.close()
    docs = DocumentLibrary(store, root, None)
    docs.refresh()
    assert docs.wait(60), "indexing did not end"
    assert not docs.progress.running
    assert len(docs.progress.errors) == 1 and docs.progress.errors[0].startswith("Indexing stopped: ")
    assert "passages" in docs.progress.errors[0]
