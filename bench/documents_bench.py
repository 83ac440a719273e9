"""The document index: which PDF library reads better and faster, how fast a folder is indexed, and how
long a search takes over 10,000 passages (words only, and words with embeddings)."""

from __future__ import annotations

import random
import re
import tempfile
import time
from array import array
from pathlib import Path

from app.documents import DocumentLibrary
from bench.harness import Result, single, summarise, timed_ms
from domain.records import DocumentFile, Passage
from engine.embeddings import Embedder
from fakes.documents import DESIGN_BASIS, ROOF_ROWS, write_docx, write_glyph_pdf, write_pdf, write_xlsx
from fakes.ollama import FakeOllama
from history import ChatHistoryDB

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


def filled_store(folder: Path, passages: int, model: str) -> ChatHistoryDB:
    store = ChatHistoryDB(folder / "big.sqlite")
    rng = random.Random(3)
    per_file = 100
    for f in range(passages // per_file):
        rows = [
            Passage(path=f"doc{f}.pdf", page=p + 1, location=f"page {p + 1}",
                    text=f"Item {f}-{p}: " + " ".join(rng.choice(WORDS) for _ in range(120)))
            for p in range(per_file)
        ]  # fmt: skip
        store.save_document(DocumentFile(path=f"doc{f}.pdf", size=1, mtime_ns=1, sha256="x", status="indexed"), rows)
    vectors = [(i, array("f", [rng.random() for _ in range(DIMENSIONS)]).tobytes()) for i in range(1, passages + 1)]
    store.save_embeddings(model, vectors)
    return store


def search_latency(folder: Path, passages: int, runs: int) -> list[Result]:
    with FakeOllama(models=["nomic-embed-text"]) as fake:
        fake.embed_dimensions = DIMENSIONS
        store = filled_store(folder, passages, "nomic-embed-text")
        hybrid = DocumentLibrary(store, folder, Embedder(fake.url, "nomic-embed-text"))
        words = DocumentLibrary(store, folder, None)
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


def run(quick: bool) -> list[Result]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        results = pdf_libraries(folder, 50 if quick else 300, 2 if quick else 5)
        results.append(indexing(folder, 50 if quick else 300))
        results += search_latency(folder, 10_000, 10 if quick else 100)
    return results
