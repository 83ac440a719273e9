"""Documents in the faces: the CLI's /docs and /reindex, and a question about the spec answered with
`search_documents` whose passages the web app shows as "spec.pdf, p. 4"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app.documents.library import DocumentLibrary
from fakes.documents import build_document_set
from fakes.ollama import FakeOllama, Reply, wait_until
from history import ChatHistoryDB
from tests.cli_helpers import MAIN, run_cli

QUESTION = "What lap length does the spec require for #5 bars?"
SEARCH = ("search_documents", {"query": "lap splice length #5 bars"})


@pytest.fixture
def indexed(isolated: Path) -> Path:
    """The document set in ./workspace, indexed into ./chat_history.sqlite (as a previous run would have left it)."""
    root = isolated / "workspace"
    build_document_set(root)
    library = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    library.refresh()
    assert library.wait(120)
    return root


def test_docs_lists_each_file_with_its_status(indexed: Path, fake_ollama: FakeOllama) -> None:
    result = run_cli("--server", fake_ollama.url, stdin="/docs\n", env={"EMBED_MODEL": ""})
    assert result.returncode == 0, result.stderr
    assert "✓ spec.pdf · 6 passages · 6 pages" in result.stdout
    assert "✗ scan.pdf · skipped · no text layer, and no scanned image to read by OCR" in result.stdout
    assert "Search is by words only: no EMBED_MODEL is set." in result.stdout
    assert "The folder is followed: changes are read as they happen." in result.stdout


def test_reindex_reads_a_new_document_in_the_background(indexed: Path, fake_ollama: FakeOllama, isolated: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, str(MAIN), "--server", fake_ollama.url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "EMBED_MODEL": ""},
    )
    assert process.stdin is not None
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    assert wait_until(lambda: len(store.document_files()) == 8, timeout=20)
    (indexed / "notes.md").write_text("# Site visit\nThe footing at grid C4 was poured on 3 March.\n")
    process.stdin.write("/reindex\n")
    process.stdin.flush()
    assert wait_until(lambda: any(f.path == "notes.md" for f in store.document_files()), timeout=20)
    out, err = process.communicate("/docs\n", timeout=30)
    assert "Reading new and changed documents in the background" in out
    assert "✓ notes.md · 1 passages · Markdown" in out, err


def test_a_question_about_the_spec_cites_the_page(indexed: Path, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(SEARCH), Reply.text("24 inches (spec.pdf, p. 4)."))
    result = run_cli("--once", QUESTION, "--server", fake_ollama.url)
    assert result.returncode == 0, result.stderr
    assert "24 inches (spec.pdf, p. 4)." in result.stdout
    sent = [m for m in fake_ollama.chat_requests[-1]["messages"] if m["role"] == "tool"]
    assert '"file": "spec.pdf", "page": 4, "location": "page 4"' in sent[0]["content"]


def test_the_web_app_shows_the_passage_behind_a_citation(app: AppTest, indexed: Path, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(SEARCH), Reply.text("24 inches (spec.pdf, p. 4)."))
    app.run()
    app.chat_input(key="question").set_value(QUESTION).run()
    assert not app.exception
    cited = [m.value.replace("\\", "") for m in app.markdown if m.value.replace("\\", "").startswith("**spec.pdf")]
    assert cited[0] == "**spec.pdf, p. 4**"
    assert any("Lap splices for #5 bars shall be 24 inches" in t.value for t in app.text)
    notes = [c.value.replace("\\", "") for c in app.sidebar.caption]
    assert "4 indexed, 4 skipped in the workspace folder" in notes
    assert any("spec.pdf · 6 pages" in note for note in notes)
    assert any("scan.pdf · skipped: no text layer" in note for note in notes)


def upload(app: AppTest, name: str, content: bytes) -> AppTest:
    return app.file_uploader(key="uploads").set_value((name, content, "text/markdown")).run()


def test_an_upload_with_a_name_in_use_asks_before_replacing(app: AppTest, isolated: Path) -> None:
    folder = isolated / "workspace"
    app.run()
    upload(app, "notes.md", b"# Notes\nFirst version.\n")
    assert (folder / "notes.md").read_bytes() == b"# Notes\nFirst version.\n"
    upload(app, "notes.md", b"# Notes\nSecond version.\n")
    assert not app.exception
    assert any("notes.md is already in the workspace folder" in w.value.replace("\\", "") for w in app.warning)
    assert (folder / "notes.md").read_bytes() == b"# Notes\nFirst version.\n", "nothing replaced unasked"
    app.button(key="upload-keep both-0").click().run()
    assert (folder / "notes (2).md").read_bytes() == b"# Notes\nSecond version.\n"
    assert (folder / "notes.md").read_bytes() == b"# Notes\nFirst version.\n"
    upload(app, "notes.md", b"# Notes\nThird version.\n")
    app.button(key="upload-cancel-0").click().run()
    assert sorted(path.name for path in folder.iterdir()) == ["notes (2).md", "notes.md"]
    upload(app, "notes.md", b"# Notes\nFourth version.\n")
    app.button(key="upload-replace-0").click().run()
    assert (folder / "notes.md").read_bytes() == b"# Notes\nFourth version.\n"
    assert not any("already in the workspace folder" in w.value for w in app.warning)
    assert sorted(path.name for path in folder.iterdir()) == ["notes (2).md", "notes.md"], "no part file left"


def test_a_document_is_removed_from_the_panel_after_a_confirmation(app: AppTest, indexed: Path, isolated: Path) -> None:
    app.run()
    listed = [f.path for f in ChatHistoryDB(isolated / "chat_history.sqlite").document_files()]
    number = listed.index("spec.pdf")
    app.button(key=f"remove-document-{number}").click().run()
    assert any("Delete spec.pdf from the workspace folder" in w.value.replace("\\", "") for w in app.warning)
    app.button(key=f"remove-cancelled-{number}").click().run()
    assert (indexed / "spec.pdf").exists()
    app.button(key=f"remove-document-{number}").click().run()
    app.button(key=f"remove-confirmed-{number}").click().run()
    assert not app.exception
    assert not (indexed / "spec.pdf").exists()
    assert "spec.pdf" not in [f.path for f in ChatHistoryDB(isolated / "chat_history.sqlite").document_files()]
    assert not any("spec.pdf ·" in c.value.replace("\\", "") for c in app.sidebar.caption)


def test_a_cited_pdf_page_opens_with_the_passage_marked(app: AppTest, indexed: Path, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply.tool_calls(SEARCH), Reply.text("24 inches (spec.pdf, p. 4)."))
    app.run()
    app.chat_input(key="question").set_value(QUESTION).run()
    app.run()  # the answer, now stored, drawn as a past turn
    (switch,) = [toggle for toggle in app.toggle if toggle.label == "Show page 4"]
    switch.set_value(True).run()
    assert not app.exception
    images = app.get("image")
    assert len(images) == 1
    assert any(c.value.replace("\\", "") == "spec.pdf, p. 4: the passage marked" for c in app.caption)
