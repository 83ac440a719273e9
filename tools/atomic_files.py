"""Files written whole or not at all: through a new file beside the target, put in its place only once complete.

A reader never sees half a file, and a failure part way leaves any earlier file at the target as it was. This is
the product's one `write_atomically`: the exports, reports and packages (`app`), and, through a folder opened by
the workspace's descriptor walk, the approved file edits (`tools.workspace_paths.write_in_workspace`); the
document uploads write their new file with `write_partial` and then link it into place (`app.documents.uploads`).
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

Content = bytes | Iterable[str]  # bytes as they are, or pieces of text written in UTF-8 one at a time

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_FOLDER = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_DIR_FD = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd  # os.replace takes the same dir_fds


def write_atomically(target: Path, content: Content, folder: int | None = None) -> None:
    """Write `content` to `target` through a new file beside it, put in place once complete and on disk.

    `folder` is an open descriptor of the folder `target` is in, and names are taken in it (the workspace's
    file tools open it by a walk that follows no link); without one, the folder is opened by its path. A file
    replaced keeps its permissions; a new one gets the usual ones (0o644 less the umask).
    """
    if folder is None and _DIR_FD:
        opened = os.open(target.parent, _FOLDER)
        try:
            write_atomically(target, content, opened)
        finally:
            os.close(opened)
        return
    partial = write_partial(target, content, folder)
    try:
        os.replace(_where(target, partial, folder), _where(target, target.name, folder),
                   src_dir_fd=folder, dst_dir_fd=folder)  # fmt: skip
        if folder is not None:
            os.fsync(folder)  # the new name itself on disk
    except BaseException:
        _remove(target, partial, folder)
        raise


def write_partial(target: Path, content: Content, folder: int | None = None) -> str:
    """Write `content` to a new file beside `target` (on disk when this returns) and give its name; nothing is
    left behind if writing fails. The caller puts it in place, or removes it."""
    partial = f".{target.name}.{secrets.token_hex(4)}.part"
    kept = _regular_mode(target, folder)
    descriptor = os.open(_where(target, partial, folder), _CREATE, 0o644 if kept is None else kept, dir_fd=folder)
    try:
        with open(descriptor, "wb") as out:  # closes the descriptor, whatever happens
            if kept is not None:
                os.fchmod(out.fileno(), kept)
            _write(out, content)
            os.fsync(out.fileno())
    except BaseException:
        _remove(target, partial, folder)
        raise
    return partial


def _write(out: BinaryIO, content: Content) -> None:
    if isinstance(content, bytes):
        out.write(content)
    else:
        text = io.TextIOWrapper(out, encoding="utf-8")
        text.writelines(content)
        text.flush()
        text.detach()  # `out` stays open, to be synced and closed
    out.flush()


def _where(target: Path, name: str, folder: int | None) -> str:
    """`name` in the folder of `target`: as it is inside an open folder, else as a path."""
    return name if folder is not None else str(target.with_name(name))


def _regular_mode(target: Path, folder: int | None) -> int | None:
    """The permissions of the regular file at `target` (a link is not followed), None if there is none."""
    try:
        info = os.stat(_where(target, target.name, folder), dir_fd=folder, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def _remove(target: Path, name: str, folder: int | None) -> None:
    with contextlib.suppress(OSError):
        os.unlink(_where(target, name, folder), dir_fd=folder)
