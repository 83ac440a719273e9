"""A command pays only for what it uses, and says nothing a library says: real processes of `python main.py`.

`--once` loads no module of ours beyond those a question needs (checked against the list below, which a new import
on its way must join knowingly), and none of the big libraries; no command but the prompt, the web app and the
server walks or watches the workspace folder. No timing is asserted here; the figures live in bench/README.md
(`python -m bench floors`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fakes.ollama import FakeOllama, Reply, wait_until
from history import ChatHistoryDB
from tests.cli_helpers import MAIN, NAMED_STORE

COPIES = 4
# `main.py` run as a script that writes, as the process exits, every module it loaded.
LOADING = (
    "import atexit, runpy, sys; listed = sys.argv[1]; "
    "atexit.register(lambda: open(listed, 'w').write('\\n'.join(sorted(sys.modules)))); "
    "sys.argv = sys.argv[2:]; sys.path.insert(0, {root!r}); runpy.run_path(sys.argv[0], run_name='__main__')"
)
# Every package of `store`, `engine` and `domain` may load (a question opens the store, runs the agent, passes the
# records); of the others, only these.
ONCE_LOADS = {
    "app": """accounts accounts.audit_trail accounts.policy accounts.throttle accounts.user_names accounts.user_turns
        accounts.users agents application approvals assembly configuration configuration.config_files
        configuration.settings configuration.store_place documents documents.library documents.ranking
        documents.user_documents leases memory models ports presentation presentation.calculation
        presentation.formatting presentation.interaction presentation.sections together together.live
        together.notifications turns turns.conversation turns.images turns.recording turns.turns turns.workspace_line
        webhooks webhooks.config webhooks.deliverer webhooks.events webhooks.webhooks workspaces workspaces.naming
        workspaces.past_work workspaces.summaries workspaces.summary_writer workspaces.workspaces""",
    "faces": """cli cli.chat cli.calculations cli.renderer cli.running cli.signing_in cli.terminal cli.waiting
        exit_codes opening skip_httpx_cli text""",
    "tools": """atomic_files catalogue documents documents.readers documents.reading documents.search files registry
        sandbox spec_cache units units.names units.reading units.showing workspace_paths""",
}
NEVER = ("watchdog", "numpy", "pint", "sympy", "pypdfium2", "typst", "psycopg", "mcp", "argon2", "streamlit", "PIL",
         "Pynite", "openpyxl", "docx", "ezdxf", "rich", "starlette", "uvicorn")  # fmt: skip


def loaded(folder: Path, *args: str, env: dict[str, str]) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules `python main.py ARGS` loaded, run in `folder` as a user runs it (compiled modules kept)."""
    listed = folder / "modules.txt"
    done = subprocess.run(
        [sys.executable, "-c", LOADING.format(root=str(MAIN.parent)), str(listed), str(MAIN), *args],
        cwd=folder, capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    return set(listed.read_text().splitlines()), done


def ours_beyond(modules: set[str], allowed: dict[str, str]) -> list[str]:
    """Our modules in `modules` that the list does not allow."""
    permitted = {f"{top}.{name}" for top, names in allowed.items() for name in names.split()} | set(allowed)
    ours = {name for name in modules if name.split(".")[0] in ("app", "faces", "tools")}
    return sorted(ours - permitted)


def user_environment(isolated: Path) -> dict[str, str]:
    """As a user's shell has it: Python keeps compiled modules (here under the test's folder), so the tools'
    specs are kept too (`tools.spec_cache`)."""
    kept = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**kept, **NAMED_STORE, "PYTHONPYCACHEPREFIX": str(isolated / "pycache")}


def test_one_question_loads_only_what_it_uses_and_leaves_the_folder_alone(
    isolated: Path, fake_ollama: FakeOllama
) -> None:
    (isolated / "workspace").mkdir()
    (isolated / "workspace" / "notes.md").write_text("The girders are spliced at midspan.\n")
    env = user_environment(isolated)
    fake_ollama.responder = lambda body: Reply.text("The moment is wL²/8.")
    first, done = loaded(isolated, "--server", fake_ollama.url, "--once", "hi", env=env)  # keeps the tools' specs
    assert done.returncode == 0 and "wL²/8" in done.stdout, done.stderr
    modules, done = loaded(isolated, "--server", fake_ollama.url, "--once", "And the shear?", env=env)
    assert done.returncode == 0 and "wL²/8" in done.stdout, done.stderr
    assert ours_beyond(modules, ONCE_LOADS) == [], "a module `--once` does not use (or add it to ONCE_LOADS)"
    assert [name for name in NEVER if name in modules] == []
    assert ChatHistoryDB(isolated / "chat_history.sqlite").document_files() == [], "the folder was walked"
    assert "tools.listing" in first and "tools.steel" in first, "the first run derived the specs from the tools"


# `verify` opens the chat history for one lookup: none of the application, the records' validation or the agent.
VERIFY_LOADS = {
    "app": "configuration configuration.store_place verification",
    "faces": "cli cli.verify exit_codes opening skip_httpx_cli",
    "tools": "",
}


def test_verify_loads_the_store_s_opening_and_its_lookup_alone(isolated: Path) -> None:
    ChatHistoryDB(isolated / "chat_history.sqlite").close()
    (isolated / "notes.pdf").write_bytes(b"%PDF-1.7 not issued here")
    modules, done = loaded(isolated, "verify", "notes.pdf", env=user_environment(isolated))
    assert done.returncode == 1 and "matches no calculation package issued here" in done.stdout, done.stderr
    assert ours_beyond(modules, VERIFY_LOADS) == []
    assert [name for name in ("pydantic", "engine", "ollama", "httpx", *NEVER) if name in modules] == []


@pytest.mark.parametrize("command", [["verify", "notes.pdf"], ["users", "list"], ["audit"]])
def test_the_servers_own_commands_neither_walk_nor_watch_the_folder(
    isolated: Path, fake_ollama: FakeOllama, command: list[str]
) -> None:
    (isolated / "workspace").mkdir()
    (isolated / "workspace" / "notes.md").write_text("The girders are spliced at midspan.\n")
    (isolated / "notes.pdf").write_bytes(b"%PDF-1.7 not issued here")
    ChatHistoryDB(isolated / "chat_history.sqlite").close()
    modules, done = loaded(isolated, *command, env=user_environment(isolated))
    assert done.returncode in (0, 1), done.stderr  # verify: 1, the file was not issued here
    assert [name for name in ("watchdog", "app.documents.watch", "tools.workspace_walk") if name in modules] == []
    assert ChatHistoryDB(isolated / "chat_history.sqlite").document_files() == [], "the folder was walked"


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
