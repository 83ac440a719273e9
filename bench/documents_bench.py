"""The document index: which PDF library reads better and faster, how fast a folder is indexed, and how
long a search takes over 10,000 passages (words only, and words with embeddings)."""

from __future__ import annotations

import random
import re
import shutil
import sqlite3
import statistics
import tempfile
import time
from array import array
from pathlib import Path

from app.documents.library import DocumentLibrary
from bench.harness import Result, single, summarise, timed_ms
from domain.records import DocumentFile, Passage
from engine.embeddings import Embedder
from fakes.documents import DESIGN_BASIS, ROOF_ROWS, write_docx, write_glyph_pdf, write_pdf, write_xlsx
from fakes.ollama import FakeOllama
from history import ChatHistoryDB
from store.sqlite_dialect import match_expression
from store.words import query_words

WORDS = "beam column slab footing rebar splice anchor bolt weld plate girder joist deck shear moment".split()
DIMENSIONS = 768  # nomic-embed-text's
GLYPH_PAGES = 20


def manual_pages(count: int) -> list[str]:
    """Pages of plain engineering prose with a distinct code word on each (`clause-17-b`), to check text quality."""
    rng = random.Random(7)
    return [
        f"Clause {n}.{n % 9} clause-{n}-b: " + " ".join(rng.choice(WORDS) for _ in range(90)) + f" end-{n}."
        for n in range(1, count + 1)
    ]


def pdfium_pages(path: Path) -> list[str]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path)
    try:
        return [pdf[i].get_textpage().get_text_bounded() for i in range(len(pdf))]
    finally:
        pdf.close()


def pypdf_pages(path: Path) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() or "" for page in PdfReader(path).pages]


def quality(pages: list[str], expected: list[str]) -> float:
    """Share of each page's words read back whole, in the right page (1.0: every word)."""
    found = total = 0
    for text, truth in zip(pages, expected, strict=True):
        words = set(re.findall(r"[\w.-]+", text))
        wanted = re.findall(r"[\w.-]+", truth)
        found += sum(word in words for word in wanted)
        total += len(wanted)
    return found / total


def pdf_libraries(folder: Path, pages: int, runs: int) -> list[Result]:
    expected = manual_pages(pages)
    path, glyphs = folder / "manual.pdf", folder / "drawing-notes.pdf"
    write_pdf(path, expected)
    write_glyph_pdf(glyphs, expected[:GLYPH_PAGES])
    results = []
    for name, reader in (("pypdfium2", pdfium_pages), ("pypdf", pypdf_pages)):
        times = timed_ms(lambda reader=reader: reader(path), runs, warmup=1)  # type: ignore[misc]
        per_second = [pages / (t / 1000) for t in times]
        label = f"PDF text, {name}"
        results.append(summarise(f"{label}: pages per second ({pages} pages)", per_second, "pages/s", "—", None))
        share = quality(reader(path), expected) * 100
        results.append(single(f"{label}: words read back whole", share, "%", "—", None))
        share = quality(reader(glyphs), expected[:GLYPH_PAGES]) * 100
        results.append(single(f"{label}: words read back whole, text placed glyph by glyph", share, "%", "—", None))
    return results


def indexing(folder: Path, pages: int) -> Result:
    root = folder / "project"
    root.mkdir()
    write_pdf(root / "manual.pdf", manual_pages(pages))
    write_docx(root / "basis.docx", DESIGN_BASIS)
    write_xlsx(root / "loads.xlsx", {"Roof loads": ROOF_ROWS})
    library = DocumentLibrary(ChatHistoryDB(folder / "index.sqlite"), root, None)
    started = time.perf_counter()
    library.refresh()
    library.wait()
    elapsed = time.perf_counter() - started
    return single(
        f"indexing a folder: {pages}-page PDF, a memo, a sheet (worker start included)",
        pages / elapsed,
        "pages/s",
        "—",
        None,
    )


def against_raw_pdfium(folder: Path, files: int, pages: int, runs: int) -> list[Result]:
    """A folder of `files` PDFs of `pages` pages indexed, against pypdfium2 reading the same pages in this process."""
    root = folder / "many"
    root.mkdir()
    write_pdf(root / "manual-0.pdf", manual_pages(pages))
    for number in range(1, files):
        shutil.copyfile(root / "manual-0.pdf", root / f"manual-{number}.pdf")
    raw, indexed = [], []
    for run in range(runs):  # interleaved, so that the machine's load weighs on both alike
        started = time.perf_counter()
        read = sum(len(pdfium_pages(path)) for path in sorted(root.glob("*.pdf")))
        raw.append(time.perf_counter() - started)
        library = DocumentLibrary(ChatHistoryDB(folder / f"many-{run}.sqlite"), root, None)
        started = time.perf_counter()
        library.refresh()
        library.wait()
        indexed.append(time.perf_counter() - started)
        stored = sum(file.passages for file in library.files())
        assert read == files * pages and stored >= read and not library.progress.errors, library.progress.errors
    total = files * pages
    label = f"{total:,} pages ({files} PDFs)"
    return [
        summarise(f"pypdfium2 alone, one process: {label}", raw, "s", "(reference)", None),
        summarise(f"indexing the folder: {label}", indexed, "s", "(reference)", None),
        single(f"indexing: ratio to pypdfium2 alone (medians), {label}",
               statistics.median(indexed) / statistics.median(raw), "×", "(reference)", None),
    ]  # fmt: skip


