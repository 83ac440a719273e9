"""The workspace boundary holds while another program swaps names for links, and no special file can hang a tool.

Each race runs a swapping thread beside the tool for a bounded time (RACE_SECONDS, at least MIN_CALLS calls) and
prints how many calls it made; on the code before `tools/workspace_paths.py` walked folders by descriptor, every
one of these races leaked within a fraction of a second.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from app.approvals import EditApprovals, FileEditMode
from app.documents.library import DocumentLibrary
from history import ChatHistoryDB
from tools import ToolContext, run_tool

RACE_SECONDS = 2.0
MIN_CALLS = 300
HANG_SECONDS = 5.0
SECRET_BYTES = 123_457  # an outside file's size as list_files would print it: "120.6 KB"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "workspace"
    folder.mkdir()
    return folder


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_bytes(b"TOP SECRET\n" + b"x" * (SECRET_BYTES - 11))
    return folder


@dataclass
class Gate:
    """One workspace's approvals and the context its tools run with (`auto`: edits are applied at once)."""

    approvals: EditApprovals
    chat_id: int
    context: ToolContext


def gate_for(root: Path, mode: FileEditMode = "auto") -> Gate:
    store = ChatHistoryDB(root.parent / "chat_history.sqlite")
    approvals = EditApprovals(store, ToolContext(workspace_root=root, protected=store.files()), mode)
    chat_id = store.create_chat("races")
    return Gate(approvals, chat_id, replace(approvals.context, edits=approvals.for_workspace(chat_id)))


SWAPPER = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
print("swapping", flush=True)
while True:
    if libc.renameat2(-100, a, -100, b, 2) != 0:  # AT_FDCWD, RENAME_EXCHANGE: neither name is ever missing
        sys.exit(ctypes.get_errno())
