"""The issued revision a file's SHA-256 matches: a plain record (no validation to load), so that
`python main.py verify` answers without the rest of the records."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IssuedMatch:
    """The issued revision a file's SHA-256 matches."""

    chat_id: int
    workspace_name: str
    letter: str
    approved_by: str
    approved_at: str
    sha256: str
