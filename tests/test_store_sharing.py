"""One history file shared by several store objects in this process and the real CLI in another.

SQLite's locks are POSIX locks: closing any descriptor of the file drops every
lock this process holds on it, including those of its other connections. Then
another process, finishing, believes it is alone, checkpoints and deletes the
-wal and -shm files under us, and turns we acknowledged vanish (or the file is
"malformed"). These tests reproduce what a user did: the web app open in two
tabs and `python main.py --once` run beside it, cleanly and under `kill -9`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import TypedDict

import pytest

from fakes.ollama import FakeOllama, Hang, Reply, wait_until
from history import ChatHistoryDB

ROOT = Path(__file__).resolve().parents[1]
CHECK = """
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(json.dumps({
    "integrity": db.execute("PRAGMA integrity_check").fetchone()[0],
    "questions": [row[0] for row in db.execute("SELECT user FROM history ORDER BY id")],
}))
"""


LOCK_PROBE = """
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)  # in this other process: its closing drops only this process's locks
wanted = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, 0x40000002, 510, 0)  # SQLite's SHARED bytes
print(struct.unpack("hhqqi4x", fcntl.fcntl(fd, fcntl.F_GETLK, wanted))[0] != fcntl.F_UNLCK)
"""


def holds_sqlite_locks(path: Path) -> bool:
    """Whether another process sees the SHARED lock that this process's open WAL connections hold on `path`
    for as long as they are open (it is what stops another process from deleting the write-ahead log)."""
    result = subprocess.run([sys.executable, "-c", LOCK_PROBE, str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip() == "True"


class Look(TypedDict):
    integrity: str
    questions: list[str]


def fresh_look(path: Path) -> Look:
    """What a new process finds in the file: its integrity and every stored question."""
    result = subprocess.run([sys.executable, "-c", CHECK, str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    look: Look = json.loads(result.stdout)
    return look


def cli(fake: FakeOllama, path: Path, question: str, workspace: Path | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "--server", fake.url, "--db", str(path), "--once", question],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "WORKSPACE_ROOT": str(workspace or path.parent / "workspace")},
    )


def write_turns(stores: list[ChatHistoryDB], chat: int, tag: str, count: int) -> list[str]:
    """Each store writes `count` turns; returns the questions, every one acknowledged (committed)."""
    written = []
    for number, store in enumerate(stores):
        for i in range(count):
            question = f"{tag} tab{number} q{i}"
            store.add_to_history(chat, question, "answer " + "x" * 3000)
            written.append(question)
    return written


def test_tabs_and_a_cli_run_beside_them_lose_no_acknowledged_turn(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite"
    fake_ollama.responder = lambda body: Reply.text("From the command line.")
    first = ChatHistoryDB(path)
    chat = first.create_chat("Tower")
    acknowledged = write_turns([first], chat, "before", 3)
    tabs = [first, ChatHistoryDB(path), ChatHistoryDB(path)]  # more tabs open the same file
    acknowledged += write_turns(tabs, chat, "open", 2)
    for run in range(3):
        process = cli(fake_ollama, path, f"cli question {run}")
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        acknowledged.append(f"cli question {run}")
    acknowledged += write_turns(tabs, chat, "after", 5)

    while_open = fresh_look(path)
    for store in tabs:
        store.close()
    after_close = fresh_look(path)

    for seen in (while_open, after_close):
        assert seen["integrity"] == "ok"
        assert sorted(seen["questions"]) == sorted(acknowledged), "an acknowledged turn is missing"


def test_a_cli_killed_mid_turn_beside_open_tabs_loses_nothing(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite"
    first = ChatHistoryDB(path)
    chat = first.create_chat("Tower")
    tabs = [first, ChatHistoryDB(path)]
    acknowledged = write_turns(tabs, chat, "before", 3)

    fake_ollama.script(Reply([Hang(30)]))  # the killed run waits for an answer that never comes
    killed = cli(fake_ollama, path, "killed question")
    assert wait_until(lambda: len(fake_ollama.chat_requests) == 1, timeout=20)
    acknowledged += write_turns(tabs, chat, "during", 2)
    killed.send_signal(signal.SIGKILL)
    killed.communicate(timeout=30)

    fake_ollama.script(Reply.text("Finished."))
    finished = cli(fake_ollama, path, "finished question")
    finished.communicate(timeout=60)
    assert finished.returncode == 0
    acknowledged.append("finished question")
    acknowledged += write_turns(tabs, chat, "after", 4)
    # the killed run's question was stored as its turn started; the next CLI found its process gone
    acknowledged.append("killed question")
    killed_turn = next(t for c in first.list_chats() for t in first.get_turns(c[0]) if t.user == "killed question")
    assert killed_turn.status == "stopped"

    seen = fresh_look(path)
    assert seen["integrity"] == "ok"
    assert sorted(seen["questions"]) == sorted(acknowledged), "an acknowledged turn is missing"
    for store in tabs:
        store.close()
    assert sorted(fresh_look(path)["questions"]) == sorted(acknowledged)


def test_the_file_tools_refuse_the_store_even_inside_the_workspace(tmp_path: Path) -> None:
    """WORKSPACE_ROOT may hold the history file; no tool may open it, under its own name or another."""
    from dataclasses import replace

    from app.approvals import EditApprovals
    from tools import ToolContext, run_tool

    workspace = tmp_path / "project"
    store = ChatHistoryDB(workspace / "chat_history.sqlite")
    chat = store.create_chat("Tower")
    store.add_to_history(chat, "q", "a")  # the -wal and -shm files exist now
    (workspace / "link.sqlite").symlink_to(workspace / "chat_history.sqlite")
    os.link(workspace / "chat_history.sqlite", workspace / "hard-link.bin")
    approvals = EditApprovals(store, ToolContext(workspace_root=workspace, protected=store.files()), "auto")
    context = replace(approvals.context, edits=approvals.for_workspace(chat))
    names = [
        "chat_history.sqlite",
        "chat_history.sqlite-wal",
        "chat_history.sqlite-shm",
        "link.sqlite",
        "hard-link.bin",
    ]
    for name in names:
        for tool, arguments in (
            ("read_file", {"path": name}),
            ("list_files", {"path": name}),
            ("edit_file", {"path": name, "old_text": "SQLite", "new_text": "x"}),
        ):
            outcome = run_tool(tool, arguments, context)
            assert outcome.error and "chat history itself" in outcome.output, (tool, name, outcome.output)
    created = run_tool("edit_file", {"path": "chat_history.sqlite-journal", "old_text": "", "new_text": "x"}, context)
    assert created.error and not (workspace / "chat_history.sqlite-journal").exists()
    assert "chat_history.sqlite" in run_tool("list_files", {"path": "."}, context).output, "listing names it only"
    store.add_to_history(chat, "after", "a")
    assert fresh_look(workspace / "chat_history.sqlite") == {"integrity": "ok", "questions": ["q", "after"]}


def test_the_file_tools_refuse_the_real_companions_of_a_symlinked_store(tmp_path: Path) -> None:
    from tools import ToolContext, run_tool

    workspace = tmp_path / "project"
    workspace.mkdir()
    (tmp_path / "link.sqlite").symlink_to(workspace / "history.sqlite")
    store = ChatHistoryDB(tmp_path / "link.sqlite")
    store.add_to_history(store.create_chat("Tower"), "q", "a")
    context = ToolContext(workspace_root=workspace, protected=store.files())
    for name in ("history.sqlite", "history.sqlite-wal", "history.sqlite-shm"):
        outcome = run_tool("read_file", {"path": name}, context)
        assert outcome.error and "chat history itself" in outcome.output, (name, outcome.output)


def test_the_indexer_never_opens_the_history_file_in_the_workspace(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    """The history file inside the workspace folder as `history.txt`, and hard-linked there as `notes.txt`.

    An indexer that read either would close a descriptor of the file and drop this process's locks: the CLI
    run beside it would then delete the write-ahead log under this store, and the turns after it would vanish.
    """
    from app.documents.library import DocumentLibrary

    workspace = tmp_path / "workspace"
    workspace.mkdir()
    path = workspace / "history.txt"
    fake_ollama.responder = lambda body: Reply.text("From the command line.")
    store = ChatHistoryDB(path)
    chat = store.create_chat("Tower")
    acknowledged = write_turns([store], chat, "before", 3)
    os.link(path, workspace / "notes.txt")
    (workspace / "memo.txt").write_text("Site memo: the crane arrives on Monday.")
    docs = DocumentLibrary(store, workspace, None)
    for run in range(3):
        docs.refresh()
        assert docs.wait(60)
        assert holds_sqlite_locks(path), "indexing dropped the store's locks"
        process = cli(fake_ollama, path, f"cli question {run}", workspace)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        acknowledged.append(f"cli question {run}")
        acknowledged += write_turns([store], chat, f"after run {run}", 4)

    seen = fresh_look(path)
    assert seen["integrity"] == "ok"
    assert sorted(seen["questions"]) == sorted(acknowledged), "an acknowledged turn is missing"
    files = {file.path: file for file in docs.files()}
    assert files["memo.txt"].status == "indexed"
    for name in ("history.txt", "notes.txt"):
        assert files[name].status == "skipped" and "chat history" in files[name].note, files[name]
    assert docs.search("crane Monday", 5)["passages"][0]["file"] == "memo.txt"
    assert all(passage["file"] == "memo.txt" for passage in docs.search("tab0 answer", 5)["passages"])
    store.close()
    assert sorted(fresh_look(path)["questions"]) == sorted(acknowledged)


def test_a_name_swapped_for_the_history_file_after_the_check_is_not_opened(tmp_path: Path) -> None:
    """What is opened is the file that was checked: a hard link to the history file put in its place meanwhile
    (here by the check itself, the moment it has looked) is never opened."""
    from tools.workspace_paths import open_file_under

    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "memo.txt").write_text("Site memo")
    store = ChatHistoryDB(tmp_path / "history.sqlite")
    store.add_to_history(store.create_chat("Tower"), "q", "a")

    def swap_after_looking(info: os.stat_result) -> None:
        assert not store.owns(workspace / "memo.txt")
        os.link(tmp_path / "history.sqlite", workspace / "swap.txt")
        os.replace(workspace / "swap.txt", workspace / "memo.txt")

    with open_file_under(workspace, ("memo.txt",), "memo.txt", swap_after_looking) as fd:
        assert os.read(fd, 100) == b"Site memo", "the history file was opened in the checked file's place"
    assert store.owns(workspace / "memo.txt")


def test_an_upload_never_replaces_the_history_file(tmp_path: Path) -> None:
    from app.documents.library import DocumentLibrary

    workspace = tmp_path / "workspace"
    store = ChatHistoryDB(workspace / "history.txt")
    chat = store.create_chat("Tower")
    store.add_to_history(chat, "q", "a")
    docs = DocumentLibrary(store, workspace, None)
    with pytest.raises(ValueError, match="chat history's own file"):
        docs.save_upload("history.txt", b"a document")
    store.add_to_history(chat, "after", "a")
    assert fresh_look(workspace / "history.txt") == {"integrity": "ok", "questions": ["q", "after"]}


def test_nothing_but_the_store_opens_the_history_file_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent file or a setting file that is the history file under another name is never read."""
    from app import SettingsError, start

    path = tmp_path / "history.sqlite"
    first = ChatHistoryDB(path)
    first.add_to_history(first.create_chat("Tower"), "q", "a")
    (tmp_path / "agents").mkdir()
    os.link(path, tmp_path / "agents" / "reviewer.md")
    monkeypatch.setenv("CHAT_HISTORY_DB_PATH", str(path))
    monkeypatch.setenv("WORKSPACE_ROOT", str(tmp_path / "workspace"))
    monkeypatch.setenv("AGENTS_DIR", str(tmp_path / "agents"))
    service = start(None, {})
    assert holds_sqlite_locks(path), "reading the agent files dropped the store's locks"
    assert any("chat history itself" in problem for problem in service.agents.problems)
    service.close()
    for key in ("HOOKS_CONFIG", "MCP_CONFIG"):
        with monkeypatch.context() as setting:
            setting.setenv(key, str(tmp_path / "agents" / "reviewer.md"))
            with pytest.raises(SettingsError, match=f"{key} .* is a file of the chat history"):
                start(None, {})
    first.close()
