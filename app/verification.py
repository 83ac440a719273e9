"""Whether a PDF is exactly an issued revision of a calculation package in this chat history (`python main.py
verify`): its SHA-256 looked up among the revisions frozen when they were approved, run on the server as its owner
(so in every workspace). The chat history is opened for that lookup alone (`store.issued`), and nothing else of the
application is loaded: a command pays only for what it uses."""

from __future__ import annotations

import hashlib
from pathlib import Path

from domain.issued import IssuedMatch


def issued_revision(target: str | Path, data: bytes) -> IssuedMatch | None:
    """The approved revision whose PDF is exactly `data`, in the chat history at `target`, if any; HistoryError
    says in one sentence why the history cannot be read."""
    from store.issued import open_issued

    store = open_issued(target)
    try:
        return store.find_issued(hashlib.sha256(data).hexdigest())
    finally:
        store.close()
