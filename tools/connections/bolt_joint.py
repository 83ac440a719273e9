"""What the bolt group's checks share: the joint as given, what a code's clauses found, and how a force, a stress
and a check are written for the record."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.calculations import Check
from tools.calc import check
from tools.connections.bolt_data import Diameter
from tools.connections.bolt_layout import Layout
from tools.connections.inputs import Combined
from tools.units import registry
from tools.units.showing import System, conventional, show


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
    ureg = registry()
    return check(name, conventional(demand * ureg.N, joint.system), conventional(capacity * ureg.N, joint.system),
                 clause)  # fmt: skip


def force_text(newtons: float, joint: Joint, unit: str | None = None) -> str:
    return show(conventional(newtons * registry().N, joint.system, prefer=unit))


def stress_text(pascals: float, joint: Joint) -> str:
    return show((pascals * registry().Pa).to("ksi" if joint.system == "US" else "MPa"))


def length_text(metres: float, joint: Joint) -> str:
    return show((metres * registry().m).to("in" if joint.system == "US" else "mm"))


def area_text(area: float, joint: Joint) -> str:
    return show((area * registry().m ** 2).to("in**2" if joint.system == "US" else "mm**2"))


def missing_sentence(limit_state: str, missing: list[str]) -> str:
    return f"{limit_state}: give {', '.join(missing[:-1]) + ' and ' if len(missing) > 1 else ''}{missing[-1]}"


def record_missing(found: Found, joint: Joint, limit_state: str, *names: str) -> bool:
    """True when every argument `names` was given; otherwise `limit_state` joins the result's not_checked."""
    missing = joint.layout.missing(*names)
    if missing:
        found.not_checked.append(missing_sentence(limit_state, missing))
    return not missing
