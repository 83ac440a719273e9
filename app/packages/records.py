"""The calculation records a package is made of: the report's selection, each with its stored result (read back
into `CalcResult` by the store), and the digest that ties a printed page to those records."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from app.reports.exports import calculations
from domain.calculations import CalcResult
from domain.records import ToolCall, Turn


@dataclass(frozen=True)
class Calculation:
    """A stored tool call the package shows, with the question that led to it."""

    key: str  # "<turn id>:<call id>", unique in the store
    turn: Turn
    call: ToolCall

    @property
    def record(self) -> CalcResult | None:
        """The calculation result as the tool made it; None for a tool that keeps none (such as `sqrt`), or one
        that no longer reads as one, in which case the sheet shows the result as the tool returned it."""
        return self.call.calculation


def package_calculations(turns: Iterable[Turn]) -> tuple[list[Calculation], int]:
    """The workspace's calculations in order, and how many tool calls ended in an error (left out).

    A turn replaced by Regenerate or an edited question is left out too: its replacement is in the package.
    """
    found: list[Calculation] = []
    failed = 0
    for turn, call in calculations(turn for turn in turns if turn.status != "superseded"):
        if call is None:
            failed += 1
        else:
            found.append(Calculation(f"{turn.turn_id}:{call.id}", turn, call))
    return found, failed


def records_digest(found: Iterable[Calculation]) -> str:
    """SHA-256 of the records the package is rendered from: question, who asked and when, the tool, its
    arguments and its stored result. The same records always give the same digest."""
    canonical = [
        {
            "key": item.key,
            "asked_at": item.turn.created_at,
            "asked_by": item.turn.asked_by,
            "question": item.turn.user,
            "tool": item.call.name,
            "arguments": item.call.arguments,
            "output": item.call.output,
            "data": None if item.record is None else item.record.stored(),
        }
        for item in found
    ]
    text = json.dumps(canonical, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
