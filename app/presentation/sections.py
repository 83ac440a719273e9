"""A concrete section's drawing as every face names it: the title that gives its size, bars, stirrups and cover, and
its bars in rows (the report lists them where no drawing can go)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from domain.calculations import SectionDrawing
from tools.units.showing import significant


@dataclass(frozen=True)
class BarRow:
    """Bars of one diameter at one depth, left to right."""

    depth: float  # from the top face
    diameter: float
    positions: tuple[float, ...]  # from the left face


def section_title(section: SectionDrawing) -> str:
    """ "Section 16 × 16 in: 8 bars Ø 1.128 in, ties or stirrups Ø 0.375 in, clear cover 1.5 in"."""
    unit = section.unit
    sizes = sorted({bar.diameter for bar in section.bars}, reverse=True)
    counts = [sum(1 for bar in section.bars if bar.diameter == size) for size in sizes]
    bars = " and ".join(
        f"{count} bar{'s' * (count != 1)} Ø {length(size, unit)}" for count, size in zip(counts, sizes, strict=True)
    )
    parts = [bars or "no bars"]
    if section.stirrup_diameter > 0:
        parts.append(f"ties or stirrups Ø {length(section.stirrup_diameter, unit)}")
    if section.cover > 0:
        parts.append(f"clear cover {length(section.cover, unit)}")
    size = f"{significant(section.width)} × {significant(section.height)} {unit}"
    return f"Section {size}: {', '.join(parts)}"


def section_problem(section: SectionDrawing) -> str:
    """What keeps the section from being drawn ("a bar lies outside it"), or "" when nothing does."""
    sizes = [section.width, section.height, section.cover, section.stirrup_diameter]
    if not all(map(math.isfinite, sizes)) or min(section.width, section.height) <= 0:
        return "its width and height are not positive lengths"
    for bar in section.bars:
        if not all(map(math.isfinite, (bar.x, bar.y, bar.diameter))) or bar.diameter <= 0:
            return "a bar's position or diameter is not a length"
        if not (0 <= bar.x <= section.width and 0 <= bar.y <= section.height):
            return "a bar lies outside it"
    return ""


def length(value: float, unit: str) -> str:
    """ "1.128 in", "25 mm": four significant figures, as the results write them."""
    return f"{significant(value)} {unit}"


def bar_rows(section: SectionDrawing) -> list[BarRow]:
    """The bars grouped by depth and diameter, from the top face down."""
    rows: dict[tuple[float, float], list[float]] = {}
    for bar in section.bars:
        rows.setdefault((bar.y, bar.diameter), []).append(bar.x)
    return [BarRow(depth, diameter, tuple(sorted(xs))) for (depth, diameter), xs in sorted(rows.items())]
