"""Names that try to deceive: bidi controls (U+202E) and line breaks in file and workspace names.

A right-to-left override shows `notes‮txt.exe` as `notesexe.txt`; a line break in a file name forges a line of
a listing (`secret.txt (5.0 GB)`). Every face writes bidi controls out (`[U+202E]`) and shows a line break as
`\\n`; the file tools quote such names for the model.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app.documents.library import DocumentLibrary
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tools import ToolContext, run_tool

ROOT = Path(__file__).resolve().parents[1]
WORKSPACE_NAME = "Tower \u202egnp.exe"
BIDI_FILE = "spec\u202etxt.md"
FORGING_FILE = "evil\nsecret.txt (5.0 GB).md"
EDITED_FILE = "notes\u202etxt.md"


def forged(text: str) -> list[str]:
    """Lines that start with the name hidden after the line break (an entry the folder does not have)."""
    return [line for line in text.splitlines() if line.lstrip(" ✓✗*-").startswith("secret.txt")]


def indexed_folder(isolated: Path) -> Path:
    """The default workspace folder with the two hostile documents, indexed into the default history file."""
    root = isolated / "workspace"
    root.mkdir()
    (root / BIDI_FILE).write_text("# Spec\nConcrete C32/40.")
    (root / FORGING_FILE).write_text("# Evil\nNothing here.")
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    library = DocumentLibrary(store, root, None)
    library.refresh()
    assert library.wait(60)
    assert len(store.document_files()) == 2
    store.close()
    return root


def test_list_files_quotes_names_that_would_forge_a_line(isolated: Path) -> None:
    root = isolated / "workspace"
    root.mkdir()
    (root / FORGING_FILE).write_text("x")
    (root / BIDI_FILE).write_text("y")
    context = ToolContext(workspace_root=root)
    listing = run_tool("list_files", {"path": "."}, context).output
    assert not forged(listing), listing
    assert len(listing.splitlines()) == 3, "a header and one line per entry"
    assert "\u202e" not in listing and "'spec\\u202etxt.md'" in listing
    for path in (FORGING_FILE, BIDI_FILE):
        for tool in ("read_file", "list_files"):
            output = run_tool(tool, {"path": path}, context).output
            assert not forged(output) and "\u202e" not in output.splitlines()[0], (tool, output)


def test_the_cli_writes_names_out(fake_ollama: FakeOllama, isolated: Path) -> None:
    indexed_folder(isolated)
    fake_ollama.script(
        Reply.tool_calls(("edit_file", {"path": EDITED_FILE, "old_text": "", "new_text": "x"})),
        Reply.text("Proposed."),
    )
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--server", fake_ollama.url, "--workspace", WORKSPACE_NAME],
        input="Write the notes\nn\n/list\n/docs\n/exit\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ},
    )
    shown = result.stdout
    assert result.returncode == 0, result.stderr
    assert "\u202e" not in shown and "\u202e" not in result.stderr
    assert "Rejected the edit to notes[U+202E]txt.md" in shown
    assert "Tower [U+202E]gnp.exe" in shown and "spec[U+202E]txt.md" in shown
    assert "evil\\nsecret.txt (5.0 GB).md" in shown and not forged(shown), shown


def unescaped(markdown: str) -> str:
    """Markdown's backslash escapes taken away: the characters the reader sees."""
    return re.sub(r"\\(.)", r"\1", markdown)


def every_text(app: AppTest) -> list[str]:
    """What the page shows in text: Markdown, captions, headings, notices, labels and tooltips."""
    texts = [element.value for element in [*app.markdown, *app.caption, *app.subheader, *app.code]]
    texts += [str(notice.value) for notice in [*app.warning, *app.success, *app.info, *app.error, *app.toast]]
    texts += [button.label for button in app.button] + [button.help or "" for button in app.button]
    return texts + [expander.label for expander in app.expander]


def test_the_web_app_writes_names_out(fake_ollama: FakeOllama, isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    indexed_folder(isolated)
    store = ChatHistoryDB(isolated / "chat_history.sqlite")
    chat = store.create_chat(WORKSPACE_NAME)
    store.close()
    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    fake_ollama.script(
        Reply.tool_calls(("edit_file", {"path": EDITED_FILE, "old_text": "", "new_text": "x"})),
        Reply.text("Proposed."),
    )
    app = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=20)
    app.query_params["chat"] = str(chat)
    app.run()
    app.chat_input(key="question").set_value("Write the notes").run()
    app.button(key="reject-1").click().run()
    shown = [unescaped(text) for text in every_text(app)]
    assert not app.exception
    assert not [text for text in shown if "\u202e" in text]
    assert any("Rejected the edit to notes[U+202E]txt.md" in text for text in shown), shown
    assert any("Tower [U+202E]gnp.exe" in text for text in shown), shown
    assert any("spec[U+202E]txt.md" in text for text in shown), shown
    documents = [text for text in shown if "secret" in text and "Proposed" not in text]
    assert documents and all("evil\\nsecret.txt (5.0 GB).md" in text and "\n" not in text for text in documents)