"""


def _can_exchange() -> bool:
    try:
        return hasattr(ctypes.CDLL(None), "renameat2")
    except OSError:
        return False


needs_exchange = pytest.mark.skipif(not _can_exchange(), reason="renameat2(RENAME_EXCHANGE) is Linux's")


@contextmanager
def swapping(name: Path, link_target: Path) -> Iterator[None]:
    """Another process swaps `name` with a link to `link_target` and back, as fast as it can, until the block ends.

    A process, not a thread: it swaps while the tool runs, not only when the tool's thread lets go of the GIL.
    """
    link = name.with_name(name.name + "-link")
    link.symlink_to(link_target, target_is_directory=link_target.is_dir())
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(name), str(link)], stdout=subprocess.PIPE, text=True)
    assert swapper.stdout is not None and swapper.stdout.readline() == "swapping\n"
    try:
        yield
    finally:
        swapper.kill()
        swapper.wait()
        assert swapper.returncode == -signal.SIGKILL, "the swapper failed"
    if name.is_symlink():
        os.rename(name, name.with_name(name.name + "-parked"))
        os.rename(link, name)


def race(call: Callable[[int], str]) -> list[str]:
    """Call `call(i)` for RACE_SECONDS (and at least MIN_CALLS times); the outputs."""
    outputs: list[str] = []
    deadline = time.monotonic() + RACE_SECONDS
    while time.monotonic() < deadline or len(outputs) < MIN_CALLS:
        outputs.append(call(len(outputs)))
    print(f"{len(outputs)} calls raced")  # noqa: T201 - the count the closing note reports (pytest -s)
    return outputs


@needs_exchange
def test_new_folders_are_never_made_outside_while_a_parent_is_swapped_for_a_link(root: Path, outside: Path) -> None:
    (root / "d").mkdir()
    context = gate_for(root).context

    def create(i: int) -> str:
        arguments = {"path": f"d/new-{i}/sub/calc.md", "old_text": "", "new_text": "inside"}
        return run_tool("edit_file", arguments, context).output

    with swapping(root / "d", outside):
        outputs = race(create)
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"], "no folder or file was made outside"
    assert (outside / "secret.txt").read_bytes().startswith(b"TOP SECRET")
    made = sum(1 for output in outputs if output.startswith("Created"))
    assert made > 0, "the race let some creations through, inside"
    assert len(list((root / "d").glob("new-*/sub/calc.md"))) == made


@needs_exchange
def test_undo_never_removes_a_file_outside_while_its_folder_is_swapped(root: Path, outside: Path) -> None:
    (root / "d").mkdir()
    (outside / "calc.md").write_text("outside, keep")
    gate = gate_for(root)

    def create_and_undo(i: int) -> str:
        run_tool("edit_file", {"path": "d/calc.md", "old_text": "", "new_text": "inside, keep"}, gate.context)
        try:
            return gate.approvals.undo_last(gate.chat_id)
        except (OSError, ValueError, LookupError) as error:
            return str(error)

    with swapping(root / "d", outside):
        race(create_and_undo)
    assert (outside / "calc.md").read_text() == "outside, keep"


@needs_exchange
def test_listing_a_file_swapped_for_a_link_never_shows_the_outside_file(root: Path, outside: Path) -> None:
    (root / "report.txt").write_text("inside")
    context = ToolContext(workspace_root=root)
    with swapping(root / "report.txt", outside / "secret.txt"):
        outputs = race(lambda _: run_tool("list_files", {"path": "report.txt"}, context).output)
    leaked = [output for output in outputs if "120.6 KB" in output]
    assert not leaked, f"{len(leaked)} of {len(outputs)} listings showed the outside file's size"
    assert any("report.txt (file, 6 bytes)" in output for output in outputs)


@needs_exchange
def test_reading_a_file_swapped_for_a_link_never_shows_the_outside_file(root: Path, outside: Path) -> None:
    (root / "d").mkdir()
    (root / "d" / "secret.txt").write_text("inside")
    context = ToolContext(workspace_root=root)
    with swapping(root / "d", outside):
        outputs = race(lambda _: run_tool("read_file", {"path": "d/secret.txt"}, context).output)
    assert not any("TOP SECRET" in output for output in outputs)
    assert any("inside" in output for output in outputs)


def finishes(action: Callable[[], str], fifo: Path) -> str:
    """Run `action` on a thread; fail if it is still running after HANG_SECONDS (then unblock it)."""
    result: list[str] = []
    worker = threading.Thread(target=lambda: result.append(action()), daemon=True)
    worker.start()
    worker.join(HANG_SECONDS)
    if worker.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # a writer appears: the stuck open returns
        worker.join(HANG_SECONDS)
        pytest.fail(f"still running after {HANG_SECONDS} s: a FIFO blocked the tool")
    return result[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("read_file", {"path": "pipe"}),
        ("edit_file", {"path": "pipe", "old_text": "a", "new_text": "b"}),
        ("edit_file", {"path": "pipe", "old_text": "", "new_text": "b"}),
        ("list_files", {"path": "pipe"}),
        ("list_files", {"path": "."}),
    ],
)
def test_a_fifo_in_the_workspace_is_refused_without_hanging(root: Path, tool: str, arguments: dict[str, str]) -> None:
    fifo = root / "pipe"
    os.mkfifo(fifo)
    output = finishes(lambda: run_tool(tool, arguments, gate_for(root, "confirm").context).output, fifo)
    if tool == "list_files":
        assert "pipe (not a regular file" in output
    else:
        assert "not a regular file" in output or "already exists" in output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_approving_an_edit_whose_file_became_a_fifo_does_not_hang(root: Path) -> None:
    (root / "notes.txt").write_text("Span: 6 m\n")
    gate = gate_for(root, "confirm")
    run_tool("edit_file", {"path": "notes.txt", "old_text": "6 m", "new_text": "7 m"}, gate.context)
    (edit,) = gate.approvals.pending(gate.chat_id)
    (root / "notes.txt").unlink()
    os.mkfifo(root / "notes.txt")

    def approve() -> str:
        try:
            return gate.approvals.approve(gate.chat_id, edit.edit_id)
        except (OSError, ValueError) as error:
            return str(error)

    assert "changed after the edit was proposed" in finishes(approve, root / "notes.txt")


@needs_exchange
def test_indexing_never_reads_a_document_swapped_for_a_link(root: Path, outside: Path) -> None:
    (root / "memo.txt").write_text("Site memo: the crane arrives on Monday.")
    (outside / "tender.txt").write_text("Tender price confidential: 4.2 million.")
    docs = DocumentLibrary(ChatHistoryDB(root.parent / "chat_history.sqlite"), root, None)
    runs = 0
    with swapping(root / "memo.txt", outside / "tender.txt"):
        deadline = time.monotonic() + RACE_SECONDS
        while time.monotonic() < deadline or runs < 20:
            docs.refresh()
            assert docs.wait(60)
            runs += 1
            assert not docs.search("tender price confidential", 5)["passages"]
    print(f"{runs} indexing runs raced")  # noqa: T201
    docs.refresh()
    assert docs.wait(60)
    assert "crane" in docs.search("crane Monday", 1)["passages"][0]["text"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_indexing_skips_a_fifo_without_hanging(root: Path) -> None:
    os.mkfifo(root / "pipe.txt")
    (root / "memo.txt").write_text("Site memo: the crane arrives on Monday.")
    docs = DocumentLibrary(ChatHistoryDB(root.parent / "chat_history.sqlite"), root, None)
    docs.refresh()
    assert docs.wait(HANG_SECONDS), "indexing stayed stuck on the FIFO"
    assert {f.path: f.note for f in docs.files()}["pipe.txt"] == "not a regular file"


CHURNER = """
import os, sys
folder = sys.argv[1]
print("churning", flush=True)
while True:  # a word processor's lock files, coming and going
    for i in range(40):
        name = os.path.join(folder, f"~$lock{i}.docx")
        with open(name, "wb") as lock:
            lock.write(b"x")
        os.unlink(name)
