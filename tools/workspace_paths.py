"""Confinement to the workspace folder: a path is resolved and checked once, then used through descriptors.

Resolving a path (following symlinks) and refusing anything outside the root
stops `..`, absolute paths, prefix siblings and symlinks that lead out. Between
that check and the use of the file, another program could swap a folder or a
file for a symlink. So the resolved path (which has no links left) is walked
from the open root one name at a time with `O_NOFOLLOW`, and everything after
that (stat, open, create, write, rename, unlink) is done on the open folder's
descriptor (`dir_fd=`, `os.fstat`): a name swapped for a link fails to open
instead of being followed, so check and use are one step. Files are opened with
`O_NONBLOCK`, so a FIFO or a device is refused by `fstat` instead of blocking.
Platforms without `dir_fd` (Windows) fall back to paths checked just before use.

The chat history's own files (`ToolContext.protected`) are refused before
anything opens them, even when the store sits inside the workspace folder:
closing a descriptor of the database file would drop the locks of every SQLite
connection in this process. They are matched by real path and, so a hard link
cannot hide them, by device and inode (read with `stat`, which opens nothing).
On Linux a file is first pinned with `O_PATH` (a descriptor that reads nothing
and whose closing drops no lock), checked by its own `fstat`, and only then
opened through that pin, so a name swapped for the history file between the
check and the open is still refused.

`tools.workspace_walk` lists a folder tree the same way, for the document index.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from tools.atomic_files import write_atomically
from tools.registry import ToolContext

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_PIN = getattr(os, "O_PATH", 0) if os.path.isdir("/proc/self/fd") else 0  # Linux: reopened via /proc/self/fd
_FOLDER_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
_DIR_FD = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd  # os.replace takes the same dir_fds


def descriptors_supported() -> bool:
    """Whether this platform opens files relative to an open folder (`dir_fd`); Windows does not."""
    return _DIR_FD


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


def is_protected(context: ToolContext, resolved: Path, info: os.stat_result | None = None) -> bool:
    """Whether `resolved` (whose entry has stat `info`, if known) is a file no tool may open, under any name."""
    return is_protected_file(context.protected, resolved, info)


def is_protected_file(protected: Iterable[Path], resolved: Path, info: os.stat_result | None = None) -> bool:
    """Whether `resolved` (stat `info`, if known) is one of the `protected` files (real paths), under any name."""
    protected = tuple(protected)
    if resolved in protected:
        return True
    try:
        ours = info if info is not None else os.stat(resolved)
    except OSError:  # it does not exist (yet): then the path is all there is
        return False
    return (ours.st_dev, ours.st_ino) in identities(protected)


def identities(files: Iterable[Path]) -> set[tuple[int, int]]:
    """The (device, inode) of each of `files` that exists, read with `stat` (which opens nothing)."""
    found = set()
    for path in files:
        with contextlib.suppress(OSError):
            info = os.stat(path)
            found.add((info.st_dev, info.st_ino))
    return found


def relative_name(context: ToolContext, path: Path) -> str:
    return path.relative_to(workspace_root(context)).as_posix() or "."


def changed_error(shown: str) -> PermissionError:
    return PermissionError(f"'{shown}' changed while it was being used (a link appeared in its path); try again")


def open_folder_in(folder: int, name: str, shown: str, create: bool) -> int:
    """Open the sub-folder `name` of the open `folder`, never following a link; make it first if `create`."""
    for attempt in (1, 2):
        try:
            return os.open(name, _FOLDER_FLAGS, dir_fd=folder)
        except FileNotFoundError:
            if not create or attempt == 2:
                raise FileNotFoundError(f"'{shown}' does not exist") from None
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, 0o777, dir_fd=folder)
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                raise changed_error(shown) from None
            raise
    raise AssertionError("unreachable")


@contextlib.contextmanager
def open_folder(root: Path, parts: tuple[str, ...], shown: str, create: bool = False) -> Iterator[int]:
    """The open folder `root/parts…`, reached one name at a time from the open root without following links."""
    current = os.open(root, _FOLDER_FLAGS & ~_NOFOLLOW)  # the root may itself be a link the user configured
    try:
        for part in parts:
            following = open_folder_in(current, part, shown, create)
            os.close(current)
            current = following
        yield current
    finally:
        os.close(current)


def _parts(context: ToolContext, target: Path) -> tuple[str, ...]:
    return target.relative_to(workspace_root(context)).parts


@contextlib.contextmanager
def open_parent(context: ToolContext, target: Path, shown: str, create: bool = False) -> Iterator[int]:
    """The open folder that holds the resolved `target` (made, with its parents, if `create`)."""
    with open_folder(workspace_root(context), _parts(context, target)[:-1], shown, create) as folder:
        yield folder


def entry_stat(folder: int, name: str) -> os.stat_result | None:
    """The stat of the entry `name` itself (a link is not followed); None if there is none."""
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None


def workspace_entry(context: ToolContext, target: Path, shown: str) -> os.stat_result | None:
    """The stat of the resolved workspace entry `target` itself, read through its open folder; None if there is none.

    The resolved path had no link left, so a link found there now was swapped in: that is refused.
    """
    if not _DIR_FD:
        try:
            return target.lstat()
        except FileNotFoundError:
            return None
    with open_parent(context, target, shown) as folder:
        info = entry_stat(folder, target.name)
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise changed_error(shown)
    return info


@contextlib.contextmanager
def open_checked(context: ToolContext, path: str, directory: bool = False) -> Iterator[tuple[int, Path]]:
    """Open a workspace file (or folder) read-only through its open parent folder, never following a link.

    A file is opened with `O_NONBLOCK`, so a FIFO or a device cannot block; the
    caller refuses what `os.fstat` on the descriptor says is not a regular file.
    """
    target = resolve_in_workspace(context, path)
    root, parts = workspace_root(context), _parts(context, target)
    if not _DIR_FD:
        with _open_by_path(root, target, path, directory) as fd:
            yield fd, target
        return
    if directory or not parts:
        with open_folder(root, parts, path) as fd:
            yield fd, target
        return

    def refuse_protected(info: os.stat_result) -> None:
        if is_protected(context, target, info):
            raise PermissionError(f"'{path}' is a file of the chat history itself; tools may not open it")

    with open_file_under(root, parts, path, refuse_protected) as fd:
        yield fd, target


@contextlib.contextmanager
def open_file_under(
    root: Path, parts: tuple[str, ...], shown: str, refuse: Callable[[os.stat_result], None] | None = None
) -> Iterator[int]:
    """Open the file `root/parts…` read-only, every folder on the way and the file itself without following a link.

    `refuse` sees the entry's stat before anything opens it, and may raise.
    """
    if not _DIR_FD:
        with _open_by_path(root, root.joinpath(*parts), shown, directory=False) as fd:
            yield fd
        return
    with open_folder(root, parts[:-1], shown) as folder:
        if _PIN:
            fd = _open_pinned(folder, parts[-1], shown, refuse)
        else:
            _check_entry(entry_stat(folder, parts[-1]), shown, refuse)
            fd = _open_file_in(folder, parts[-1], _NOFOLLOW, shown)
    try:
        yield fd
    finally:
        os.close(fd)


def _check_entry(info: os.stat_result | None, shown: str, refuse: Callable[[os.stat_result], None] | None) -> None:
    if info is None:
        raise FileNotFoundError(f"'{shown}' does not exist")
    if stat.S_ISLNK(info.st_mode):
        raise changed_error(shown)
    if refuse is not None:
        refuse(info)


def _open_pinned(folder: int, name: str, shown: str, refuse: Callable[[os.stat_result], None] | None) -> int:
    """Pin the entry with `O_PATH` (nothing is read, and closing the pin drops no lock), check the pinned file
    itself, then open exactly that file through the pin: a swap after the check cannot change what is opened."""
    try:
        pin = os.open(name, _PIN | _NOFOLLOW | _CLOEXEC, dir_fd=folder)
    except FileNotFoundError:
        raise FileNotFoundError(f"'{shown}' does not exist") from None
    try:
        _check_entry(os.fstat(pin), shown, refuse)
        return _open_file_in(None, f"/proc/self/fd/{pin}", 0, shown)
    finally:
        os.close(pin)


def _open_file_in(folder: int | None, name: str, nofollow: int, shown: str) -> int:
    flags = os.O_RDONLY | nofollow | _NONBLOCK | _NOCTTY | _CLOEXEC
    try:
        return os.open(name, flags, dir_fd=folder)
    except FileNotFoundError:
        raise FileNotFoundError(f"'{shown}' does not exist") from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise changed_error(shown) from None
        raise PermissionError(f"'{shown}' cannot be opened ({error.strerror}); it may have just changed") from None


@contextlib.contextmanager
def _open_by_path(root: Path, target: Path, shown: str, directory: bool) -> Iterator[int]:
    """Without `dir_fd`: open the checked path and check where the descriptor really is."""
    flags = os.O_RDONLY | _NOFOLLOW | _CLOEXEC | (_DIRECTORY if directory else _NONBLOCK)
    try:
        fd = os.open(target, flags)
    except FileNotFoundError:
        raise FileNotFoundError(f"'{shown}' does not exist") from None
    except OSError as error:
        raise PermissionError(f"'{shown}' cannot be opened ({error.strerror}); it may have just changed") from None
    try:
        _check_descriptor(fd, root, shown)
        yield fd
    finally:
        os.close(fd)


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


def read_prefix(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    remaining = limit
    while remaining > 0 and (chunk := os.read(fd, min(remaining, 65536))):
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_regular(context: ToolContext, path: str, limit: int) -> bytes | None:
    """Up to `limit` bytes of a regular workspace file; None if there is no such file (or it is not one)."""
    try:
        with open_checked(context, path) as (fd, _):
            return read_prefix(fd, limit) if stat.S_ISREG(os.fstat(fd).st_mode) else None
    except FileNotFoundError:
        return None


def write_in_workspace(context: ToolContext, target: Path, data: bytes, shown: str) -> None:
    """Write `data` to the workspace file `target` whole or not at all (`tools.atomic_files`), inside the root.

    The folders on the way are made (and entered) one at a time from the root,
    never through a link, so a folder swapped for a link cannot send the write,
    or a new folder, outside.
    """
    if not _DIR_FD:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, data)
        return
    with open_parent(context, target, shown, create=True) as folder:
        write_atomically(target, data, folder)


def remove_file(context: ToolContext, target: Path, shown: str) -> None:
    """Delete the workspace file `target` through its open parent folder (a link in the path is not followed)."""
    if not _DIR_FD:
        target.unlink()
        return
    with open_parent(context, target, shown) as folder:
        os.unlink(target.name, dir_fd=folder)
