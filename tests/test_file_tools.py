"""File tools: useful inside the workspace folder, and no way out of it."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from app.approvals import EditApprovals
from history import ChatHistoryDB
from tools import ToolContext, run_tool


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "workspace"
    folder.mkdir()
    (folder / "notes.txt").write_text("Beam B1: W310x39\nSpan: 6 m\n")
    (folder / "calcs").mkdir()
    (folder / "calcs" / "footing.md").write_text("# Footing F1\n2 x 2 m\n")
    return folder


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    return secret


@cache
def approved(root: Path) -> ToolContext:
    """A context whose edits the user approves at once (FILE_EDITS=auto), through the one consent path."""
    store = ChatHistoryDB(root.parent / "chat_history.sqlite")
    approvals = EditApprovals(store, ToolContext(workspace_root=root, protected=store.files()), "auto")
    return replace(approvals.context, edits=approvals.for_workspace(store.create_chat("files")))


def call(root: Path, name: str, **arguments: object) -> str:
    return run_tool(name, arguments, approved(root)).output


def test_read_list_and_edit_inside_the_workspace(root: Path) -> None:
    assert "Beam B1: W310x39" in call(root, "read_file", path="notes.txt")
    assert "calcs/" in call(root, "list_files") and "notes.txt" in call(root, "list_files", path=".")
    result = call(root, "edit_file", path="notes.txt", old_text="Span: 6 m", new_text="Span: 7.5 m")
    assert result.startswith("Edited notes.txt") and "-Span: 6 m" in result and "+Span: 7.5 m" in result
    assert (root / "notes.txt").read_text() == "Beam B1: W310x39\nSpan: 7.5 m\n"
    assert sorted(p.name for p in root.iterdir()) == ["calcs", "notes.txt"], "no partial file is left beside it"


def test_empty_old_text_creates_a_file_with_its_folders(root: Path) -> None:
    result = call(root, "edit_file", path="reports/r1.md", old_text="", new_text="# Report\n")
    assert result.startswith("Created reports/r1.md (the user can undo it)")
    assert (root / "reports" / "r1.md").read_text() == "# Report\n"
    again = call(root, "edit_file", path="reports/r1.md", old_text="", new_text="overwrite")
    assert "already exists" in again and (root / "reports" / "r1.md").read_text() == "# Report\n"


def test_edit_needs_text_that_occurs_exactly_once(root: Path) -> None:
    (root / "twice.txt").write_text("x = 1\nx = 1\n")
    assert "occurs 2 times" in call(root, "edit_file", path="twice.txt", old_text="x = 1", new_text="x = 2")
    assert "was not found" in call(root, "edit_file", path="twice.txt", old_text="y = 1", new_text="y = 2")
    assert (root / "twice.txt").read_text() == "x = 1\nx = 1\n"


def test_workspace_root_is_created_if_missing(tmp_path: Path) -> None:
    root = tmp_path / "new-root"
    assert "(empty)" in call(root, "list_files")
    assert root.is_dir()


@pytest.mark.parametrize(
    "path",
    ["../secret.txt", "calcs/../../secret.txt", "../../../../../../etc/passwd", "/etc/passwd", "~/.ssh/id_rsa"],
)
def test_paths_leading_outside_are_refused(root: Path, outside: Path, path: str) -> None:
    for name in ("read_file", "list_files"):
        result = call(root, name, path=path)
        assert "outside the workspace folder" in result and "TOP SECRET" not in result
    result = call(root, "edit_file", path=path, old_text="", new_text="pwned")
    assert "outside the workspace folder" in result
    assert outside.read_text() == "TOP SECRET"


def test_absolute_path_to_the_real_secret_is_refused(root: Path, outside: Path) -> None:
    assert "outside the workspace folder" in call(root, "read_file", path=str(outside))


def test_absolute_path_inside_the_workspace_is_fine(root: Path) -> None:
    assert "Beam B1" in call(root, "read_file", path=str(root / "notes.txt"))


def test_sibling_folder_sharing_the_prefix_is_refused(root: Path) -> None:
    sibling = root.parent / "workspace-private"
    sibling.mkdir()
    (sibling / "salary.txt").write_text("PRIVATE")
    result = call(root, "read_file", path="../workspace-private/salary.txt")
    assert "outside the workspace folder" in result and "PRIVATE" not in result


def test_symlinks_leading_out_are_refused(root: Path, outside: Path) -> None:
    (root / "link.txt").symlink_to(outside)
    (root / "linkdir").symlink_to(outside.parent, target_is_directory=True)
    assert "outside the workspace folder" in call(root, "read_file", path="link.txt")
    assert "outside the workspace folder" in call(root, "read_file", path="linkdir/secret.txt")
    assert "outside the workspace folder" in call(root, "list_files", path="linkdir")
    result = call(root, "edit_file", path="link.txt", old_text="TOP", new_text="NO")
    assert "outside the workspace folder" in result
    assert "outside the workspace folder" in call(root, "edit_file", path="linkdir/new.txt", old_text="", new_text="x")
    assert outside.read_text() == "TOP SECRET" and not (outside.parent / "new.txt").exists()
    assert "link.txt (link)" in call(root, "list_files")


def test_symlink_inside_the_workspace_is_followed(root: Path) -> None:
    (root / "alias.txt").symlink_to(root / "notes.txt")
    assert "Beam B1" in call(root, "read_file", path="alias.txt")


def test_nul_byte_in_a_path_is_refused(root: Path) -> None:
    assert "NUL character" in call(root, "read_file", path="notes.txt\x00../../secret.txt")


def test_binary_files_are_refused(root: Path) -> None:
    (root / "drawing.dwg").write_bytes(b"AC1032\x00\x00\x01\x02" * 100)
    assert "binary file" in call(root, "read_file", path="drawing.dwg")
    assert "binary file" in call(root, "edit_file", path="drawing.dwg", old_text="AC", new_text="XX")


def test_huge_sparse_file_is_read_quickly_and_capped(root: Path) -> None:
    (root / "zeros.bin").open("wb").truncate(1024**3)
    assert "binary file (1.0 GB)" in call(root, "read_file", path="zeros.bin")
    with (root / "huge.log").open("wb") as handle:
        handle.write(b"first line\n" + b"log entry\n" * 30_000)
        handle.truncate(1024**3)
    started = time.monotonic()
    result = call(root, "read_file", path="huge.log")
    assert time.monotonic() - started < 30, "only the first part is read, not the whole gigabyte"
    assert "first line" in result and "Only the first 256.0 KB" in result and "1.0 GB" in result


def test_long_text_is_paged_by_line(root: Path) -> None:
    (root / "long.txt").write_text("".join(f"row {i}\n" for i in range(1, 5001)))
    first = call(root, "read_file", path="long.txt")
    assert "row 1\n" in first and "start_line=" in first
    next_line = int(first.rsplit("start_line=", 1)[1].split(" ")[0])
    second = call(root, "read_file", path="long.txt", start_line=next_line)
    assert f"row {next_line}\n" in second and f"Showing lines {next_line}-" in second


def test_non_utf8_text_is_shown_with_a_note(root: Path) -> None:
    (root / "latin1.txt").write_bytes("Béton armé\n".encode("latin-1"))
    result = call(root, "read_file", path="latin1.txt")
    assert "B\ufffdton" in result and "not valid UTF-8" in result
    assert "cannot be edited safely" in call(root, "edit_file", path="latin1.txt", old_text="B", new_text="b")


def test_missing_files_and_folders_are_named(root: Path) -> None:
    assert "'nope.txt' does not exist" in call(root, "read_file", path="nope.txt")
    assert "is a folder" in call(root, "read_file", path="calcs")


def test_edit_keeps_the_file_mode(root: Path) -> None:
    script = root / "run.sh"
    script.write_text("echo 1\n")
    script.chmod(0o755)
    call(root, "edit_file", path="run.sh", old_text="echo 1", new_text="echo 2")
    assert os.stat(script).st_mode & 0o777 == 0o755 and script.read_text() == "echo 2\n"


def test_a_folder_swapped_for_a_symlink_mid_call_never_leaks(root: Path, outside: Path) -> None:
    """Another program swaps a workspace folder for a link to the outside, again and again."""
    real, parked, link = root / "d", root / "d-parked", root / "d-link"
    real.mkdir()
    (real / "secret.txt").write_text("inside")
    (outside.parent / "escape").mkdir()
    (outside.parent / "escape" / "secret.txt").write_text("TOP SECRET")
    link.symlink_to(outside.parent / "escape", target_is_directory=True)
    stop = threading.Event()

    def swap() -> None:
        while not stop.is_set():
            os.rename(real, parked)
            os.rename(link, real)
            os.rename(real, link)
            os.rename(parked, real)

    swapper = threading.Thread(target=swap)
    swapper.start()
    try:
        results = [call(root, "read_file", path="d/secret.txt") for _ in range(1500)]
        results += [call(root, "edit_file", path="d/secret.txt", old_text="x", new_text="y") for _ in range(300)]
        results += [call(root, "list_files", path="d") for _ in range(300)]
    finally:
        stop.set()
        swapper.join()
    assert not any("TOP SECRET" in result for result in results)
    assert sorted(p.name for p in (outside.parent / "escape").iterdir()) == ["secret.txt"], "nothing written outside"
    assert (outside.parent / "escape" / "secret.txt").read_text() == "TOP SECRET"


def test_symlink_loops_are_refused_not_crashes(root: Path) -> None:
    (root / "loop").symlink_to(root / "loop")
    outcome = run_tool("read_file", {"path": "loop/x"}, ToolContext(workspace_root=root))
    assert outcome.error and not outcome.crashed
