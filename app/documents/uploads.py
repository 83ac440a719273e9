"""Uploads into the workspace folder: written under a hidden name, fsynced, then given their name without
replacing anything unasked (a link of that name is replaced itself, never what it points to)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from app.ports import DocumentRecords
from tools.atomic_files import write_partial
from tools.documents.readers import DOCUMENT_SUFFIXES, DOCUMENT_TYPES_NAMED

MAX_FILE_BYTES = 200 * 1024**2
IfExists = Literal["ask", "replace", "keep both"]


def write_upload(root: Path, store: DocumentRecords, name: str, data: bytes, if_exists: IfExists) -> str:
    """Write `data` into `root` under the base of `name`; the name it was saved under (see `DocumentLibrary`)."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not base or base.startswith(".") or "\x00" in base or Path(base).suffix.lower() not in DOCUMENT_SUFFIXES:
        raise ValueError(f"{name!r} cannot be added: give a {DOCUMENT_TYPES_NAMED} file")
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{base} is larger than {MAX_FILE_BYTES // 1024**2} MB")
    if store.owns(root / base):
        raise ValueError(f"{base} is the chat history's own file; rename the document and add it again")
    root.mkdir(parents=True, exist_ok=True)
    partial = root / write_partial(root / base, data)
    try:
        return _put_in_place(root, partial, base, if_exists)
    finally:
        partial.unlink(missing_ok=True)


def _put_in_place(root: Path, partial: Path, base: str, if_exists: IfExists) -> str:
    """Give the written file its name: a link never replaces what is there, so nothing is lost unasked."""
    if if_exists == "replace":
        os.replace(partial, root / base)  # replaces a link of that name, never what it points to
        return base
    stem, suffix = Path(base).stem, Path(base).suffix
    candidates = [base] + [f"{stem} ({number}){suffix}" for number in range(2, 1000)]
    for candidate in candidates if if_exists == "keep both" else [base]:
        try:
            os.link(partial, root / candidate, follow_symlinks=False)
            return candidate
        except FileExistsError:
            continue
    raise FileExistsError(f"{base} is already in the workspace folder")
