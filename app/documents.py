"""The workspace folder's documents: indexed in the background, searched by words and by meaning.

`DocumentLibrary.refresh` starts one indexing thread: it walks the folder (links are not
followed), reads new and changed files in the reader worker (bounded time and memory),
drops deleted ones and then embeds new passages with `EMBED_MODEL`. A turn never waits
for it. `search` (the `search_documents` tool's back end) fuses the full-text ranking
(FTS5, BM25) and the embedding ranking by reciprocal rank; with no embedding model it
searches by words alone and says so once.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.document_saver import DocumentSaver
from app.leases import held
from app.ports import DocumentRecords
from domain.records import DocumentFile, Passage
from engine.embeddings import Embedder, EmbeddingUnavailableError
from store import HistoryError
from tools.atomic_files import write_partial
from tools.documents.readers import DOCUMENT_SUFFIXES, DOCUMENT_TYPES_NAMED
from tools.documents.reading import read_in_worker, snapshot
from tools.registry import ToolContext
from tools.workspace_paths import is_protected_file, remove_file
from tools.workspace_walk import walk_files

logger = logging.getLogger(__name__)
MAX_FILE_BYTES = 200 * 1024**2
CANDIDATES = 50  # from each ranking, before fusion
RRF_K = 60  # the usual constant of reciprocal rank fusion (Cormack et al. 2009)
EMBED_BATCH = 64
IfExists = Literal["ask", "replace", "keep both"]
HISTORY_FILE_NOTE = "the chat history's own file: it is never read"
INDEX_CLAIM = "document index"  # one process indexes the workspace folder at a time


@dataclass
class IndexProgress:
    """What the indexing thread is doing, for the faces: files looked at of those found, the one being read."""

    running: bool = False
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
        self._told_words_only = False
        self._lock = threading.Lock()
        self._again = False
        self._thread: threading.Thread | None = None
        self._vectors: tuple[int, Any, list[int]] | None = None  # (index version, matrix, passage ids)
        self._version = 0

    # Indexing -------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the index up to date in the background (a second call while it runs means: once more after)."""
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                self._again = True
                return
            self.progress = IndexProgress(running=True)
            self._thread = threading.Thread(target=self._run, name="document-index", daemon=True)
            self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for indexing to finish; False if it is still running after `timeout` seconds."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return not (thread is not None and thread.is_alive())

    def files(self) -> list[DocumentFile]:
        return self._store.document_files()

    def save_upload(self, name: str, data: bytes, if_exists: IfExists = "ask") -> str:
        """Put an uploaded file in the workspace folder and index it; the name it was saved under.

        When a file (or a link) of that name is there already: "ask" raises FileExistsError and writes
        nothing, "replace" puts the upload in its place (a link itself, never what it points to), and
        "keep both" saves the upload as "spec (2).pdf", the first name free.
        """
        base = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
        if not base or base.startswith(".") or "\x00" in base or Path(base).suffix.lower() not in DOCUMENT_SUFFIXES:
            raise ValueError(f"{name!r} cannot be added: give a {DOCUMENT_TYPES_NAMED} file")
        if len(data) > MAX_FILE_BYTES:
            raise ValueError(f"{base} is larger than {MAX_FILE_BYTES // 1024**2} MB")
        if self._store.owns(self.root / base):
            raise ValueError(f"{base} is the chat history's own file; rename the document and add it again")
        self.root.mkdir(parents=True, exist_ok=True)
        partial = self.root / write_partial(self.root / base, data)
        try:
            saved = self._put_in_place(partial, base, if_exists)
        finally:
            partial.unlink(missing_ok=True)
        self.refresh()
        return saved

    def _put_in_place(self, partial: Path, base: str, if_exists: IfExists) -> str:
        """Give the written file its name: a link never replaces what is there, so nothing is lost unasked."""
        if if_exists == "replace":
            os.replace(partial, self.root / base)  # replaces a link of that name, never what it points to
            return base
        stem, suffix = Path(base).stem, Path(base).suffix
        candidates = [base] + [f"{stem} ({number}){suffix}" for number in range(2, 1000)]
        for candidate in candidates if if_exists == "keep both" else [base]:
            try:
                os.link(partial, self.root / candidate, follow_symlinks=False)
                return candidate
            except FileExistsError:
                continue
        raise FileExistsError(f"{base} is already in the workspace folder")

    def remove(self, relative: str) -> None:
        """Delete a listed document from the workspace folder and drop it from the index (a file already gone
        is only dropped). The folders on the way are walked from the root without following links, and a
        document that is a link is removed itself, never what it points to."""
        if relative not in {file.path for file in self.files()}:
            raise LookupError(f"{relative} is not among the workspace folder's documents.")
        if self._store.owns(self.root / relative):
            raise PermissionError(f"{relative} is the chat history's own file; it is never removed from here.")
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
            self.progress.errors.append(f"Indexing stopped: {error}")
            self.progress.running = False
        except Exception as error:  # noqa: BLE001 - the thread must end cleanly and say what happened
            logger.exception("indexing the workspace folder failed")
            self.progress.errors.append(f"Indexing stopped: {error}")
            self.progress.running = False

    def _index_loop(self) -> None:
        while True:
            self._index_folder()
            self._embed_new_passages()
            with self._lock:
                if not self._again:
                    self.progress.running = False
                    return
                self._again = False

    def _index_folder(self) -> None:
        found = dict(self._walk())
        known = {file.path: file for file in self._store.document_files()}
        self.progress.total, self.progress.done = len(found), 0
        gone = [path for path in known if path not in found]
        if gone:
            self._store.drop_documents(gone)
            self._changed()
        with DocumentSaver(self._save) as self._saver:  # stores each file while the worker reads the next
            for relative, (absolute, info) in sorted(found.items()):
                self.progress.current = relative
                self._index_file(relative, absolute, info, known.get(relative))
                self.progress.done += 1
        self.progress.current = None

    def _walk(self) -> list[tuple[str, tuple[Path, os.stat_result]]]:
        """Documents under the root, as (relative path, (path, its own stat)); walked by descriptor, so no link
        is followed and no name from outside is listed; hidden names and files that vanish meanwhile are skipped."""
        root = self.root.resolve()
        wanted = walk_files(root, lambda name: Path(name).suffix.lower() in DOCUMENT_SUFFIXES)
        return [(relative, (root / relative, info)) for relative, info in wanted]

    def _is_history_file(self, relative: str, info: os.stat_result) -> bool:
        """Whether the entry (its stat read without opening it) is one of the chat history's files, under any name:
        closing a descriptor of one would drop the store's locks."""
        return is_protected_file(self._store.files(), self.root.resolve() / relative, info)

    def _refuse_history_file(self, relative: str) -> Callable[[os.stat_result], None]:
        """The check the reader makes on the very file it is about to open."""

        def refuse(info: os.stat_result) -> None:
            if self._is_history_file(relative, info):
                raise ValueError(HISTORY_FILE_NOTE)

        return refuse

    def _index_file(self, relative: str, path: Path, info: os.stat_result, known: DocumentFile | None) -> None:
        if known is not None and (known.size, known.mtime_ns) == (info.st_size, info.st_mtime_ns):
            return
        record = DocumentFile(path=relative, size=info.st_size, mtime_ns=info.st_mtime_ns, sha256="", status="skipped")
        passages: list[Passage] = []
        if self._is_history_file(relative, info):
            record.note = HISTORY_FILE_NOTE
        elif stat.S_ISLNK(info.st_mode):
            record.note = "a link: links are not followed"
        elif not stat.S_ISREG(info.st_mode):
            record.note = "not a regular file"
        elif info.st_size > MAX_FILE_BYTES:
            record.note = f"larger than {MAX_FILE_BYTES // 1024**2} MB"
        else:
            try:
                with snapshot(self.root.resolve(), relative, self._refuse_history_file(relative)) as copy:
                    record.sha256 = copy.sha256
                    if known is not None and known.sha256 == record.sha256:
                        self._store.touch_document(relative, info.st_size, info.st_mtime_ns)
                        return
                    passages = self._read(relative, copy.path, record)
                    now = copy.original_stat()
                    if (now.st_size, now.st_mtime_ns) != (info.st_size, info.st_mtime_ns):
                        record.mtime_ns = 0  # so that the next refresh reads it again
                        record.note = f"{record.note}; it changed while being read and is read again next time"
            except (OSError, ValueError) as why:  # swapped for a link or a FIFO since the walk, or unreadable
                record.note = str(why) if isinstance(why, ValueError) else f"could not be opened ({why})"
                record.mtime_ns = 0  # tried again at the next refresh
        self._saver.put(record, passages)

    def _save(self, record: DocumentFile, passages: list[Passage]) -> None:
        self._store.save_document(record, passages)
        self._changed()

    def _read(self, relative: str, path: Path, record: DocumentFile) -> list[Passage]:
        try:
            pieces, note = read_in_worker(path)
        except ValueError as why:
            record.note = str(why)
            return []
        record.status, record.note = "indexed", note
        return [Passage(path=relative, page=page, location=location, text=text) for page, location, text in pieces]

    def _embed_new_passages(self) -> None:
        if self.embedder is None:
            return
        try:
            while batch := self._store.passages_to_embed(self.embedder.model, EMBED_BATCH):
                vectors = self.embedder.embed([text for _, text in batch])
                self._store.save_embeddings(self.embedder.model, zip([i for i, _ in batch], vectors, strict=True))
                self.progress.embedded += len(batch)
                self._changed()
            self.embedding_problem = None
        except EmbeddingUnavailableError as why:
            self.embedding_problem = str(why)

    def _changed(self) -> None:
        self._version += 1

    # Search ---------------------------------------------------------------------

    def search(self, query: str, top_k: int) -> dict[str, Any]:
        """The best passages for `query`: {"passages": [{file, page?, location, text, score}, …]} (+ "note")."""
        lexical = [p.passage_id for p, _ in self._store.search_passages(query, CANDIDATES)]
        semantic = self._nearest(query)
        fused: dict[int, float] = {}
        for ranking in (lexical, semantic or []):
            for rank, passage_id in enumerate(ranking, 1):
                fused[passage_id] = fused.get(passage_id, 0.0) + 1.0 / (RRF_K + rank)
        best = sorted(fused, key=lambda i: -fused[i])[:top_k]
        found = self._store.passages_by_id(best)
        result: dict[str, Any] = {"passages": [_shown(found[i], fused[i]) for i in best if i in found]}
        note = self._note(semantic is None, found=bool(result["passages"]))
        if note:
            result["note"] = note
        return result

    def _note(self, words_only: bool, found: bool) -> str:
        notes = []
        if words_only and not self._told_words_only:
            self._told_words_only = True
            notes.append(f"Searched by words only ({self.embedding_problem}); paraphrased questions may miss.")
        if self.progress.running:
            notes.append(
                f"The documents are still being indexed ({self.progress.done} of {self.progress.total} files)."
            )
        if not found and not self._store.document_files():  # only an empty answer asks whether anything is indexed
            notes.append(f"No documents are indexed: put {DOCUMENT_TYPES_NAMED} files in the workspace folder.")
        return " ".join(notes)

    def _nearest(self, query: str) -> list[int] | None:
        """Passage ids by cosine similarity to the query's embedding; None when there are no embeddings."""
        if self.embedder is None or self.embedding_problem is not None:
            return None
        try:
            (blob,) = self.embedder.embed([query])
        except EmbeddingUnavailableError as why:
            self.embedding_problem = str(why)
            return None
        import numpy as np

        matrix, ids = self._matrix()
        if not ids:
            return None
        vector = np.frombuffer(blob, dtype=np.float32)
        if matrix.shape[1] != vector.shape[0]:
            return None
        scores = matrix @ (vector / (np.linalg.norm(vector) or 1.0))
        order = np.argsort(-scores)[:CANDIDATES]
        return [ids[i] for i in order]

    def _matrix(self) -> tuple[Any, list[int]]:
        """Every passage's unit embedding as one float32 matrix, rebuilt only after the index changes."""
        import numpy as np

        assert self.embedder is not None
        cached = self._vectors
        if cached is None or cached[0] != self._version:
            rows = self._store.embeddings(self.embedder.model)
            ids = [passage_id for passage_id, _ in rows]
            matrix = np.array([np.frombuffer(blob, dtype=np.float32) for _, blob in rows], dtype=np.float32)
            if len(ids):
                matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
            cached = self._vectors = (self._version, matrix, ids)
        return cached[1], cached[2]


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
