"""Shared by the package tests: a scripted conversation with three calculations, and the PDF read back."""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium

from agent import AIAgent
from app.application import Application
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB

PREPARER = "Ana Preparer"
WORKSPACE = "Level 3 framing"
STEEL_QUESTION = "Is a W12x26 OK over 35 ft with 0.45 kip/ft dead and 0.75 kip/ft live, braced at the ends only?"
STEEL = (
    "steel_beam_check",
    {
        "designation": "W12x26",
        "span": "35 ft",
        "dead_load": "0.45 kip/ft",
        "live_load": "0.75 kip/ft",
        "unbraced_length": "35 ft",
    },
)
COMBINATION = ("load_combination", {"dead": "10 kN/m", "live": "5 kN/m"})
CONTINUOUS = ("continuous_beam", {"spans": ["6 m", "6 m"], "load": "10 kN/m"})
BEAM = (
    "beam_analysis",
    {"span": "6 m", "load": "12 kN/m", "elastic_modulus": "200 GPa", "moment_of_inertia": "8.5e7 mm**4"},
)
RED = (192, 57, 43)


def service(fake: FakeOllama, folder: Path, engineer: str = PREPARER) -> Application:
    agent = AIAgent("qwen3:4b", fake.url, "system", tool_context=None)
    return Application(ChatHistoryDB(folder / "chat_history.sqlite"), agent, engineer=engineer)


async def ask(spaces: Application, question: str) -> None:
    async for _ in spaces.turns.ask(question):
        pass


async def three_calculations(spaces: Application, fake: FakeOllama) -> int:
    """A beam check that fails, a load combination and a continuous beam, asked in a new workspace."""
    chat = spaces.workspaces.create(WORKSPACE)
    fake.script(
        Reply.tool_calls(STEEL),
        Reply.text("No: it fails in lateral-torsional buckling."),
        Reply.tool_calls(COMBINATION, ("evaluate_expression", {"expression": "9**9**9"})),
        Reply.text("Use 20 kN/m."),
        Reply.tool_calls(CONTINUOUS),
        Reply.text("The support moment is 45 kN·m."),
    )
    await ask(spaces, STEEL_QUESTION)
    await ask(spaces, "Factored line load for D = 10 kN/m and L = 5 kN/m?")
    await ask(spaces, "Two spans of 6 m at 10 kN/m: the support moment?")
    return chat.chat_id


def pages(data: bytes) -> list[str]:
    """Each page's text, its lines joined and spaces collapsed (a cell's wrapped text reads as one line)."""
    document = pypdfium2.PdfDocument(data)
    texts = []
    for page in document:
        raw = page.get_textpage().get_text_range()
        texts.append(" ".join(raw.replace("\u200b", "").split()))
    return texts


def text_of(data: bytes) -> str:
    return " ".join(pages(data))


def coloured_words(data: bytes, word: str) -> list[tuple[int, int, int]]:
    """The fill colour of every text object that reads `word`."""
    colours = []
    for page in pypdfium2.PdfDocument(data):
        textpage = page.get_textpage()
        for item in page.get_objects(filter=[pdfium.FPDF_PAGEOBJ_TEXT]):
            size = pdfium.FPDFTextObj_GetText(item.raw, textpage.raw, None, 0)
            buffer = (ctypes.c_ushort * size)()
            pdfium.FPDFTextObj_GetText(item.raw, textpage.raw, buffer, size)
            if bytes(buffer).decode("utf-16-le").strip("\x00 ") == word:
                r, g, b, a = (ctypes.c_uint() for _ in range(4))
                pdfium.FPDFPageObj_GetFillColor(item.raw, r, g, b, a)
                colours.append((r.value, g.value, b.value))
    return colours


def object_kinds(data: bytes) -> set[int]:
    """The kinds of page object (text, path, image, …) anywhere in the PDF."""
    return {item.type for page in pypdfium2.PdfDocument(data) for item in page.get_objects()}


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
