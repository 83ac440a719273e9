"""The welds as the fillet-weld check reads them, and what a code's clauses found for them: the records that
`welds` (the tool) and `weld_groups` (eccentric and C-shaped groups) pass each other."""

from __future__ import annotations

from dataclasses import dataclass

from tools.units.showing import System


@dataclass(frozen=True)
class WeldRun:
    """The welds as given, in SI base units: leg, length of each, how many, the load angle in radians."""

    size: float
    length: float
    welds: int
    theta: float
    system: System


@dataclass
class Finding:
    """What a code's clauses found for the welds, in SI base units, and how it was reached."""

    design: float  # N
    per_length: float  # N/m, all welds together, before the long-weld factor
    throat: float  # m
    check_name: str
    clause: str
    formula: str
    reference: str
    substituted: str  # from the resistance on; the demand's combination goes before it
    details: dict[str, str]
    notes: list[str]
