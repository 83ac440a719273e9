"""A small, bounded reader of STEP physical files (ISO 10303-21), the text form of IFC models.

Only what the IFC reader asks for is parsed: each record `#12=IFCBEAM('…',$,'B-12',…);` is found
by one regular expression, and its arguments are parsed only when its entity is wanted. Values are
None (`$`, `*`), text (strings decoded from STEP's escapes, enumerations as their name), numbers,
references (`Ref`) and lists; a typed value such as `IFCLABEL('W18X50')` is its inner value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

MAX_RECORDS = 5_000_000  # records looked at, wanted or not
MAX_DEPTH = 32  # lists nested deeper than this are refused

_DATA = re.compile(r"^\s*DATA\s*;", re.IGNORECASE | re.MULTILINE)
_RECORD = re.compile(r"#(\d+)\s*=\s*([A-Za-z0-9_]+)\s*\(((?:[^;']|'[^']*')*)\)\s*;")
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<string>'(?:[^']|'')*')
      | (?P<ref>\#\d+)
      | (?P<enum>\.[A-Za-z0-9_]+\.)
      | (?P<number>[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))
      | (?P<typed>[A-Za-z][A-Za-z0-9_]*)\s*\(
      | (?P<open>\()
      | (?P<close>\))
      | (?P<comma>,)
      | (?P<none>[$*])
    )""",
    re.VERBOSE,
)
_ESCAPE = re.compile(r"\\X2\\((?:[0-9A-Fa-f]{4})+)\\X0\\|\\X4\\((?:[0-9A-Fa-f]{8})+)\\X0\\|\\X\\([0-9A-Fa-f]{2})")


class StepError(ValueError):
    """The text is not STEP the reader can follow; the message says where."""


@dataclass(frozen=True)
class Ref:
    """A reference to another record (`#12`)."""

    id: int


@dataclass(frozen=True)
class Record:
    id: int
    entity: str  # upper case, as in the file: "IFCBEAM"
    arguments: list[Any]


def header_schema(text: str) -> str:
    """The schema named in FILE_SCHEMA (("IFC4")), upper case; StepError when the text is not STEP at all."""
    if not text[:4096].lstrip().upper().startswith("ISO-10303-21"):  # a slice: the model may be 200 MB
        raise StepError("it does not start with ISO-10303-21, as an IFC file in STEP form does")
    match = re.search(r"FILE_SCHEMA\s*\(\s*\(\s*'([^']*)'", text[:100_000], re.IGNORECASE)
    return match.group(1).upper() if match else ""


def records(text: str, wanted: Callable[[str], bool], damaged: list[str] | None = None) -> Iterator[Record]:
    """The records of the DATA section whose entity `wanted` accepts, with their arguments parsed.

    A wanted record whose arguments cannot be followed is passed over, and why is added to `damaged` (when
    given; without it, StepError)."""
    data = _DATA.search(text)
    if data is None:
        raise StepError("it has no DATA section")
    for seen, match in enumerate(_RECORD.finditer(text, data.end())):
        if seen >= MAX_RECORDS:
            raise StepError(f"it has more than {MAX_RECORDS:,} records")
        entity = match.group(2).upper()
        if not wanted(entity):
            continue
        try:
            arguments = parse_arguments(match.group(3))
        except StepError as error:
            if damaged is None:
                raise
            damaged.append(f"#{match.group(1)}: {error}")
            continue
        yield Record(int(match.group(1)), entity, arguments)


def parse_arguments(text: str) -> list[Any]:
    """The argument list inside a record's parentheses (one pass over its tokens, lists kept on a stack)."""
    stack: list[list[Any]] = [[]]
    typed: list[bool] = [False]
    position = 0
    for match in _TOKEN.finditer(text):
        if match.start() != position:
            break  # text no token reads
        position = match.end()
        kind = match.lastgroup
        if kind == "comma":
            continue
        if kind == "open" or kind == "typed":
            if len(stack) > MAX_DEPTH:
                raise StepError("lists nested too deeply")
            inner: list[Any] = []
            stack[-1].append(inner)
            stack.append(inner)
            typed.append(kind == "typed")
        elif kind == "close":
            if len(stack) == 1:
                raise StepError("a parenthesis closes what was not opened")
            done, was_typed = stack.pop(), typed.pop()
            if was_typed and len(done) == 1:  # IFCLABEL('W18X50') is its value
                stack[-1][-1] = done[0]
        elif kind == "ref":
            stack[-1].append(Ref(int(match.group(kind)[1:])))
        else:
            stack[-1].append(_scalar(kind, match.group(kind) if kind else ""))
    if text[position:].strip():
        raise StepError(f"unexpected text {text[position : position + 20]!r}")
    if len(stack) != 1:
        raise StepError("a parenthesis is not closed")
    return stack[0]


def _scalar(kind: str | None, token: str) -> Any:
    if kind == "string":
        return decode(token[1:-1])
    if kind == "ref":
        return Ref(int(token[1:]))
    if kind == "enum":
        return token.strip(".")
    if kind == "number":
        return float(token) if "." in token or "e" in token or "E" in token else int(token)
    return None


def decode(text: str) -> str:
    """A STEP string's text: '' is a quote, \\X2\\…\\X0\\ (UTF-16), \\X4\\…\\X0\\ (UTF-32) and \\X\\hh (Latin-1)."""

    if "\\" not in text and "'" not in text:
        return text

    def character(match: re.Match[str]) -> str:
        if match.group(1):
            return bytes.fromhex(match.group(1)).decode("utf-16-be", "replace")
        if match.group(2):
            return bytes.fromhex(match.group(2)).decode("utf-32-be", "replace")
        return bytes.fromhex(match.group(3)).decode("latin-1")

    return _ESCAPE.sub(character, text.replace("''", "'"))
