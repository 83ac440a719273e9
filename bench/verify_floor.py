"""The floor of `python main.py verify FILE.pdf`: a process that hashes the file and opens the store (SQLite) to
look the hash up among the issued revisions, and nothing else.

    python bench/verify_floor.py FILE.pdf chat_history.sqlite
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from pathlib import Path


def main(pdf: Path, store: Path) -> int:
    digest = hashlib.sha256(pdf.read_bytes()).hexdigest()
    database = sqlite3.connect(store)
    database.execute("PRAGMA user_version").fetchone()
    found = database.execute(
        "SELECT workspace_name, letter FROM package_revisions WHERE sha256 = ? AND status = 'approved'", (digest,)
    ).fetchone()
    database.close()
    print(f"{pdf}: {found}")
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
