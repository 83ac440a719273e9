"""Listing a folder tree in the workspace by descriptor, for the document index.

Each folder is opened from its open parent without following a link
(`tools.workspace_paths.open_folder_in`) and entered only if it is still the
folder that was listed, so a folder swapped for a link mid-walk is never walked
and no name from outside the workspace is listed. An entry that vanishes
meanwhile (a word processor's `~$lock.docx` coming and going) is skipped and the
walk goes on.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

from tools.workspace_paths import descriptors_supported, entry_stat, open_folder, open_folder_in

MAX_WALK_DEPTH = 64  # folders nested deeper than this are not walked


def walk_files(root: Path, wanted: Callable[[str], bool]) -> list[tuple[str, os.stat_result]]:
    """Each entry under `root` (not a folder) whose name `wanted` accepts, as (path relative to root, its own stat).

    Hidden names are skipped. Each folder is opened from its open parent without
    following a link and entered only if it is still the folder that was listed,
    so a folder swapped for a link is never walked; an entry that vanishes or
    changes meanwhile is skipped and the walk goes on.
    """
    if not root.is_dir():
        return []  # no folder yet: no documents
    if not descriptors_supported():
        return _walk_by_path(root, wanted)
    found: list[tuple[str, os.stat_result]] = []
    with open_folder(root, (), root.name) as top:
        _walk_folder(top, (), wanted, found)
    return found


def _walk_folder(
    folder: int, parts: tuple[str, ...], wanted: Callable[[str], bool], found: list[tuple[str, os.stat_result]]
) -> None:
    with os.scandir(folder) as listing:
        names = sorted(entry.name for entry in listing if not entry.name.startswith("."))
    for name in names:
        try:
            info = entry_stat(folder, name)
        except OSError:
            info = None
        if info is None:
            continue  # gone since the folder was listed, or unreadable
        if not stat.S_ISDIR(info.st_mode):
            if wanted(name):
                found.append(("/".join((*parts, name)), info))
            continue
        if len(parts) >= MAX_WALK_DEPTH:
            continue
        try:
            inner = open_folder_in(folder, name, name, create=False)
        except OSError:
            continue  # gone, swapped for a link or a file, or unreadable
        try:
            if os.path.samestat(info, os.fstat(inner)):  # still the folder that was listed
                _walk_folder(inner, (*parts, name), wanted, found)
        finally:
            os.close(inner)


def _walk_by_path(root: Path, wanted: Callable[[str], bool]) -> list[tuple[str, os.stat_result]]:
    """Without `dir_fd` (Windows): `os.walk` without following links, skipping what vanishes."""
    found = []
    for folder, folders, names in os.walk(root, followlinks=False):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(names):
            if name.startswith(".") or not wanted(name):
                continue
            with contextlib.suppress(FileNotFoundError):
                path = Path(folder) / name
                found.append((path.relative_to(root).as_posix(), path.lstat()))
    return found
