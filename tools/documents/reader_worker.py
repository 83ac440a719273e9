"""The document reader: a separate process that reads one file per request into passages.

Run as `python -m tools.documents.reader_worker`; one JSON request per line, one JSON line back:
`{"path": ...}` reads a file (`{"ok": {"passages": [[page, location, text], ...], "note": ...,
"scanned": [pages without text but with an image], "ocr": whether they can be read by OCR}}`), and
`{"path": ..., "ocr_pages": [...], "seconds": s}` reads those pages of a PDF by OCR, stopping after
the page that passes `s` seconds (`{"ok": {"passages": ..., "done": [...], "problems": [...]}}`);
`{"path": ..., "page": n, "mark": text}` draws page n of a PDF with the passage `text` marked on it
(`{"ok": {"png": base64, "marked": ...}}`); or `{"error": why}`. A PDF bomb or a vast spreadsheet
cannot take the application with it: on Linux the process (Tesseract included) may use at most 1 GB,
and the parent kills it when a request takes too long (`tools.documents.reading`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tools.documents.ocr import read_pages, tesseract
from tools.documents.pages import render_page
from tools.documents.readers import Reading, UnreadableError, read_document

MEMORY_LIMIT_BYTES = 1024**3


def ocr_location(page: int) -> str:
    """Where an OCR passage is: its page, and that it was read from a scan."""
    return f"page {page}, scanned (read by OCR)"


def answer(request: dict[str, Any]) -> dict[str, object]:
    path = Path(request["path"])
    if "page" in request:
        return render_page(str(path), int(request["page"]), str(request.get("mark", "")))
    if "ocr_pages" in request:
        outcome = read_pages(path, [int(page) for page in request["ocr_pages"]], float(request["seconds"]))
        reading = Reading()
        for page, text in outcome.pages:
            reading.add(page, ocr_location(page), text)
        return {"passages": reading.passages, "done": outcome.done, "problems": outcome.problems}
    found = read_document(path)
    return {"passages": found.passages, "note": found.note, "scanned": found.scanned, "ocr": tesseract() is not None}


def main() -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))
    except (ImportError, ValueError, OSError):  # not Linux, or a lower limit already set
        pass
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        try:
            reply: dict[str, object] = {"ok": answer(json.loads(line))}
        except UnreadableError as error:
            reply = {"error": str(error)}
        except MemoryError:
            reply = {"error": "too large to read within 1 GB of memory"}
        except Exception as error:  # noqa: BLE001 - a damaged file may break a library anywhere
            reply = {"error": f"could not be read ({type(error).__name__}: {str(error)[:200]})"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
