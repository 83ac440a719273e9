"""File tools confined to the workspace folder (`WORKSPACE_ROOT`).

Every path the model gives is resolved (following symlinks) and refused unless
the real path lies inside the real workspace root. Reads are capped, binary
files refused, and edits written atomically (temporary file + `os.replace`).
"""

from __future__ import annotations

import difflib
import os
import stat
import tempfile
from pathlib import Path

from tools.registry import ToolContext

MAX_READ_BYTES = 256 * 1024
MAX_READ_CHARS = 7_000
MAX_EDIT_BYTES = 1024 * 1024
MAX_LISTED_ENTRIES = 300
_BINARY_SNIFF_BYTES = 8192


def workspace_root(context: ToolContext) -> Path:
    """The real path of the workspace folder, created if missing."""
    root = context.workspace_root.expanduser()
    root.mkdir(parents=True, exist_ok=True)
    return root.resolve()


def resolve_in_workspace(context: ToolContext, path: str) -> Path:
    """Resolve `path` against the workspace root; refuse anything that leads outside it."""
    if "\x00" in path:
        raise ValueError("the path contains a NUL character")
    root = workspace_root(context)
    requested = Path(path.strip() or ".").expanduser()
    candidate = requested if requested.is_absolute() else root / requested
    resolved = candidate.resolve()
    if resolved != root and not resolved.is_relative_to(root):
        raise PermissionError(f"'{path}' is outside the workspace folder; only paths inside {root.name}/ can be used")
    return resolved


def _relative(context: ToolContext, path: Path) -> str:
    relative = path.relative_to(workspace_root(context)).as_posix()
    return relative if relative != "." else "."


def _human_size(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:,.0f} {unit}" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{size} bytes"


def _read_prefix(path: Path, limit: int) -> bytes:
    with path.open("rb") as handle:
        return handle.read(limit)


def _decode(data: bytes) -> tuple[str, bool]:
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError as error:
        if error.start >= len(data) - 3:  # a multi-byte character cut by the read cap
            return data[: error.start].decode("utf-8"), True
        return data.decode("utf-8", errors="replace"), False


def _require_regular_file(path: Path, shown: str) -> os.stat_result:
    if not path.exists():
        raise FileNotFoundError(f"'{shown}' does not exist")
    info = path.stat()
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(f"'{shown}' is a folder; use list_files to see what it holds")
    if not stat.S_ISREG(info.st_mode):
        raise PermissionError(f"'{shown}' is not a regular file")
    return info


def read_file(context: ToolContext, path: str, start_line: int = 1) -> str:
    """Read a text file from the workspace folder.

    Args:
        path: The file's path, relative to the workspace folder.
        start_line: The first line to show (1 for the start); use it to page through long files.
    """
    target = resolve_in_workspace(context, path)
    info = _require_regular_file(target, path)
    data = _read_prefix(target, MAX_READ_BYTES)
    if b"\x00" in data[:_BINARY_SNIFF_BYTES]:
        raise ValueError(f"'{path}' is a binary file ({_human_size(info.st_size)}); only text files can be read")
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
    header = f"{_relative(context, target)} ({_human_size(info.st_size)})"
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


def list_files(context: ToolContext, path: str = ".") -> str:
    """List a folder in the workspace (or describe one file).

    Args:
        path: The folder's path relative to the workspace folder; "." for the workspace itself.
    """
    target = resolve_in_workspace(context, path)
    if not target.exists():
        raise FileNotFoundError(f"'{path}' does not exist")
    shown = _relative(context, target)
    if not target.is_dir():
        return f"{shown} (file, {_human_size(target.stat().st_size)})"
    entries = sorted(target.iterdir(), key=lambda entry: (not entry.is_dir(), entry.name.lower()))
    lines = [_describe_entry(entry) for entry in entries[:MAX_LISTED_ENTRIES]]
    if len(entries) > MAX_LISTED_ENTRIES:
        lines.append(f"[{len(entries) - MAX_LISTED_ENTRIES} more entries not shown]")
    return f"{shown}/ ({len(entries)} entries)\n" + ("\n".join(lines) if lines else "(empty)")


def _describe_entry(entry: Path) -> str:
    try:
        if entry.is_symlink():
            return f"{entry.name} (link)"
        if entry.is_dir():
            return f"{entry.name}/"
        return f"{entry.name} ({_human_size(entry.stat().st_size)})"
    except OSError:
        return f"{entry.name} (unreadable)"


def edit_file(context: ToolContext, path: str, old_text: str, new_text: str) -> str:
    """Replace one exact piece of text in a workspace file, or create a new file.

    Args:
        path: The file's path, relative to the workspace folder.
        old_text: The exact text to replace; it must occur exactly once. Leave empty to create a new file.
        new_text: The text to put in its place (the whole content for a new file).
    """
    target = resolve_in_workspace(context, path)
    if not old_text:
        return _create_file(context, target, path, new_text)
    info = _require_regular_file(target, path)
    if info.st_size > MAX_EDIT_BYTES:
        raise ValueError(
            f"'{path}' is {_human_size(info.st_size)}; files over {_human_size(MAX_EDIT_BYTES)} cannot be edited"
        )
    original = target.read_bytes()
    if b"\x00" in original[:_BINARY_SNIFF_BYTES]:
        raise ValueError(f"'{path}' is a binary file and cannot be edited")
    text, valid_utf8 = _decode(original)
    if not valid_utf8:
        raise ValueError(f"'{path}' is not valid UTF-8 text and cannot be edited safely")
    count = text.count(old_text)
    if count == 0:
        raise LookupError(f"old_text was not found in '{path}'; read the file and copy the text exactly")
    if count > 1:
        raise LookupError(f"old_text occurs {count} times in '{path}'; include more surrounding text so it is unique")
    updated = text.replace(old_text, new_text, 1)
    write_atomically(target, updated.encode("utf-8"))
    return f"Edited {_relative(context, target)}:\n{unified_diff(text, updated, _relative(context, target))}"


def _create_file(context: ToolContext, target: Path, shown: str, content: str) -> str:
    if target.exists() and (target.is_dir() or target.stat().st_size > 0):
        raise FileExistsError(f"'{shown}' already exists; give old_text to change part of it")
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(target, content.encode("utf-8"))
    return f"Created {_relative(context, target)} ({_human_size(len(content.encode('utf-8')))})"


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


def write_atomically(target: Path, data: bytes) -> None:
    """Write `data` to `target` so that a crash leaves either the old or the new file."""
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else 0o644
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


TOOLS = [read_file, list_files, edit_file]
