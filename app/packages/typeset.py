"""Typesetting a package into PDF with Typst (the `typst` package: the compiler in the wheel, nothing fetched).

The template (`package.typ`) is ours and fixed; the package's text reaches it only as JSON in `sys.inputs`,
where every value is a string the template places as plain text, so no text can become markup, call a
function or read a file (the compiler's root is an empty private folder besides). The font is DejaVu Sans,
the one matplotlib ships, with no fallback: a character it has no glyph for is written as its code point
(`[U+4E2D]`) and the cover says so, instead of an empty box or a gap in the PDF's text.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tempfile
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from app.packages.content import PackageContent
from app.presentation.formatting import visible_bidi_controls

TEMPLATE = Path(__file__).with_name("package.typ")
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSansMono.ttf")
LONGEST_UNBROKEN = 28  # characters in a row without a space before a break is allowed (a cell must hold them)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_LONG_WORD = re.compile(rf"\S{{{LONGEST_UNBROKEN + 1},}}")
_ZERO_WIDTH_SPACE = "\u200b"


class PackageError(ValueError):
    """The package cannot be made; the message says why and what to do."""


def _typst() -> Any:
    """The `typst` module, imported on the first package (it is large), or PackageError saying how to get it."""
    try:
        import typst
    except ImportError:
        raise PackageError(
            "Making a PDF needs the typst package, which is not installed; install the requirements again "
            "(pip install -r requirements.txt)."
        ) from None
    return typst


@cache
def _fonts() -> tuple[Any, frozenset[int]]:
    """Typst's font book of the DejaVu faces and the characters all of them have a glyph for."""
    typst = _typst()
    try:
        from fontTools.ttLib import TTFont
    except ImportError:
        raise PackageError(
            "Making a PDF needs fontTools, which is not installed; install the requirements again "
            "(pip install -r requirements.txt)."
        ) from None

    spec = importlib.util.find_spec("matplotlib")
    folder = Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf" if spec and spec.origin else None
    if folder is None or not all((folder / name).is_file() for name in FONT_FILES):
        raise PackageError(
            "The package's font (DejaVu Sans, installed with matplotlib) is missing; "
            "install the requirements again (pip install -r requirements.txt)."
        )
    covered: frozenset[int] | None = None
    for name in FONT_FILES:
        characters = frozenset(TTFont(folder / name, lazy=True).getBestCmap())
        covered = characters if covered is None else covered & characters
    book = typst.Fonts(include_system_fonts=False, include_embedded_fonts=False, font_paths=[str(folder)])
    return book, covered or frozenset()


class _Plain:
    """Text made safe to typeset: controls removed, bidirectional controls written out, characters without a
    glyph written as their code point, and long unbroken runs given places to break."""

    def __init__(self, covered: frozenset[int]) -> None:
        self.covered = covered
        self.missing: set[str] = set()

    def text(self, value: str) -> str:
        value = _CONTROLS.sub("", value.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " "))
        if not value.isascii():  # every printable ASCII character has its glyph
            value = "".join(self._shown(char) for char in visible_bidi_controls(value))
        return _LONG_WORD.sub(self._breakable, value)

    def _shown(self, char: str) -> str:
        if char == "\n" or ord(char) in self.covered:
            return char
        self.missing.add(char)
        return f"[U+{ord(char):04X}]"

    @staticmethod
    def _breakable(match: re.Match[str]) -> str:
        word = match.group(0)
        return _ZERO_WIDTH_SPACE.join(word[i : i + LONGEST_UNBROKEN] for i in range(0, len(word), LONGEST_UNBROKEN))

    def tree(self, value: Any) -> Any:
        if isinstance(value, int | float):
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list | tuple):
            return [self.tree(item) for item in value]
        if isinstance(value, dict):
            return {key: self.tree(item) for key, item in value.items()}
        return value


def template_data(content: PackageContent) -> dict[str, Any]:
    """The JSON the template reads: the content, and the cover's and every page's lines."""
    details = content.details
    title = details.project_name or content.workspace
    number = f" ({details.project_number})" if details.project_number else ""
    short = content.digest[:16]
    return {
        "title": f"Calculation package: {title}, {content.label}",
        "authors": [signature.name for signature in content.signatures if signature.name != "—"],
        "project_title": title,
        "label": content.label,
        "date": content.date,
        "header": f"{title}{number}",
        "footer": f"{content.workspace} · {content.label} · records digest {short}",
        "project": [
            ["Project", details.project_name or "—"],
            ["Project number", details.project_number or "—"],
            ["Client", details.client or "—"],
            ["Description", details.description or "—"],
            ["Workspace", content.workspace],
        ],
        "signatures": [signature.model_dump() for signature in content.signatures],
        "digest": " ".join(content.digest[i : i + 16] for i in range(0, len(content.digest), 16)),
        "count": str(len(content.sheets)),
        "statements": content.notes,
        "revisions": [line.model_dump() for line in content.revisions],
        "sheets": [sheet.model_dump(mode="json") for sheet in content.sheets],
        "empty": "This workspace has no calculations yet.",
    }


def render_pdf(content: PackageContent, when: datetime, pictures: dict[str, bytes] | None = None) -> bytes:
    """The package as PDF bytes, dated `when` (a timezone-aware time); `pictures` (file name → bytes, cleaned when
    they were asked) are put in the compiler's folder, where each sheet names those of its question."""
    typst = _typst()
    book, covered = _fonts()
    plain = _Plain(covered)
    data = plain.tree(template_data(content))
    if plain.missing:
        example = min(plain.missing)
        data["statements"].append(
            f"Characters the package's font cannot show are written as their code point, such as "
            f"[U+{ord(example):04X}]; the workspace's record keeps them as typed."
        )
    with tempfile.TemporaryDirectory(prefix="package-") as root:
        for name, picture in (pictures or {}).items():
            (Path(root) / Path(name).name).write_bytes(picture)
        compiler = typst.Compiler(root=root, font_paths=book, ignore_system_fonts=True)
        try:
            pdf = compiler.compile(
                TEMPLATE.read_bytes(),
                format="pdf",
                sys_inputs={"package": json.dumps(data, ensure_ascii=False)},
                timestamp=when.replace(microsecond=0),
            )
        except typst.TypstError as error:
            raise PackageError(f"The package could not be typeset ({error.message}); please report this.") from None
    if not isinstance(pdf, bytes):
        raise PackageError("The typesetter returned no PDF; please report this.")
    return pdf
