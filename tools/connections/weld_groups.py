"""Fillet welds under an eccentric force, or C-shaped groups with returns: AISC 360-22 J2.4(b)(2) by the
instantaneous centre (Manual 16th ed. Tables 8-4 to 8-11), or EN 1993-1-8 4.5.3.3 with the force on the most
stressed point found by the elastic (polar) method. SI base units."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.codes.aisc360 import connections as aisc_j
from tools.codes.aisc360 import weld_groups as aisc_groups
from tools.codes.en1993_1_8 import joints as en_joints
from tools.connections.bolt_data import KIP, KSI
from tools.connections.weld_records import Finding, WeldRun

INCH = 0.0254


@dataclass(frozen=True)
class Group:
    """Each weld group as given: the main line's length, the returns at both ends toward the force, the eccentricity
    from the group's centroid (m)."""

    length: float
    returns: float
    eccentricity: float

    def lines(self) -> list[aisc_groups.Line]:
        return aisc_groups.c_shape(self.length, self.returns)

    def total(self) -> float:
        return self.length + 2 * self.returns


def aisc_group(run: WeldRun, group: Group, method: str, fexx: float, name: str) -> Finding:
    """J2.4(b)(2): Rn = C C1 D l for each of `welds` groups (C of Tables 8-4 to 8-11, C1 = FEXX/70 ksi)."""

    c = aisc_groups.coefficient(tuple(group.lines()), group.eccentricity, run.theta, group.length)
    c1, sixteenths = fexx / (70 * KSI), run.size / aisc_groups.SIXTEENTH
    nominal = c * c1 * sixteenths * (group.length / INCH) * KIP * run.welds
    phi, omega = aisc_j.PHI_WELD, aisc_j.OMEGA_WELD
    design = nominal * phi if method == "LRFD" else nominal / omega
    symbol = ("Pu", "φRn") if method == "LRFD" else ("Pa", "Rn/Ω")
    k, a = group.returns / group.length, group.eccentricity / group.length
    substituted = (
        f"k = kl/l = {k:.3f}, a = ex/l = {a:.3f}, θ = {math.degrees(run.theta):.4g}°: C = {c:.3f} (instantaneous "
        f"centre, J2.4(b)(2)); C1 = {c1:.3f}, D = {sixteenths:.3g}, l = {group.length / INCH:.4g} in, "
        f"{run.welds} group(s): "
        f"Rn = {c:.3f} × {c1:.3f} × {sixteenths:.3g} × {group.length / INCH:.4g} × {run.welds} = "
        f"{nominal / KIP:.4g} kip; {symbol[1]}"
    )
    return Finding(
        design=design, per_length=nominal / (group.total() * run.welds) * (phi if method == "LRFD" else 1 / omega),
        throat=aisc_j.effective_throat(run.size), check_name=f"{symbol[0]} ≤ {symbol[1]}: weld group, eccentric",
        clause="AISC 360-22 J2.4(b)(2) eq. J2-6 to J2-9; Manual Tables 8-4 to 8-11",
        formula="Rn = C C1 D l (Manual Part 8); C by the instantaneous centre: Fnwi = 0.60 FEXX (1.0 + 0.50 "
        "sin^1.5 θi) f(pi), f(p) = [p(1.9 − 0.9p)]^0.3, Δui = 1.087(θi + 6)^−0.65 w ≤ 0.17w, "
        "Δmi = 0.209(θi + 2)^−0.32 w; φ = 0.75, Ω = 2.00",
        reference=f"AISC 360-22 J2.4(b)(2) ({method}); AISC Manual 16th ed. Part 8; combination per ASCE 7-22",
        substituted=substituted,
        details={"electrode": name, "group_coefficient": f"{c * run.welds:.3f}"},
        notes=[f"An eccentric or C-shaped weld group by the instantaneous centre (J2.4(b)(2)), as Manual Tables 8-4 to "
               f"8-11 compute it: ex = {group.eccentricity / INCH:.4g} in from the centroid; the long-weld factor β "
               "is not applied (the group's own deformation limits its strength)."],
    )  # fmt: skip


def eurocode_group(run: WeldRun, group: Group, fu: float, beta_w: float) -> tuple[float, float, str]:
    """4.5.3.3 with the elastic method: the force per length at the most stressed point, √((V/L + M x/Ip)² +
    (M y/Ip)²) per unit V, against Fw,Rd = fvw,d a. Returns (design force, Fw,Rd per length, the working)."""
    points = [(x, y, run_) for (x, y, run_) in _points(group)]
    total = sum(run_ for _, _, run_ in points)
    ip = sum((x * x + y * y) * run_ for x, y, run_ in points)
    along, across = math.cos(run.theta), math.sin(run.theta)
    moment = group.eccentricity * math.cos(run.theta)
    worst = max(math.hypot(along / total + moment * abs(x) / ip, across / total + moment * abs(y) / ip)
                for x, y, _ in points)  # fmt: skip
    strength = en_joints.weld_resistance_per_length(fu, beta_w, en_joints.throat(run.size))
    design = strength / worst * run.welds
    working = (f"Ip = {ip * 1e9:.4g} mm³ (lines about the centroid), L = {total * 1000:.4g} mm, e = "
               f"{group.eccentricity * 1000:.4g} mm: the most stressed point takes {worst / 1000:.4g} "
               "V/mm")  # fmt: skip
    return design, strength, working


def _points(group: Group) -> list[tuple[float, float, float]]:
    """The group's weld elements and its corners (with no length), about the centroid."""
    found = [(x, y, run_) for x, y, run_, _, _ in aisc_groups.elements(group.lines())]
    cx = group.returns**2 / group.total()  # the returns' centroid pulls the group's toward them
    corners = [(x - cx, y, 0.0) for (x, y) in {p for line in group.lines() for p in line}]
    return found + corners
