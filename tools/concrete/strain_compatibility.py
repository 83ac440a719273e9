"""A rectangular section's axial force and moment by strain compatibility, for either code's stress block.

Plane sections; the concrete's compression as a uniform stress over a depth `block.depth_factor × c` (at most h);
the bars elastic–perfectly plastic; the concrete a bar displaces inside the block deducted from its force. The code
modules give the block (ACI 318-19 22.2.2: 0.85 f'c over β1 c, εcu 0.003; EN 1992-1-1 3.1.7(3): η fcd over λ x,
εcu3, with the pivot of 6.1(5) at εc2 once the whole section is in compression). SI base units; compression and
compressive strains positive; moments about the section's mid-depth.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Block:
    """The concrete's stress block and the steel's law."""

    stress: float  # uniform stress of the block: 0.85 f'c, or η fcd
    depth_factor: float  # β1, or λ
    ultimate_strain: float  # εcu at the extreme fibre while the neutral axis is within the section
    steel_yield: float  # fy, or fyd
    steel_modulus: float
    pivot_strain: float | None = None  # EN: εc2 at (1 − εc2/εcu) h once the whole section is in compression


@dataclass(frozen=True)
class Layer:
    """A row of bars: its depth from the compression face and its area."""

    depth: float
    area: float


@dataclass(frozen=True)
class Forces:
    """The section's resultant for one neutral-axis depth c."""

    c: float
    axial: float
    moment: float
    extreme_strain: float  # tensile strain of the deepest layer (positive in tension)
    stresses: tuple[float, ...]  # each layer's stress, compression positive


def strain_at(depth: float, c: float, h: float, block: Block) -> float:
    """The compressive strain at `depth` for neutral-axis depth `c` (beyond h, about the pivot for EN)."""
    if block.pivot_strain is None or c <= h:
        return block.ultimate_strain * (c - depth) / c
    pivot = (1 - block.pivot_strain / block.ultimate_strain) * h
    return block.pivot_strain * (c - depth) / (c - pivot)


def forces(c: float, width: float, h: float, layers: tuple[Layer, ...], block: Block) -> Forces:
    """N and M (about h/2) of the section for neutral-axis depth c > 0."""
    a = min(block.depth_factor * c, h)
    concrete = block.stress * a * width
    axial, moment = concrete, concrete * (h / 2 - a / 2)
    stresses = []
    for layer in layers:
        strain = strain_at(layer.depth, c, h, block)
        stress = max(-block.steel_yield, min(block.steel_yield, block.steel_modulus * strain))
        net = stress - block.stress if layer.depth < a else stress  # the concrete the bar displaces
        axial += net * layer.area
        moment += net * layer.area * (h / 2 - layer.depth)
        stresses.append(stress)
    deepest = max(layers, key=lambda layer: layer.depth)
    return Forces(c, axial, moment, -strain_at(deepest.depth, c, h, block), tuple(stresses))


def depth_for_axial(target: float, width: float, h: float, layers: tuple[Layer, ...], block: Block) -> Forces:
    """The neutral-axis depth at which the section carries axial force `target` (bisection; N rises with c)."""
    low, high = h * 1e-6, h
    while forces(high, width, h, layers, block).axial < target and high < 1e4 * h:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if forces(middle, width, h, layers, block).axial < target:
            low = middle
        else:
            high = middle
        if high - low < h * 1e-10:
            break
    return forces((low + high) / 2, width, h, layers, block)


def tension_capacity(layers: tuple[Layer, ...], block: Block) -> float:
    """The section's axial strength in pure tension: every bar yielding (negative, as a compression is positive)."""
    return -block.steel_yield * sum(layer.area for layer in layers)
