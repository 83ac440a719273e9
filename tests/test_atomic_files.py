"""The one way the product writes a file whole or not at all: exports, packages, uploads and approved edits."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.atomic_files import write_atomically, write_partial


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_text_in_pieces_and_bytes_are_written_whole_and_a_replaced_file_keeps_its_permissions(tmp_path: Path) -> None:
    report = tmp_path / "report.md"
    umask = os.umask(0o027)
    try:
        write_atomically(report, iter(["# Report\n", "ü: ", "54 kN·m\n"]))
        assert report.read_text(encoding="utf-8") == "# Report\nü: 54 kN·m\n" and mode(report) == 0o640
        report.chmod(0o664)
        write_atomically(report, b"%PDF-1.7 signed")
    finally:
        os.umask(umask)
    assert report.read_bytes() == b"%PDF-1.7 signed" and mode(report) == 0o664, "its group may still write it"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]


def test_a_failure_through_an_open_folder_leaves_the_earlier_file_and_no_partial_one(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("kept", encoding="utf-8")

    def pieces() -> Iterator[str]:
        yield "half"
        raise OSError("the disk is full")

    folder = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with pytest.raises(OSError, match="the disk is full"):
            write_atomically(target, pieces(), folder)
        write_atomically(target, b"whole", folder)
    finally:
        os.close(folder)
    assert target.read_bytes() == b"whole" and [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_partial_file_is_new_hidden_beside_its_target_and_left_to_the_caller(tmp_path: Path) -> None:
    target = tmp_path / "spec.pdf"
    name = write_partial(target, b"%PDF")
    assert name.startswith(".spec.pdf.") and name.endswith(".part") and (tmp_path / name).read_bytes() == b"%PDF"
    assert not target.exists()
