"""Drawings and models in the document index: a DXF sheet's note, title block and dimension override found
with where they are on the sheet, an IFC model's elements found by storey ("which beams are on level 2?"), and
damaged or huge ones bounded, each with a clear status while the other files are indexed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.documents.library import DocumentLibrary
from app.documents.uploads import MAX_FILE_BYTES
from fakes.documents import build_document_set
from fakes.drawings import (
    DXF_NOTE,
    damaged_ifc_text,
    ifc_text,
    write_damaged_dxf,
    write_dxf,
    write_huge_ifc,
    write_ifc,
)
from history import ChatHistoryDB
from tools import ToolContext, run_tool
from tools.documents.step import StepError, parse_arguments

pytestmark = pytest.mark.slow


@pytest.fixture
def drawings(isolated: Path) -> DocumentLibrary:
    root = isolated / "workspace"
    build_document_set(root)
    (root / "drawings").mkdir()
    write_dxf(root / "drawings" / "S-101.dxf")
    write_ifc(root / "drawings" / "frame.ifc")
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.refresh()
    assert docs.wait(120)
    return docs


def top(docs: DocumentLibrary, query: str, count: int = 1) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = docs.search(query, count)["passages"]
    return found


def test_a_dxf_note_is_found_with_its_layer(drawings: DocumentLibrary) -> None:
    (note,) = top(drawings, "bolted connections A325-N bolts")
    assert (note["file"], note["location"]) == ("drawings/S-101.dxf", "model space, layer S-NOTES")
    assert DXF_NOTE in note["text"] and "page" not in note
    (title,) = top(drawings, "drawing title framing plan")
    assert (title["file"], title["location"]) == ("drawings/S-101.dxf", "layout S-101, title block")
    assert "TITLE: SECOND FLOOR FRAMING PLAN" in title["text"] and "DWG-NO: S-101" in title["text"]
    (dimension,) = top(drawings, "clear to face of grade beam")
    assert dimension["location"] == "model space, layer S-DIMS"
    assert dimension["text"] == "dimension: 3000 CLEAR TO FACE OF GRADE BEAM"
    notes = {file.path: file.note for file in drawings.files()}
    assert notes["drawings/S-101.dxf"] == "DXF drawing: model space and 2 layouts, 4 texts"


def test_an_ifc_element_is_found_with_its_storey_and_section(drawings: DocumentLibrary) -> None:
    (beam,) = top(drawings, "what section is beam B-12?")
    assert (beam["file"], beam["location"]) == ("drawings/frame.ifc", "Level 2, IfcBeam B-12")
    assert beam["text"].splitlines()[0] == "IfcBeam B-12, Level 2, W18X50, S355"
    assert "Pset_BeamCommon: Reference W18X50; LoadBearing true" in beam["text"]
    notes = {file.path: file.note for file in drawings.files()}
    assert notes["drawings/frame.ifc"] == "IFC model (IFC4): 5 structural elements on 3 storeys"


def test_which_beams_are_on_level_2_finds_them_through_the_tool(drawings: DocumentLibrary) -> None:
    outcome = run_tool(
        "search_documents", {"query": "which beams are on level 2?", "top_k": 3}, ToolContext(documents=drawings)
    )
    passages = json.loads(outcome.output)["passages"]
    assert list(passages[0]) == ["file", "location", "text", "score"]  # the pinned shape, without a page
    assert [p["location"] for p in passages] == ["Level 2, beams", "Level 2, IfcBeam B-12", "Level 2, IfcBeam B-13"]
    assert passages[0]["text"] == "Level 2: 2 beams: IfcBeam B-12 W18X50; IfcBeam B-13 W16X26."


def test_damaged_drawings_and_models_are_skipped_with_a_reason(isolated: Path) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    (root / "garbage.dxf").write_text("this is no drawing")
    (root / "empty-sheet.dxf").write_text("0\nSECTION\n2\nENTITIES\n0\nENDSEC\n0\nEOF\n")
    (root / "garbage.ifc").write_text("<html>not a model</html>")
    text = ifc_text()
    (root / "cut-short.ifc").write_text(text[: text.index("IFCBEAM('") + 200])  # ends in the middle of a record
    nested = "(" * 5_000 + ")" * 5_000
    (root / "nested.ifc").write_text(text.replace("ENDSEC;\nEND-ISO", f"#99999=IFCBEAM{nested};\nENDSEC;\nEND-ISO"))
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.refresh()
    assert docs.wait(120)
    status = {file.path: (file.status, file.note) for file in docs.files()}
    assert status["garbage.dxf"] == ("skipped", "not a DXF file (no DXF structure in it)")
    assert status["empty-sheet.dxf"] == (
        "skipped",
        "no text in the drawing (no notes, dimension overrides or block attributes)",
    )
    assert status["garbage.ifc"] == (
        "skipped",
        "not a readable IFC file: it does not start with ISO-10303-21, as an IFC file in STEP form does",
    )
    assert status["cut-short.ifc"][0] == "indexed"
    assert status["cut-short.ifc"][1].endswith("the file ends early (damaged or cut short?): what is there was read")
    assert status["nested.ifc"] == (  # the record nested too deeply is passed over, the model read
        "indexed",
        "IFC model (IFC4): 5 structural elements on 3 storeys; 1 damaged record was passed over",
    )
    assert status["spec.pdf"] == ("indexed", "6 pages")


def test_corrupt_drawings_and_a_huge_model_say_so_and_the_other_files_are_indexed(isolated: Path) -> None:
    root = isolated / "workspace"
    build_document_set(root)
    write_damaged_dxf(root / "cut-short.dxf", "cut after entities")
    write_damaged_dxf(root / "cut-in-half.dxf", "cut in half")
    write_damaged_dxf(root / "garbled.dxf", "garbled")
    (root / "damaged.ifc").write_text(damaged_ifc_text())
    write_huge_ifc(root / "huge.ifc", MAX_FILE_BYTES + 1)
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.refresh()
    assert docs.wait(120)
    status = {file.path: (file.status, file.note) for file in docs.files()}
    assert status["cut-short.dxf"] == (
        "indexed",
        "DXF drawing: model space and 1 layout, 3 texts; the file ends early (damaged or cut short?): what is there "
        "was read",
    )
    assert status["cut-in-half.dxf"] == (
        "skipped",
        "the drawing ends early (damaged or cut short?) and no text was found in what is there",
    )
    assert status["garbled.dxf"][0] == "skipped"
    assert status["garbled.dxf"][1].startswith('not a readable DXF file (DXFStructureError: Invalid group code "XX"')
    assert status["damaged.ifc"] == (
        "indexed",
        "IFC model (IFC4): 4 structural elements on 3 storeys; 1 damaged record was passed over",
    )
    assert status["huge.ifc"] == ("skipped", "larger than 200 MB")
    assert status["spec.pdf"] == ("indexed", "6 pages")
    (note,) = top(docs, "bolted connections A325-N bolts")
    assert (note["file"], note["location"]) == ("cut-short.dxf", "model space, layer S-NOTES")
    (beam,) = top(docs, "what section is beam B-12?")
    assert (beam["file"], beam["location"]) == ("damaged.ifc", "Level 2, IfcBeam B-12")
    assert not [p for p in docs.search("B-13 W16X26", 5)["passages"] if "IfcBeam B-13" in p["location"]]
    assert top(docs, "lap splice")[0]["file"] == "spec.pdf"


def test_the_step_reader_refuses_what_it_cannot_follow() -> None:
    assert parse_arguments(
        "'it''s',$,#12,.T.,(1,2.5,-3.E-2),IFCLABEL('W18X50'),'\\X2\\00E9\\X0\\t\\X2\\00E9\\X0\\'"
    ) == [
        "it's",
        None,
        parse_arguments("#12")[0],
        "T",
        [1, 2.5, -0.03],
        "W18X50",
        "été",
    ]
    with pytest.raises(StepError, match="unexpected text"):
        parse_arguments("'open string")


def test_a_dxf_with_100000_entities_is_read_within_the_bounds(isolated: Path) -> None:
    root = isolated / "workspace"
    root.mkdir()
    write_dxf(root / "site-plan.dxf", extra_entities=100_000)
    docs = DocumentLibrary(ChatHistoryDB(isolated / "chat_history.sqlite"), root, None)
    docs.refresh()
    assert docs.wait(180)
    (file,) = docs.files()
    assert (file.status, file.note) == ("indexed", "DXF drawing: model space and 2 layouts, 4 texts")
    assert top(docs, "A325-N bolts")[0]["location"] == "model space, layer S-NOTES"
