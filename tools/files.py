"""File tools confined to the workspace folder (`WORKSPACE_ROOT`).

Paths are checked by `tools.workspace_paths`: refused unless the real path lies
inside the real workspace root and is not one of the chat history's files, and
checked again once open. Names in listings are quoted when they hold a line
break, a control or a bidi character, so a file name cannot forge a line.
Reads are capped and paged by line, binary files refused. `edit_file` never
writes: it hands the change to the context's approver (`ToolContext.edits`),
and refuses when there is none.
"""

from __future__ import annotations

import difflib
import os
import stat
from pathlib import Path

from tools.catalogue import tool
from tools.registry import FileEditHandler, ToolContext
from tools.workspace_paths import (
    open_checked,
    read_prefix,
    relative_name,
    resolve_in_workspace,
    workspace_entry,
    workspace_root,
)

MAX_READ_BYTES = 256 * 1024
MAX_READ_CHARS = 7_000
MAX_EDIT_BYTES = 1024 * 1024
MAX_LISTED_ENTRIES = 300
_BINARY_SNIFF_BYTES = 8192


def _human_size(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:,.0f} {unit}" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{size} bytes"


def listed(name: str) -> str:
    """A file name for one line of a listing: as it is, or, when it holds a line break, a control or a bidi
    character, quoted with those written as escapes (`'evil\\nsecret.txt'`), so it cannot forge another line."""
    return name if name.isprintable() else repr(name)


def _decode(data: bytes) -> tuple[str, bool]:
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError as error:
        if error.start >= len(data) - 3:  # a multi-byte character cut by the read cap
            return data[: error.start].decode("utf-8"), True
        return data.decode("utf-8", errors="replace"), False


def _require_regular(info: os.stat_result, shown: str) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(f"'{shown}' is a folder; use list_files to see what it holds")
    if not stat.S_ISREG(info.st_mode):
        raise PermissionError(f"'{shown}' is not a regular file")


def _read_text(context: ToolContext, path: str, limit: int) -> tuple[bytes, os.stat_result, str]:
    """The first `limit` bytes of a regular text file, its stat and its workspace-relative name."""
    with open_checked(context, path) as (fd, target):
        info = os.fstat(fd)
        _require_regular(info, path)
        data = read_prefix(fd, limit)
    if b"\x00" in data[:_BINARY_SNIFF_BYTES]:
        raise ValueError(f"'{path}' is a binary file ({_human_size(info.st_size)}); only text files can be used")
    return data, info, relative_name(context, target)


@tool("file", words=("file", "read", "open", "csv", "txt"))
def read_file(context: ToolContext, path: str, start_line: int = 1) -> str:
    """Read a text file from the workspace folder.

    Args:
        path: The file's path, relative to the workspace folder.
        start_line: The first line to show (1 for the start); use it to page through long files.
    """
    data, info, name = _read_text(context, path, MAX_READ_BYTES)
    text, valid_utf8 = _decode(data)
    lines = text.splitlines(keepends=True)
    first = max(start_line, 1)
    shown: list[str] = []
    used = 0
    for line in lines[first - 1 :]:
        if used + len(line) > MAX_READ_CHARS and shown:
            break
        shown.append(line)
        used += len(line)
    last = first + len(shown) - 1
    notes = _read_notes(info.st_size, len(data), valid_utf8, first, last, len(lines))
    header = f"{listed(name)} ({_human_size(info.st_size)})"
    return f"{header}\n{''.join(shown)}" + (f"\n[{' '.join(notes)}]" if notes else "")


def _read_notes(size: int, read: int, valid_utf8: bool, first: int, last: int, total: int) -> list[str]:
    notes = []
    if first > total:
        notes.append(f"The file has only {total} lines.")
    elif first > 1 or last < total:
        notes.append(f"Showing lines {first}-{last} of {total}.")
        if last < total:
            notes.append(f"Call read_file with start_line={last + 1} for more.")
    if read < size:
        notes.append(f"Only the first {_human_size(read)} of this file can be read.")
    if not valid_utf8:
        notes.append("The file is not valid UTF-8; undecodable bytes are shown as \ufffd.")
    return notes


