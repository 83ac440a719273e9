"""Eccentrically loaded fillet weld groups by the instantaneous centre method of AISC 360-22 J2.4(b)(2), as the Manual
(16th ed.) tabulates it in Tables 8-4 to 8-11. Lengths in m, stresses in Pa."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from tools.codes.aisc360.instant_centre import group_strength

Line = tuple[tuple[float, float], tuple[float, float]]
ELEMENTS_A_LINE = 20
SIXTEENTH = 0.0254 / 16  # m


def ultimate_deformation(theta_degrees: float, size: float) -> float:
    """J2.4(b)(2) eq. J2-8: Δui = 1.087 (θi + 6)^−0.65 w ≤ 0.17w."""
    return float(min(1.087 * (theta_degrees + 6) ** -0.65, 0.17)) * size


def peak_deformation(theta_degrees: float, size: float) -> float:
    """J2.4(b)(2) eq. J2-9: Δmi = 0.209 (θi + 2)^−0.32 w, the deformation at the element's greatest stress."""
    return float(0.209 * (theta_degrees + 2) ** -0.32) * size


def stress_factor(p: float) -> float:
    """J2.4(b)(2) eq. J2-7: f(pi) = [pi (1.9 − 0.9 pi)]^0.3, pi = Δi/Δmi."""
    return float(max(p * (1.9 - 0.9 * p), 0.0) ** 0.3)


def c_shape(length: float, returns: float) -> list[Line]:
    """A line of `length` along y and, when `returns` > 0, a return of that length at each end toward +x."""
    top, bottom = (0.0, length / 2), (0.0, -length / 2)
    lines: list[Line] = [(bottom, top)]
    if returns > 0:
        lines += [(top, (returns, length / 2)), (bottom, (returns, -length / 2))]
    return lines


def elements(lines: Sequence[Line]) -> list[tuple[float, float, float, float, float]]:
    """(x, y, length, axis x, axis y) of the lines' elements, about the group's centroid."""
    found = []
    for (x1, y1), (x2, y2) in lines:
        run = math.hypot(x2 - x1, y2 - y1)
        for k in range(ELEMENTS_A_LINE):
            share = (k + 0.5) / ELEMENTS_A_LINE
            found.append((x1 + (x2 - x1) * share, y1 + (y2 - y1) * share, run / ELEMENTS_A_LINE, (x2 - x1) / run,
                          (y2 - y1) / run))  # fmt: skip
    total = sum(element[2] for element in found)
    cx, cy = (sum(e[0] * e[2] for e in found) / total, sum(e[1] * e[2] for e in found) / total)
    return [(x - cx, y - cy, run, ax, ay) for x, y, run, ax, ay in found]


@lru_cache(maxsize=512)
def coefficient(lines: tuple[Line, ...], ex: float, theta: float, length: float) -> float:
    """The Manual's C (Tables 8-4 to 8-11): Rn/(C1 D l) in kips per sixteenth of an inch per inch of l, for E70XX,
    without φ, of welds along `lines` loaded at the angle θ (radians) from y through (ex, 0) about the centroid.
    Kept for the group's geometry: C does not depend on the loads."""
    parts = elements(lines)
    size = 1.0  # leg w: the deformations scale with it, so C does not depend on it
    unit = 0.60 * 70 / 16 / math.sqrt(2)  # kip/in per sixteenth: 0.60 FEXX × the throat of a 1/16 in leg

    def strengths(x0: float, y0: float) -> list[tuple[float, float, float]]:
        data = []
        for x, y, run, ax, ay in parts:
            rx, ry = x - x0, y - y0
            radius = math.hypot(rx, ry)
            cosine = min(abs(rx * ay - ry * ax) / radius, 1.0)  # the force (across the radius) to the weld's axis
            data.append((radius, rx, ry, math.degrees(math.acos(cosine)), 1 - cosine * cosine, run))
        critical = min(ultimate_deformation(d[3], size) / d[0] for d in data)
        return [
            (unit * (1 + 0.5 * sine_squared**0.75) * stress_factor(critical * radius / peak_deformation(th, size))
             * run, rx, ry)
            for radius, rx, ry, th, sine_squared, run in data
        ]  # fmt: skip

    scale = max(math.hypot(e[0], e[1]) for e in parts) * 2
    polar = sum((e[0] ** 2 + e[1] ** 2) * e[2] for e in parts) / sum(e[2] for e in parts)
    return group_strength(strengths, abs(ex), theta, scale, polar / max(abs(ex), 1e-12)) / length