"""


def test_indexing_goes_on_when_files_vanish_mid_walk(root: Path) -> None:
    (root / "memo.txt").write_text("Site memo: the crane arrives on Monday.")
    for i in range(200):
        (root / f"note-{i}.txt").write_text(f"note {i}")
    docs = DocumentLibrary(ChatHistoryDB(root.parent / "chat_history.sqlite"), root, None)
    churner = subprocess.Popen([sys.executable, "-c", CHURNER, str(root)], stdout=subprocess.PIPE, text=True)
    assert churner.stdout is not None and churner.stdout.readline() == "churning\n"
    runs, stopped = 0, []
    try:
        deadline = time.monotonic() + RACE_SECONDS
        while time.monotonic() < deadline or runs < 30:
            docs.refresh()
            assert docs.wait(60)
            runs += 1
            stopped += docs.progress.errors
    finally:
        churner.kill()
        churner.wait()
    print(f"{runs} indexing runs with files vanishing, {len(stopped)} stopped")  # noqa: T201
    assert stopped == [], f"{len(stopped)} of {runs} runs stopped: {stopped[0]}"
    assert "crane" in docs.search("crane Monday", 1)["passages"][0]["text"]


@needs_exchange
def test_indexing_never_lists_files_outside_while_a_folder_is_swapped(root: Path, outside: Path) -> None:
    for i in range(10):  # the same folders inside and outside: a walk by path goes on outside after a swap
        (root / "d" / f"e{i}").mkdir(parents=True)
        (root / "d" / f"e{i}" / "memo.txt").write_text("Site memo: the crane arrives on Monday.")
        (outside / f"e{i}").mkdir()
        (outside / f"e{i}" / f"outside-{i}.txt").write_text("Tender price confidential.")
    docs = DocumentLibrary(ChatHistoryDB(root.parent / "chat_history.sqlite"), root, None)
    runs, seen = 0, set()
    with swapping(root / "d", outside):
        deadline = time.monotonic() + RACE_SECONDS
        while time.monotonic() < deadline or runs < 30:
            docs.refresh()
            assert docs.wait(60)
            runs += 1
            seen |= {file.path for file in docs.files()}
    print(f"{runs} indexing runs raced")  # noqa: T201
    leaked = sorted(path for path in seen if "outside-" in path)
    assert not leaked, f"names of files outside the workspace were recorded: {leaked}"
    assert "d/e0/memo.txt" in seen
