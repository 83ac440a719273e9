"""DXF drawings as passages, read with ezdxf (MIT): the text of notes (TEXT, MTEXT, multileaders), dimensions'
overrides and block attributes, each passage located where it is on the sheet: "model space, layer S-NOTES",
"layout S-101, layer A-ANNO", "layout S-101, title block" (a block whose name or attributes say it is one),
"layout S-101, block DETAIL-TAG". A damaged file is read in ezdxf's recover mode; a drawing is bounded by
MAX_ENTITIES looked at, and the reader worker bounds its memory and time.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

MAX_ENTITIES = 1_000_000  # entities looked at in all layouts; past it the rest of the drawing is left out
TITLE_BLOCK_NAME = re.compile(r"title|t[-_ ]?block|border|sheet|frame|cartouche", re.IGNORECASE)
TITLE_TAGS = {"TITLE", "DWG", "DWGNO", "DWG-NO", "DWG_NO", "DRAWING", "SHEET", "SHEETNO", "PROJECT", "SCALE", "REV"}
TEXTS = "TEXT MTEXT DIMENSION INSERT MULTILEADER"


class DrawingError(ValueError):
    """The file is not a DXF drawing ezdxf can read; the message says why."""


def read_drawing(path: Path) -> tuple[list[tuple[str, str]], str]:
    """(location, text) for each place on the drawing that holds text, and a note ("2 layouts, 14 texts")."""
    document = _open(path)
    places: dict[str, list[str]] = defaultdict(list)
    looked = 0
    for layout in document.layouts:
        space = "model space" if layout.name.lower() == "model" else f"layout {layout.name}"
        for entity in layout.query(TEXTS):
            looked += 1
            if looked > MAX_ENTITIES:
                return _passages(places), f"only the first {MAX_ENTITIES:,} texts, dimensions and blocks were read"
            for where, text in _texts(space, entity):
                if text and text not in places[where]:
                    places[where].append(text)
    layouts = sum(1 for layout in document.layouts if layout.name.lower() != "model")
    texts = sum(len(found) for found in places.values())
    note = f"DXF drawing: model space and {layouts} layout{'s' if layouts != 1 else ''}, {texts} texts"
    if not _ends_whole(path):
        if not texts:
            raise DrawingError("the drawing ends early (damaged or cut short?) and no text was found in what is there")
        note += "; the file ends early (damaged or cut short?): what is there was read"
    return _passages(places), note


def _ends_whole(path: Path) -> bool:
    """Whether the file ends as a DXF file does, with its EOF marker (ezdxf reads a cut-short file quietly)."""
    with path.open("rb") as file:
        file.seek(max(file.seek(0, 2) - 64, 0))
        return b"EOF" in file.read()


def _open(path: Path) -> Any:
    """The drawing, read as it is (2.5 times as fast), or else in ezdxf's recover mode, which mends what it can."""
    from ezdxf import recover
    from ezdxf.filemanagement import readfile
    from ezdxf.lldxf.const import DXFError, DXFStructureError

    try:
        try:
            return readfile(path)
        except DXFStructureError:
            return recover.readfile(path)[0]
    except OSError:  # ezdxf's words name the private copy's path: they are not repeated
        raise DrawingError("not a DXF file (no DXF structure in it)") from None
    except (DXFError, UnicodeDecodeError, ValueError) as error:
        raise DrawingError(f"not a readable DXF file ({type(error).__name__}: {str(error)[:120]})") from None


def _passages(places: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(where, "\n".join(texts)) for where, texts in places.items() if texts]


def _texts(space: str, entity: Any) -> list[tuple[str, str]]:
    """(location, text) of one entity: a note, a dimension's own words, or a block's attributes."""
    kind, layer = entity.dxftype(), entity.dxf.get("layer", "0")
    on_layer = f"{space}, layer {layer}"
    if kind == "TEXT":
        return [(on_layer, _clean(entity.plain_text()))]
    if kind == "MTEXT":
        return [(on_layer, _clean(entity.plain_text()))]
    if kind == "MULTILEADER":
        return [(on_layer, _clean(_plain(entity.get_mtext_content())))] if entity.has_mtext_content else []
    if kind == "DIMENSION":
        return [(on_layer, _dimension(entity))]
    return _block(space, entity)


def _dimension(entity: Any) -> str:
    """A dimension's override ("<> CLEAR" with the measured value in place of <>); "" when it has none."""
    override = str(entity.dxf.get("text", "") or "")
    if override.strip() in ("", "<>", " "):
        return ""
    try:
        measured = f"{float(entity.get_measurement()):g}"
    except (TypeError, ValueError, AttributeError, ZeroDivisionError):
        measured = ""
    return "dimension: " + _clean(_plain(override.replace("<>", measured)))


def _block(space: str, insert: Any) -> list[tuple[str, str]]:
    """A block reference's attributes as "TAG: value" lines, located as a title block or by the block's name."""
    attributes = [(a.dxf.get("tag", ""), _clean(a.dxf.get("text", ""))) for a in insert.attribs]
    attributes = [(tag, text) for tag, text in attributes if text]
    if not attributes:
        return []
    name = insert.dxf.get("name", "")
    tags = {tag.upper() for tag, _ in attributes}
    title = TITLE_BLOCK_NAME.search(name) is not None or len(tags & TITLE_TAGS) >= 2
    where = f"{space}, title block" if title else f"{space}, block {name}"
    return [(where, "\n".join(f"{tag}: {text}" for tag, text in attributes))]


def _plain(text: str) -> str:
    """MTEXT's formatting codes left out (a multileader's or a dimension's text)."""
    from ezdxf.tools.text import plain_mtext

    return str(plain_mtext(text))


def _clean(text: str) -> str:
    """Runs of spaces made one, empty lines left out."""
    lines = (" ".join(line.split()) for line in str(text).splitlines())
    return "\n".join(line for line in lines if line)
