"""A doubly symmetric I shape as the design codes see it: SI base units (m, m², m³, m⁴, m⁶) from any table."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.shapes.tables import Shape
from tools.units import registry


@dataclass(frozen=True)
class IMember:
    """The figures the member checks use, in metres; `k_design` is the flange-to-web-toe distance."""

    designation: str
    system: str
    area: float
    depth: float
    width: float
    web: float
    flange: float
    root_radius: float
    k_design: float
    I_major: float
    I_minor: float
    S_major: float
    S_minor: float
    Z_major: float
    r_minor: float
    J: float
    warping: float
    r_ts: float
    h_o: float

    @property
    def aisc_h(self) -> float:
        """h for h/tw in AISC 360-22 (rolled shapes): the clear distance between flanges less the fillets."""
        return self.depth - 2 * self.k_design

    @property
    def web_flat(self) -> float:
        """c of the web in EN 1993-1-1 Table 5.2: h − 2tf − 2r."""
        return self.depth - 2 * self.flange - 2 * self.root_radius

    @property
    def flange_outstand(self) -> float:
        """c of a flange outstand in EN 1993-1-1 Table 5.2: (b − tw − 2r) / 2."""
        return (self.width - self.web - 2 * self.root_radius) / 2


def i_member(shape: Shape) -> IMember:
    """The I shape's table figures in SI base units; properties a table lacks follow from the others."""
    ureg = registry()
    values = {key: (value * ureg.parse_units(shape.unit(key))).to_base_units().magnitude
              for key, value in shape.properties.items()}  # fmt: skip
    tf, depth = values["flange_thickness"], values["depth"]
    k_design = values.get("k_design") or tf + values.get("root_radius", 0.0)
    root = values.get("root_radius", max(k_design - tf, 0.0))
    h_o = values.get("h_o") or depth - tf
    r_ts = values.get("r_ts") or math.sqrt(
        math.sqrt(values["I_minor"] * values["warping_constant"]) / values["S_major"]
    )
    return IMember(
        designation=shape.designation,
        system=shape.system,
        area=values["area"],
        depth=depth,
        width=values["width"],
        web=values["web_thickness"],
        flange=tf,
        root_radius=root,
        k_design=k_design,
        I_major=values["I_major"],
        I_minor=values["I_minor"],
        S_major=values["S_major"],
        S_minor=values["S_minor"],
        Z_major=values["Z_major"],
        r_minor=values["r_minor"],
        J=values["J"],
        warping=values["warping_constant"],
        r_ts=r_ts,
        h_o=h_o,
    )
