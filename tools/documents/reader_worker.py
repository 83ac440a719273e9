"""The document reader: a separate process that reads one file per request into passages.

Run as `python -m tools.documents.reader_worker`; one JSON request per line
(`{"path": ...}`), one JSON line back (`{"ok": {"passages": [[page, location, text], ...],
"note": ...}}` or `{"error": why}`). A PDF bomb or a vast spreadsheet cannot take the
application with it: on Linux the process may use at most 1 GB, and the parent kills it
when a file takes too long (`tools.documents.reading`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tools.documents.readers import UnreadableError, read_document

MEMORY_LIMIT_BYTES = 1024**3


def main() -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))
    except (ImportError, ValueError, OSError):  # not Linux, or a lower limit already set
        pass
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        try:
            reading = read_document(Path(json.loads(line)["path"]))
            reply: dict[str, object] = {"ok": {"passages": reading.passages, "note": reading.note}}
        except UnreadableError as error:
            reply = {"error": str(error)}
        except MemoryError:
            reply = {"error": "too large to read within 1 GB of memory"}
        except Exception as error:  # noqa: BLE001 - a damaged file may break a library anywhere
            reply = {"error": f"could not be read ({type(error).__name__}: {str(error)[:200]})"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
