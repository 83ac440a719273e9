"""The instantaneous centre of rotation of an eccentrically loaded group of fasteners or weld elements (AISC Manual
Part 7, Crawford and Kulak; Part 8 and AISC 360-22 J2.4(b)(2)). Plain numbers in any consistent length unit.

The load P acts along the unit direction d = (sin θ, cos θ), θ measured from the y axis, through the point (ex, 0) of
the group's own axes (origin at the centroid). The centre is sought at s along the normal from the load's line
through the centroid and t along d: for each s, t makes the elements' resultant parallel to d; then s makes it equal
to P = Σ Ri ri / (distance from the centre to the load's line). The nearest root to the group is taken, by stepping
outward from it and refining in the bracket found (a Newton search from the elastic centre can run off to the
root at infinity, pure translation, which some weld groups have beside the true one).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

# Given the centre (x0, y0), the strength of each element: (R, x − x0, y − y0).
Strengths = Callable[[float, float], Sequence[tuple[float, float, float]]]
_STEP = 1.5
_FARTHEST = 1e5  # sizes of the group: beyond this the centre is at infinity and the load concentric


def group_strength(strengths: Strengths, ex: float, theta: float, size: float, start: float) -> float:
    """P, the load the group carries at the eccentricity ex and angle θ (radians), in the units of R; `start` is where
    to begin the search along the normal (the elastic centre's distance: J / (n e))."""
    direction = (math.sin(theta), math.cos(theta))
    foot = (ex - ex * direction[0] ** 2, -ex * direction[0] * direction[1])
    offset = math.hypot(*foot)
    if offset < 1e-9 * size:
        return _translation(strengths, direction, size)
    frame = (direction, (-foot[0] / offset, -foot[1] / offset), ex, offset)
    s = max(0.3 * start, 1e-4 * size)
    t, residual, load = _balanced(strengths, frame, s, 0.0, size)
    while residual >= 0 and s > 1e-4 * size:  # begun beyond the root: step in until the residual turns
        s_in = s / _STEP
        t, inner, inner_load = _balanced(strengths, frame, s_in, t, size)
        if inner < 0:
            return _refine(strengths, frame, (s_in, s), (inner, residual), t, size)
        s, residual, load = s_in, inner, inner_load
    while s < _FARTHEST * size:
        s_out = s * _STEP
        t, outer, load = _balanced(strengths, frame, s_out, t, size)
        if residual < 0 <= outer:
            return _refine(strengths, frame, (s, s_out), (residual, outer), t, size)
        s, residual = s_out, outer
    return load


def _state(strengths: Strengths, frame: tuple[tuple[float, float], tuple[float, float], float, float],
           s: float, t: float) -> tuple[float, float, float]:  # fmt: skip
    """The elements' resultant across and along d, and P from the moment about the centre (s, t)."""
    (dx, dy), (nx, ny), ex, offset = frame
    x0, y0 = s * nx + t * dx, s * ny + t * dy
    sense = math.copysign(1.0, (ex - x0) * dy + y0 * dx)
    across = along = moment = 0.0
    for strength, rx, ry in strengths(x0, y0):
        radius = math.hypot(rx, ry)
        ux, uy = -ry / radius * sense, rx / radius * sense
        across += strength * (ux * nx + uy * ny)
        along += strength * (ux * dx + uy * dy)
        moment += strength * radius
    return across, along, moment / (s + offset)


def _balanced(strengths: Strengths, frame: tuple[tuple[float, float], tuple[float, float], float, float],
              s: float, t: float, size: float) -> tuple[float, float, float]:  # fmt: skip
    """t for which the resultant is parallel to the load (secant steps), the residual along it, and P."""
    across, along, load = _state(strengths, frame, s, t)
    if abs(across) <= 1e-5 * max(load, 1e-30):
        return t, along - load, load
    previous, trial = (t, across), t + 1e-3 * size
    for _ in range(25):
        across, along, load = _state(strengths, frame, s, trial)
        if abs(across) <= 1e-5 * max(load, 1e-30) or across == previous[1]:
            break
        trial, previous = trial - across * (trial - previous[0]) / (across - previous[1]), (trial, across)
    return trial, along - load, load


def _refine(strengths: Strengths, frame: tuple[tuple[float, float], tuple[float, float], float, float],
            bracket: tuple[float, float], residuals: tuple[float, float], t: float, size: float) -> float:  # fmt: skip
    """Regula falsi alternating with bisection inside the bracket where the residual changes sign."""
    (low, high), (below, above) = bracket, residuals
    load = 0.0
    for step in range(80):
        middle = low - below * (high - low) / (above - below) if step % 2 == 0 else (low + high) / 2
        t, residual, load = _balanced(strengths, frame, middle, t, size)
        if abs(residual) <= 1e-6 * load or high - low <= 1e-9 * size:
            break
        if residual < 0:
            low, below = middle, residual
        else:
            high, above = middle, residual
    return load


def _translation(strengths: Strengths, direction: tuple[float, float], size: float) -> float:
    """A load through the centroid: the centre at infinity across the load, every element displaced alike."""
    far = _FARTHEST * size
    x0, y0 = -direction[1] * far, direction[0] * far
    return sum(strength for strength, _, _ in strengths(x0, y0))
