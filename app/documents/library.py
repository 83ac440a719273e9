"""The workspace folder's documents: indexed in the background, searched by words and by meaning.

`DocumentLibrary.refresh` starts one indexing thread: it walks the folder (links are not
followed), reads new and changed files in the reader worker (bounded time and memory),
drops deleted ones and then embeds new passages with `EMBED_MODEL`. A turn does not wait
for it, but a search does: while files are being read, `search` (the `search_documents`
tool's back end) waits for them, at most INDEX_WAIT_SECONDS, then answers from what is
indexed and says how much is missing (`index_wait` words the wait for the faces meanwhile).
It fuses the full-text ranking (FTS5, BM25) and the embedding ranking by reciprocal rank;
with no embeddings it searches by words alone and says why, once for each reason.

`follow` keeps the index current while the app runs (`app.documents.watch`: a change is
read about half a second after it); scanned PDF pages are read by OCR once the folder's
text is in (`app.documents.scans`), and the embeddings and the OCR give way whenever files
wait to be read; `page_image` draws a cited PDF page with its passage marked.
"""

from __future__ import annotations

import logging
import os
import threading
import weakref
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.documents.ranking import CANDIDATES, EmbeddingMatrix, fuse
from app.leases import held
from app.ports import DocumentRecords
from domain.records import DocumentFile, Passage
from engine.embeddings import Embedder, EmbeddingUnavailableError
from store import HistoryError
from tools.documents.readers import DOCUMENT_SUFFIXES, DOCUMENT_TYPES_NAMED
from tools.registry import ToolContext

if TYPE_CHECKING:  # what reads, draws, takes in and follows documents is loaded when first used
    from app.documents.file_reading import FileReader
    from app.documents.pages import PageImage, PageViews
    from app.documents.scans import ScanReader
    from app.documents.uploads import IfExists

logger = logging.getLogger(__name__)
EMBED_BATCH = 64
INDEX_WAIT_SECONDS = 30.0  # how long a search waits for the files being read
INDEX_CLAIM = "document index"  # one process indexes the workspace folder at a time


@dataclass
class IndexProgress:
    """What the indexing thread is doing, for the faces: files looked at of those found, the one being read."""

    running: bool = False
    reading: bool = False  # files are being read (the embeddings follow); a search waits while this lasts
    done: int = 0
    total: int = 0
    current: str | None = None
    embedded: int = 0
    errors: list[str] = field(default_factory=list)


