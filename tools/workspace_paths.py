"""Confinement to the workspace folder, checked when a path is resolved and again once it is open.

Resolving a path (following symlinks) and refusing anything outside the root
stops `..`, absolute paths, prefix siblings and symlinks that lead out. Between
that check and the use of the file, another program could swap a folder for a
symlink; so files and folders are opened without following a final symlink and
the open descriptor's real location is checked, and writes happen relative to
an open, checked folder descriptor.

The chat history's own files (`ToolContext.protected`) are refused before
anything opens them, even when the store sits inside the workspace folder:
closing a descriptor of the database file would drop the locks of every SQLite
connection in this process. They are matched by real path and, so a hard link
cannot hide them, by device and inode (read with `stat`, which opens nothing).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path

from tools.registry import ToolContext

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR_FD = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd  # os.replace takes the same dir_fds


def workspace_root(context: ToolContext) -> Path:
    """The real path of the workspace folder, created if missing."""
    root = context.workspace_root.expanduser()
    root.mkdir(parents=True, exist_ok=True)
    return root.resolve()


def outside_error(path: str, root: Path) -> PermissionError:
    return PermissionError(f"'{path}' is outside the workspace folder; only paths inside {root.name}/ can be used")


def resolve_in_workspace(context: ToolContext, path: str) -> Path:
    """Resolve `path` against the workspace root; refuse anything that leads outside it."""
    if "\x00" in path:
        raise ValueError("the path contains a NUL character")
    root = workspace_root(context)
    try:
        requested = Path(path.strip() or ".").expanduser()
        resolved = (requested if requested.is_absolute() else root / requested).resolve()
    except (RuntimeError, OSError) as error:  # a symlink loop, an unknown ~user
        raise ValueError(f"'{path}' cannot be resolved ({error})") from None
    if resolved != root and not resolved.is_relative_to(root):
        raise outside_error(path, root)
    if is_protected(context, resolved):
        raise PermissionError(f"'{path}' is a file of the chat history itself; tools may not open it")
    return resolved


def is_protected(context: ToolContext, resolved: Path) -> bool:
    """Whether `resolved` is one of the files no tool may open, under this name or another."""
    for protected in context.protected:  # real paths: the store names them as SQLite opens them
        if resolved == protected:
            return True
        with contextlib.suppress(OSError):  # either may not exist (yet): then the path is all there is
            if os.path.samefile(resolved, protected):
                return True
    return False


def relative_name(context: ToolContext, path: Path) -> str:
    return path.relative_to(workspace_root(context)).as_posix() or "."


def _descriptor_path(fd: int) -> Path | None:
    """Where an open descriptor really is (Linux /proc, or macOS F_GETPATH); None if unknown."""
    proc = Path(f"/proc/self/fd/{fd}")
    with contextlib.suppress(OSError):
        return Path(os.readlink(proc))
    try:
        import fcntl

        raw = fcntl.fcntl(fd, fcntl.F_GETPATH, b"\0" * 1024)  # type: ignore[attr-defined]
    except (ImportError, AttributeError, OSError):
        return None
    return Path(raw.rstrip(b"\0").decode())


def _check_descriptor(fd: int, root: Path, shown: str) -> None:
    real = _descriptor_path(fd)
    if real is not None and real != root and not real.is_relative_to(root):
        raise outside_error(shown, root)


@contextlib.contextmanager
def open_checked(context: ToolContext, path: str, directory: bool = False) -> Iterator[tuple[int, Path]]:
    """Open a workspace file (or folder) read-only, re-checking where it really is once open."""
    target = resolve_in_workspace(context, path)
    flags = os.O_RDONLY | _NOFOLLOW | _CLOEXEC | (_DIRECTORY if directory else 0)
    try:
        fd = os.open(target, flags)
    except FileNotFoundError:
        raise FileNotFoundError(f"'{path}' does not exist") from None
    except NotADirectoryError:
        raise NotADirectoryError(f"'{path}' is not a folder") from None
    except OSError as error:
        raise PermissionError(f"'{path}' cannot be opened ({error.strerror}); it may have just changed") from None
    try:
        _check_descriptor(fd, workspace_root(context), path)
        yield fd, target
    finally:
        os.close(fd)


def read_prefix(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    remaining = limit
    while remaining > 0 and (chunk := os.read(fd, min(remaining, 65536))):
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def write_atomically(context: ToolContext, target: Path, data: bytes, shown: str) -> None:
    """Write `data` so that a crash leaves either the old or the new file, never a mix, inside the root."""
    root = workspace_root(context)
    target.parent.mkdir(parents=True, exist_ok=True)
    if not _DIR_FD:
        _write_by_path(target, data)
        return
    folder = os.open(target.parent, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
    try:
        _check_descriptor(folder, root, shown)
        _write_in_folder(folder, target.name, data)
    finally:
        os.close(folder)


def _existing_mode(folder: int, name: str) -> int:
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return 0o644
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else 0o644


def _write_in_folder(folder: int, name: str, data: bytes) -> None:
    temporary = f".{name}.{uuid.uuid4().hex[:8]}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), _existing_mode(folder, name))
            os.fsync(handle.fileno())
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        os.fsync(folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise


def _write_by_path(target: Path, data: bytes) -> None:
    """Fallback for platforms without `dir_fd` (Windows): temporary file + `os.replace`."""
    temporary = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        temporary.write_bytes(data)
        if target.exists():
            shutil.copymode(target, temporary)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
