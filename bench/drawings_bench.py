"""Drawings and models: a DXF sheet with 100,000 entities read through the reader worker (time, and the worker's
peak memory), an IFC model of 20,000 elements read by the app's STEP reader, and IfcOpenShell (the candidate
not taken) on the same model when it is installed beside the app: its import, its reading, its size on disk."""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.harness import Result, single
from fakes.drawings import ifc_text, write_dxf
from tools.documents import reading
from tools.documents.readers import read_document

FLOORS = 20


def peak_memory_mb(pid: int) -> float:
    """A process's peak resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def large_dxf(folder: Path, entities: int) -> list[Result]:
    path = folder / "site-plan.dxf"
    write_dxf(path, extra_entities=entities)
    reading.reader.stop()  # a fresh worker, so that its peak memory is this drawing's
    warm = folder / "warm.md"
    warm.write_text("# Warm\nup")
    reading.read_in_worker(warm)  # started, so that the time below is the drawing's alone
    started = time.perf_counter()
    found = reading.read_in_worker(path)
    took = time.perf_counter() - started
    process: Any = reading.reader._process  # noqa: SLF001 - the worker's pid, to read its peak memory
    memory = peak_memory_mb(process.pid) if process is not None else 0.0
    assert found.passages, found
    size = path.stat().st_size / 1024**2
    return [
        single(
            f"DXF, {entities:,} entities ({size:.0f} MB): read in the reader worker", took, "s", "≤ 60 s", took <= 60
        ),
        single(f"DXF, {entities:,} entities: the worker's peak memory", memory, "MB", "≤ 1,024 MB", memory <= 1024),
    ]


def model(elements: int) -> str:
    """An IFC4 model of `elements` beams and columns on FLOORS storeys."""
    rows = [
        (
            "IFCBEAM" if n % 4 else "IFCCOLUMN",
            f"M-{n}",
            "W18X50" if n % 4 else "W14X90",
            f"Level {n % FLOORS + 1}",
            "S355",
        )
        for n in range(elements)
    ]
    return ifc_text(rows)


def with_geometry(text: str, points: int) -> str:
    """The model with `points` geometry records, which a real model is mostly made of and the reader only scans."""
    geometry = "".join(f"#{9_000_000 + n}=IFCCARTESIANPOINT(({n}.,{n % 97}.,0.));\n" for n in range(points))
    return text.replace("ENDSEC;\nEND-ISO", geometry + "ENDSEC;\nEND-ISO")


def large_ifc(folder: Path, elements: int) -> list[Result]:
    """The app's STEP reader on a model of `elements` elements alone (every record one it parses: its worst case),
    then with twenty geometry records an element; the first file is kept for IfcOpenShell."""
    results = []
    for name, points in (("frame.ifc", 0), ("frame-geometry.ifc", 20 * elements)):
        path = folder / name
        path.write_text(with_geometry(model(elements), points), encoding="ascii")
        started = time.perf_counter()
        found = read_document(path)
        took = time.perf_counter() - started
        assert f"{elements:,} structural elements" in found.note, found.note
        size = path.stat().st_size / 1024**2
        what = f"{elements:,} elements" + (f" and {points:,} geometry records" if points else "")
        results.append(single(f"IFC, {what} ({size:.0f} MB): read by the app's STEP reader", took, "s", "—", None))
    return results


def ifcopenshell(folder: Path) -> list[Result]:
    """IfcOpenShell's import in a fresh interpreter, its reading of the same model, and its size installed."""
    try:
        module: Any = importlib.import_module("ifcopenshell")
    except ImportError:
        return []
    code = "import time; t = time.perf_counter(); import ifcopenshell; print(time.perf_counter() - t)"
    imported = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    started = time.perf_counter()
    opened = module.open(str(folder / "frame.ifc"))
    beams = len(opened.by_type("IfcBeam")) + len(opened.by_type("IfcColumn"))
    took = time.perf_counter() - started
    installed = sum(f.stat().st_size for f in Path(module.__file__).parent.rglob("*") if f.is_file()) / 1024**2
    return [
        single("IfcOpenShell 0.9 (not used): import, in a fresh interpreter", imported, "s", "—", None),
        single(f"IfcOpenShell: open the same model and list its {beams:,} elements", took, "s", "—", None),
        single("IfcOpenShell: its package on disk (dependencies not counted)", installed, "MB", "—", None),
    ]


def run(quick: bool) -> list[Result]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        results = large_dxf(folder, 10_000 if quick else 100_000)
        results += large_ifc(folder, 2_000 if quick else 20_000)
        results += ifcopenshell(folder)
    return results
