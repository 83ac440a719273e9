"""A column section's design interaction curve (axial load and moment about one axis) by strain compatibility,
and the ways a load is measured against it. SI base units; compression positive, moment positive.

The design curve is φ·(Pn, Mn) with φ from the extreme layer's tensile strain (ACI 318-19 21.2.2), or (NRd, MRd)
with φ = 1 (EN 1992-1-1, whose design strengths carry γc and γs), cut at the code's largest axial load (ACI
0.80 φPo, 22.4.2.1; EN the squash resistance of 6.1(5)).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from tools.concrete.strain_compatibility import Block, Layer, forces, tension_capacity

SAMPLES = 72


@dataclass(frozen=True)
class Point:
    """One point of the curve: design axial load and moment, the φ applied and the extreme layer's strain."""

    axial: float
    moment: float
    phi: float
    strain: float
    c: float  # the neutral-axis depth (0 for pure tension)


@dataclass(frozen=True)
class Section:
    """What the curve is computed from."""

    width: float
    height: float
    layers: tuple[Layer, ...]
    block: Block
    phi: Callable[[float], float]  # φ from the net tensile strain; 1.0 for EN
    phi_tension: float  # φ in pure tension
    cap: float  # the largest design axial load


def point(section: Section, c: float) -> Point:
    """The design point for neutral-axis depth c."""
    found = forces(c, section.width, section.height, section.layers, section.block)
    phi = section.phi(found.extreme_strain)
    return Point(phi * found.axial, phi * found.moment, phi, found.extreme_strain, c)


def curve(section: Section) -> list[Point]:
    """The design curve from pure tension to the axial cap, then to the cap on the axial axis."""
    tension = tension_capacity(section.layers, section.block) * section.phi_tension
    points = [Point(tension, 0.0, section.phi_tension, math.inf, 0.0)]
    for index in range(SAMPLES):
        c = section.height * 10 ** (-3 + 5 * index / (SAMPLES - 1))
        here = point(section, c)
        if here.axial >= section.cap:
            points.append(_crossing(section, points[-1], here, section.cap))
            break
        points.append(here)
    else:
        last = points[-1]
        points.append(Point(section.cap, last.moment, last.phi, last.strain, last.c))
    points.append(Point(section.cap, 0.0, points[-1].phi, points[-1].strain, points[-1].c))
    return points


def _crossing(section: Section, below: Point, above: Point, axial: float) -> Point:
    """The point between two of the curve's where the design axial load is `axial` (bisection on c)."""
    low, high = (below.c or section.height * 1e-6), above.c
    rising = above.axial >= below.axial
    for _ in range(60):
        middle = (low + high) / 2
        if (point(section, middle).axial < axial) == rising:
            low = middle
        else:
            high = middle
    found = point(section, (low + high) / 2)
    return Point(axial, found.moment, found.phi, found.strain, found.c)


def moment_at_axial(section: Section, points: list[Point], axial: float) -> Point | None:
    """The design point whose axial load is `axial` (the least moment where the curve crosses it more than once);
    None beyond the curve's ends."""
    if not points[0].axial <= axial <= section.cap:
        return None
    found: list[Point] = []
    for below, above in zip(points[1:-2], points[2:-1], strict=True):
        if (below.axial - axial) * (above.axial - axial) <= 0 and below.axial != above.axial:
            found.append(_crossing(section, below, above, axial))
    if not found:  # between pure tension and the first sampled point: along the straight segment
        share = (axial - points[0].axial) / (points[1].axial - points[0].axial)
        return Point(axial, points[1].moment * share, points[1].phi, points[1].strain, points[1].c)
    return min(found, key=lambda p: p.moment)


def radial_ratio(points: list[Point], axial: float, moment: float) -> float:
    """The load over the strength at the same eccentricity: |(P, M)| / |(P, M) on the curve| along the ray from
    the origin through the load."""
    if axial == 0 and moment == 0:
        return 0.0
    best = math.inf
    for start, end in zip(points, points[1:], strict=False):
        reach = ray_reach((moment, axial), (start.moment, start.axial), (end.moment, end.axial))
        if reach is not None:
            best = min(best, reach)
    return 1 / best if best > 0 else math.inf


def ray_reach(ray: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float | None:
    """t where t·ray meets segment a–b (t > 0), or None."""
    (rx, ry), (ax, ay), (bx, by) = ray, a, b
    ex, ey = bx - ax, by - ay
    denominator = rx * ey - ry * ex
    if abs(denominator) < 1e-30:
        return None
    t = (ax * ey - ay * ex) / denominator
    s = (ax * ry - ay * rx) / denominator
    return t if t > 0 and -1e-9 <= s <= 1 + 1e-9 else None