def filled_store(
    folder: Path, passages: int, model: str, embedded: bool = True, target: str | None = None
) -> ChatHistoryDB:
    """`passages` passages of 120 words (and their embeddings) in a new store: `folder`'s big.sqlite, or `target`."""
    store = ChatHistoryDB(target or folder / "big.sqlite")
    rng = random.Random(3)
    per_file = 100
    for f in range(passages // per_file):
        rows = [
            Passage(path=f"doc{f}.pdf", page=p + 1, location=f"page {p + 1}",
                    text=f"Item {f}-{p}: " + " ".join(rng.choice(WORDS) for _ in range(120)))
            for p in range(per_file)
        ]  # fmt: skip
        store.save_document(DocumentFile(path=f"doc{f}.pdf", size=1, mtime_ns=1, sha256="x", status="indexed"), rows)
    if embedded:
        vectors = [(i, array("f", [rng.random() for _ in range(DIMENSIONS)]).tobytes()) for i in range(1, passages + 1)]
        store.save_embeddings(model, vectors)
    return store


def searching_only(library: DocumentLibrary) -> DocumentLibrary:
    """A library over a store filled here, not from its folder: a first search must not index the folder (which
    would drop the filled passages), so it is taken as indexed already."""
    library._refreshed = True  # noqa: SLF001 - the store was filled by hand, not by indexing
    return library


def search_latency(folder: Path, passages: int, runs: int) -> list[Result]:
    with FakeOllama(models=["nomic-embed-text"]) as fake:
        fake.embed_dimensions = DIMENSIONS
        store = filled_store(folder, passages, "nomic-embed-text")
        hybrid = searching_only(DocumentLibrary(store, folder, Embedder(fake.url, "nomic-embed-text")))
        words = searching_only(DocumentLibrary(store, folder, None))
        questions = iter(f"{rng_words(i)} splice" for i in range(10 * runs))
        both = timed_ms(lambda: hybrid.search(next(questions), 5), runs, warmup=2)
        lexical = timed_ms(lambda: words.search(next(questions), 5), runs, warmup=2)
    return [
        summarise(f"search_documents, {passages:,} passages, words + embeddings", both, "ms", "≤ 50 ms", 50),
        summarise(f"search_documents, {passages:,} passages, words only", lexical, "ms", "≤ 50 ms", 50),
    ]


def rng_words(seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(3))


def at_scale(folder: Path, passages: int, runs: int) -> list[Result]:
    """Words-only search over `passages` passages: every word common (BM25's worst case), or one rarer word
    among them (`Item 512-…` marks each passage of document 512), and how much of each top 5 is as good as
    what ranking every match by BM25 gives."""
    store = filled_store(folder / "scale", passages, "nomic-embed-text", embedded=False)
    words = searching_only(DocumentLibrary(store, folder, None))
    documents = passages // 100
    kinds = {
        "every word common": [f"{rng_words(i)} splice" for i in range(runs)],
        "one rarer word": [f"{rng_words(i)} {(i * 37) % documents}" for i in range(runs)],
    }
    results = []
    for kind, questions in kinds.items():
        asked = iter(questions)
        samples = timed_ms(lambda asked=asked: words.search(next(asked), 5), runs, warmup=0)  # type: ignore[misc]
        same = [_as_good_as_every_match(store, question) for question in questions]
        name = f"search_documents, {passages:,} passages, words only, {kind}"
        results += [
            summarise(name, samples, "ms", "≤ 50 ms", 50),
            single(f"{name}: top 5 as good as BM25 over every match", statistics.mean(same) * 100, "%", "—", None),
        ]
    store.close()
    return results


TIE = 1e-5  # what BM25 gives the common words at most: FTS5 weighs a word in over half the passages 1e-6


def _as_good_as_every_match(store: ChatHistoryDB, question: str) -> float:
    """The share of the top 5 that are as good as the top 5 of BM25 over every match (the first version's query),
    to within the weight of the common words left out: scored by that query, each at least its fifth best."""
    found = [p.passage_id for p, _ in store.search_passages(question, 5)]
    with sqlite3.connect(store.files()[0]) as raw:
        every: dict[int, float] = dict(
            raw.execute(
                """SELECT rowid, -bm25(passage_search, 1.0, 0.5) AS score FROM passage_search
                   WHERE passage_search MATCH ? ORDER BY score DESC LIMIT 2000""",
                (match_expression(query_words(question)),),
            ).fetchall()
        )
    fifth = sorted(every.values(), reverse=True)[min(4, len(every) - 1)]
    return sum(every.get(passage, -1.0) >= fifth - TIE for passage in found) / 5.0


def run(quick: bool) -> list[Result]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        results = pdf_libraries(folder, 50 if quick else 300, 2 if quick else 5)
        results.append(indexing(folder, 50 if quick else 300))
        results += against_raw_pdfium(folder, *((2, 50, 1) if quick else (50, 2_000, 3)))
        results += search_latency(folder, 10_000, 10 if quick else 100)
        results += at_scale(folder, 10_000 if quick else 100_000, 10 if quick else 50)
    return results