class DocumentLibrary:
    """The document index of one workspace folder."""

    def __init__(self, store: DocumentRecords, root: Path, embedder: Embedder | None) -> None:
        self._store = store
        self.root = root
        self.embedder = embedder
        self.progress = IndexProgress()
        self.embedding_problem: str | None = None if embedder else "no EMBED_MODEL is set"
        self._told: set[str] = set()  # why the search was by words only, each reason said once
        self._lock = threading.Lock()
        self._again = False
        self._active = False  # an indexing run is under way (decided under the lock, unlike the thread's life)
        self._refreshed = False
        self._files_read = threading.Event()  # set while no file is waiting to be read
        self._files_read.set()
        self._searches_waiting = 0
        self._following = False
        self._thread: threading.Thread | None = None
        self._embeddings = EmbeddingMatrix(store, embedder.model if embedder else "")

    @cached_property
    def _scans(self) -> ScanReader:
        from app.documents.scans import ScanReader

        return ScanReader(self._save)

    @cached_property
    def _reader(self) -> FileReader:
        from app.documents.file_reading import FileReader

        return FileReader(self._store, self.root, self._scans)

    @cached_property
    def _pages(self) -> PageViews:
        from app.documents.pages import PageViews

        return PageViews(self.root)

    # Indexing -------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the index up to date in the background (a second call while it runs means: once more after)."""
        with self._lock:
            self._refreshed = True
            self._files_read.clear()
            if self._active:
                self._again = True
                return
            self._active = True
            self.progress = IndexProgress(running=True, reading=True)
            self._thread = threading.Thread(target=self._run, name="document-index", daemon=True)
            self._thread.start()

    def follow(self) -> None:
        """Keep the index current from now on: read what changed since the last run, then follow the folder (one
        watch per folder in the process, `app.documents.watch`), reading what changes soon after, until `close`."""
        from app.documents.watch import watches

        if not self._following:
            self._following = True
            watches.follow(self.root, self.refresh)
            weakref.finalize(self, watches.unfollow, self.root)
        self.refresh()

    def following(self) -> str | None:
        """How the folder's changes are learnt, for the faces: None when it is not followed."""
        if not self._following:
            return None
        from app.documents.watch import watches

        folder = watches.watching(self.root)
        if folder is None:
            return None
        if folder.how == "events":
            return "changes are read as they happen"
        return f"changes are looked for every {max(2, round(folder.walk_interval()))} s: {folder.why_polling}"

    def close(self) -> None:
        """Stop following the folder (an indexing run under way ends on its own)."""
        if self._following:
            from app.documents.watch import watches

            self._following = False
            watches.unfollow(self.root, self.refresh)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for indexing to finish; False if it is still running after `timeout` seconds."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return not (thread is not None and thread.is_alive())

    def files(self) -> list[DocumentFile]:
        return self._store.document_files()

    def page_image(self, relative: str, page: int, mark: str = "") -> PageImage:
        """Page `page` (from 1) of the indexed PDF `relative`, drawn with the passage `mark` marked on it, to check
        a citation against the page; LookupError or ValueError say why it cannot be shown."""
        known = next((file for file in self.files() if file.path == relative), None)
        if known is None:
            raise LookupError(f"{relative} is not among the workspace folder's documents.")
        if not relative.lower().endswith(".pdf"):
            raise ValueError(f"{relative} is not a PDF: only a PDF's pages can be shown.")
        return self._pages.image(known, page, mark, self._reader.refuse_history_file(relative))

    def save_upload(self, name: str, data: bytes, if_exists: IfExists = "ask") -> str:
        """Put an uploaded file in the workspace folder and index it; the name it was saved under.

        When a file (or a link) of that name is there already: "ask" raises FileExistsError and writes
        nothing, "replace" puts the upload in its place (a link itself, never what it points to), and
        "keep both" saves the upload as "spec (2).pdf", the first name free.
        """
        from app.documents.uploads import write_upload

        saved = write_upload(self.root, self._store, name, data, if_exists)
        self.refresh()
        return saved

    def remove(self, relative: str) -> None:
        """Delete a listed document from the workspace folder and drop it from the index (a file already gone
        is only dropped). The folders on the way are walked from the root without following links, and a
        document that is a link is removed itself, never what it points to."""
        if relative not in {file.path for file in self.files()}:
            raise LookupError(f"{relative} is not among the workspace folder's documents.")
        if self._store.owns(self.root / relative):
            raise PermissionError(f"{relative} is the chat history's own file; it is never removed from here.")
        from tools.workspace_paths import remove_file

        root = self.root.resolve()
        try:
            remove_file(ToolContext(workspace_root=root), root / relative, relative)
        except FileNotFoundError:
            pass
        self._store.drop_documents([relative])
        self._changed()

    def _run(self) -> None:
        try:
            # one indexing run per folder in this process (several tabs), and in every process on the store
            with _folder_lock(self.root), held(self._store, INDEX_CLAIM):
                self._index_loop()
        except HistoryError as error:  # the store's own sentence (its disk is full, it was closed at exit): no bug
            logger.info("indexing the workspace folder stopped: %s", error)
            self._stopped(error)
        except Exception as error:  # noqa: BLE001 - the thread must end cleanly and say what happened
            logger.exception("indexing the workspace folder failed")
            self._stopped(error)

    def _stopped(self, error: Exception) -> None:
        """Indexing ended early: it says why, and searches waiting for the files go on with what is indexed."""
        self.progress.errors.append(f"Indexing stopped: {error}")
        with self._lock:
            self._again = self._active = self.progress.running = self.progress.reading = False
            self._files_read.set()

    def _index_loop(self) -> None:
        while True:
            self._index_folder()
            with self._lock:
                if not self._again:  # every file asked for is read: searches waiting for them go on
                    self.progress.reading = False
                    self._files_read.set()
            self._embed_new_passages()
            if self._scans.jobs:
                self._scans.read(lambda: self._again, self._doing)
                self.progress.current = None
                self._embed_new_passages()
            with self._lock:
                if not self._again:
                    self._active = self.progress.running = False
                    return
                self._again, self.progress.reading = False, True

    def _index_folder(self) -> None:
        found = dict(self._walk())
        known = {file.path: file for file in self._store.document_files()}
        self.progress.total, self.progress.done = len(found), 0
        gone = [path for path in known if path not in found]
        self._scans.drop([path for path in self._scans.jobs if path not in found])
        if gone:
            self._store.drop_documents(gone)
            self._changed()
        from app.documents.saver import DocumentSaver

        with DocumentSaver(self._save) as self._saver:  # stores each file while the worker reads the next
            for relative, (absolute, info) in sorted(found.items()):
                self.progress.current = relative
                if (read := self._reader.read(relative, absolute, info, known.get(relative))) is not None:
                    self._saver.put(*read)
                self.progress.done += 1
        self.progress.current = None

    def _walk(self) -> list[tuple[str, tuple[Path, os.stat_result]]]:
        """Documents under the root, as (relative path, (path, its own stat)); walked by descriptor, so no link
        is followed and no name from outside is listed; hidden names and files that vanish meanwhile are skipped."""
        from tools.workspace_walk import walk_files

        root = self.root.resolve()
        wanted = walk_files(root, lambda name: Path(name).suffix.lower() in DOCUMENT_SUFFIXES)
        return [(relative, (root / relative, info)) for relative, info in wanted]

    def _save(self, record: DocumentFile, passages: list[Passage]) -> None:
        self._store.save_document(record, passages)
        self._changed()

    def _embed_new_passages(self) -> None:
        if self.embedder is None:
            return
        try:
            while not self._again and (batch := self._store.passages_to_embed(self.embedder.model, EMBED_BATCH)):
                vectors = self.embedder.embed([text for _, text in batch])
                self._store.save_embeddings(self.embedder.model, zip([i for i, _ in batch], vectors, strict=True))
                self.progress.embedded += len(batch)
                self._changed()
            self.embedding_problem = None
        except EmbeddingUnavailableError as why:
            self.embedding_problem = str(why)

    def _doing(self, what: str) -> None:
        self.progress.current = what

    def _changed(self) -> None:
        self._embeddings.changed()

    # Search ---------------------------------------------------------------------

    def search(self, query: str, top_k: int) -> dict[str, Any]:
        """The best passages for `query`: {"passages": [{file, page?, location, text, score}, …]} (+ "note").

        While files are being read it waits for them first (at most INDEX_WAIT_SECONDS); a library never
        refreshed is refreshed now, so any program that opens the service finds the folder's documents."""
        if not self._refreshed:
            self.refresh()
        self._wait_for_files()
        lexical = [p.passage_id for p, _ in self._store.search_passages(query, CANDIDATES)]
        semantic, why_not = self._nearest(query)
        fused = fuse(lexical, semantic or [])
        best = sorted(fused, key=lambda i: -fused[i])[:top_k]
        found = self._store.passages_by_id(best)
        result: dict[str, Any] = {"passages": [_shown(found[i], fused[i]) for i in best if i in found]}
        note = self._note(why_not, found=bool(result["passages"]))
        if note:
            result["note"] = note
        return result

    def index_wait(self) -> str | None:
        """While a search waits for the files being read: "indexing 3 of 7 files…", for the faces to show."""
        if not self._searches_waiting or self._files_read.is_set():
            return None
        progress = self.progress
        if not progress.total:
            return "indexing: looking through the workspace folder…"
        return f"indexing {progress.done} of {progress.total} files…"

    def _wait_for_files(self) -> None:
        with self._lock:
            self._searches_waiting += 1
        try:
            self._files_read.wait(INDEX_WAIT_SECONDS)
        finally:
            with self._lock:
                self._searches_waiting -= 1

    def _note(self, why_words_only: str | None, found: bool) -> str:
        notes = []
        if why_words_only is not None and why_words_only not in self._told:
            self._told.add(why_words_only)
            notes.append(f"Searched by words only ({why_words_only}); paraphrased questions may miss.")
        progress = self.progress
        if not self._files_read.is_set():
            missing = progress.total - progress.done
            notes.append(
                f"Indexing is still under way ({progress.done} of {progress.total} files read): these passages come "
                f"from what is indexed so far, and {missing} {'file was' if missing == 1 else 'files were'} "
                "not searched yet; ask again in a moment."
                if progress.total
                else "Indexing has only just started (the workspace folder is being listed); ask again in a moment."
            )
        if pages := self._scans.pages_left():
            notes.append(f"{pages} scanned {'page is' if pages == 1 else 'pages are'} still being read by OCR.")
        if not found and not self._store.document_files():  # only an empty answer asks whether anything is indexed
            notes.append(f"No documents are indexed: put {DOCUMENT_TYPES_NAMED} files in the workspace folder.")
        return " ".join(notes)

    def _nearest(self, query: str) -> tuple[list[int] | None, str | None]:
        """Passage ids by cosine similarity to the query's embedding; else None and why there are none."""
        if self.embedder is None or self.embedding_problem is not None:
            return None, self.embedding_problem or "no EMBED_MODEL is set"
        try:
            (blob,) = self.embedder.embed([query])
        except EmbeddingUnavailableError as why:
            self.embedding_problem = str(why)
            return None, self.embedding_problem
        return self._embeddings.nearest(blob)


_FOLDER_LOCKS: dict[Path, threading.Lock] = {}
_FOLDER_LOCKS_GUARD = threading.Lock()


def _folder_lock(root: Path) -> threading.Lock:
    with _FOLDER_LOCKS_GUARD:
        return _FOLDER_LOCKS.setdefault(root.resolve(), threading.Lock())


def _shown(passage: Passage, score: float) -> dict[str, Any]:
    shown: dict[str, Any] = {"file": passage.path}
    if passage.page is not None:
        shown["page"] = passage.page
    shown.update({"location": passage.location, "text": passage.text, "score": round(score, 5)})
    return shown