@tool("file", words=("files", "folder", "list", "workspace"))
def list_files(context: ToolContext, path: str = ".") -> str:
    """List a folder in the workspace (or describe one file).

    Args:
        path: The folder's path relative to the workspace folder; "." for the workspace itself.
    """
    target, info = _entry(context, path)
    if info is not None and not stat.S_ISDIR(info.st_mode):
        kind = "file" if stat.S_ISREG(info.st_mode) else "not a regular file"
        return f"{listed(relative_name(context, target))} ({kind}, {_human_size(info.st_size)})"
    with open_checked(context, path, directory=True) as (fd, target):
        source = fd if os.scandir in os.supports_fd else target
        with os.scandir(source) as listing:
            entries = sorted(listing, key=lambda e: (not e.is_dir(follow_symlinks=False), e.name.lower()))
        lines = [_describe_entry(entry) for entry in entries[:MAX_LISTED_ENTRIES]]  # stat needs the folder open
    if len(entries) > MAX_LISTED_ENTRIES:
        lines.append(f"[{len(entries) - MAX_LISTED_ENTRIES} more entries not shown]")
    shown = listed(relative_name(context, target))
    return f"{shown}/ ({len(entries)} entries)\n" + ("\n".join(lines) if lines else "(empty)")


def _entry(context: ToolContext, path: str) -> tuple[Path, os.stat_result | None]:
    """The resolved `path` and the stat of its entry itself (None: there is none, or it is the workspace folder)."""
    target = resolve_in_workspace(context, path)
    return target, None if target == workspace_root(context) else workspace_entry(context, target, path)


def _describe_entry(entry: os.DirEntry[str]) -> str:
    """One line for a folder entry, from the entry itself (`lstat` through the open folder): a link is not followed."""
    name = listed(entry.name)
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return f"{name} (unreadable)"
    if stat.S_ISLNK(info.st_mode):
        return f"{name} (link)"
    if stat.S_ISDIR(info.st_mode):
        return f"{name}/"
    if not stat.S_ISREG(info.st_mode):
        return f"{name} (not a regular file)"
    return f"{name} ({_human_size(info.st_size)})"


@tool("file", words=("edit", "change", "write", "update", "create", "fix"), changes_state=True)
def edit_file(context: ToolContext, path: str, old_text: str, new_text: str) -> str:
    """Replace one exact piece of text in a workspace file, or create a new file.

    Args:
        path: The file's path, relative to the workspace folder.
        old_text: The exact text to replace; it must occur exactly once. Leave empty to create a new file.
        new_text: The text to put in its place (the whole content for a new file).
    """
    target = resolve_in_workspace(context, path)
    if not old_text:
        return _create_file(context, target, new_text, path)
    original, info, name = _read_text(context, path, MAX_EDIT_BYTES + 1)
    if info.st_size > MAX_EDIT_BYTES:
        raise ValueError(f"'{path}' is {_human_size(info.st_size)}; only files up to 1 MB can be edited")
    text, valid_utf8 = _decode(original)
    if not valid_utf8:
        raise ValueError(f"'{path}' is not valid UTF-8 text and cannot be edited safely")
    count = text.count(old_text)
    if count == 0:
        raise LookupError(f"old_text was not found in '{path}'; read the file and copy the text exactly")
    if count > 1:
        raise LookupError(f"old_text occurs {count} times in '{path}'; include more surrounding text so it is unique")
    updated = text.replace(old_text, new_text, 1)
    return _approver(context).submit(context, name, original, updated.encode("utf-8"))


def _approver(context: ToolContext) -> FileEditHandler:
    if context.edits is None:
        raise PermissionError("file edits need the user's approval, and nobody here can give it; nothing was changed")
    return context.edits


def _create_file(context: ToolContext, target: Path, content: str, path: str) -> str:
    try:
        _, info = _entry(context, path)
    except FileNotFoundError:  # a folder on the way is missing: it is made when the edit is applied
        info = None
    if info is not None and (not stat.S_ISREG(info.st_mode) or info.st_size > 0):
        raise FileExistsError(f"'{path}' already exists; give old_text to change part of it")
    name = relative_name(context, target)
    return _approver(context).submit(context, name, b"" if info is not None else None, content.encode("utf-8"))


def unified_diff(before: str, after: str, name: str, context_lines: int = 2) -> str:
    """A unified diff of one file's change, as text."""
    diff = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{name}",
        tofile=f"b/{name}",
        n=context_lines,
    )
    return "".join(diff)
