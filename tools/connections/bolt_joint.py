"""What the bolt group's checks share: the joint as given, what a code's clauses found, and how a force, a stress
and a check are written for the record."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.calculations import Check
from tools.connections.bolt_data import Diameter
from tools.connections.bolt_layout import Layout
from tools.connections.inputs import Combined
from tools.steel.readout import limit_check, shown
from tools.units.showing import System, significant


@dataclass(frozen=True)
class Joint:
    """The bolt group as given: size, count, shear planes, threads in the shear plane, the factored forces, and
    where the bolts stand."""

    size: Diameter
    bolts: int
    planes: int
    threads_excluded: bool
    shear: Combined
    tension: Combined
    system: System
    layout: Layout


@dataclass
class Found:
    """What a code's clauses found for the group, in N: strengths, checks, and how they were reached."""

    design_shear: float
    design_tension: float
    design_slip: float | None
    grade: str
    symbols: tuple[str, str, str]  # required shear, required tension, strength
    substituted: list[str]
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    forces: dict[str, float] = field(default_factory=dict)  # further result keys in N
    figures: dict[str, str] = field(default_factory=dict)  # further plain results: group_coefficient, prying_factor
    not_checked: list[str] = field(default_factory=list)


def force_check(name: str, demand: float, capacity: float, clause: str, joint: Joint) -> Check:
    return limit_check(name, demand, capacity, "force", joint.system, clause)


def force_text(newtons: float, joint: Joint, unit: str | None = None) -> str:
    """ "17.89 kip", "94.08 kN" (written without pint's arithmetic: a call writes dozens)."""
    return shown(newtons, "force", joint.system)


def stress_text(pascals: float, joint: Joint) -> str:
    return shown(pascals, "stress", joint.system)


def length_text(metres: float, joint: Joint) -> str:
    us = joint.system == "US"
    return f"{significant(metres / (0.0254 if us else 0.001))} {'in' if us else 'mm'}"


def area_text(area: float, joint: Joint) -> str:
    return shown(area, "area", joint.system)


def missing_sentence(limit_state: str, missing: list[str]) -> str:
    return f"{limit_state}: give {', '.join(missing[:-1]) + ' and ' if len(missing) > 1 else ''}{missing[-1]}"


def record_missing(found: Found, joint: Joint, limit_state: str, *names: str) -> bool:
    """True when every argument `names` was given; otherwise `limit_state` joins the result's not_checked."""
    missing = joint.layout.missing(*names)
    if missing:
        found.not_checked.append(missing_sentence(limit_state, missing))
    return not missing
