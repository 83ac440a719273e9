"""A command pays only for what it uses, and says nothing a library says: real processes of `python main.py`.

No timing is asserted here; the figures live in bench/README.md (`python -m bench floors`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fakes.ollama import FakeOllama, wait_until
from history import ChatHistoryDB
from tests.cli_helpers import MAIN, NAMED_STORE

COPIES = 4


@pytest.mark.slow  # thousands of folders copied in, four times, each indexed
def test_a_tree_of_folders_copied_in_while_the_prompt_follows_the_folder_prints_no_library_warning(
    isolated: Path, fake_ollama: FakeOllama
) -> None:
    """watchdog warns "Callback with id … already exists" for every folder of a tree copied in while it watches,
    each warning with every watched folder in it: none of that may reach the terminal."""
    tree = isolated / "drawings"
    for number in range(300):
        (tree / f"level {number}" / "grid" / "sections" / "details").mkdir(parents=True)
    (tree / "level 299" / "grid" / "sections" / "details" / "notes.md").write_text("Splice the girders at midspan.\n")
    (isolated / "workspace").mkdir()
    process = subprocess.Popen(
        [sys.executable, str(MAIN), "--server", fake_ollama.url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **NAMED_STORE, "EMBED_MODEL": ""},
    )
    try:
        store = isolated / "chat_history.sqlite"
        assert wait_until(lambda: store.exists() and ChatHistoryDB(store).document_files() == [], timeout=60)
        for copy in range(COPIES):  # the warnings come of a race between the copy and the watch: give it chances
            shutil.copytree(tree, isolated / "workspace" / f"drawings {copy}")
        notes = [f"drawings {copy}/level 299/grid/sections/details/notes.md" for copy in range(COPIES)]
        assert wait_until(lambda: [f.path for f in ChatHistoryDB(store).document_files()] == notes, timeout=60)
        out, err = process.communicate("/exit\n", timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "Callback with id" not in err and "Warning" not in err, err[:2000]
