"""Section properties of a rolled I or H section from its dimensions, as the section tables compute them.

The European and British tables (ArcelorMittal's sales programme, SCI P363 "the Blue Book")
derive every property from five dimensions: depth h, width b, web tw, flange tf and root
radius r, with the four root fillets included. They differ in the torsion and warping
constants, and each family is computed as its own table does:

- European (ArcelorMittal): It by the ECCS formula, with the fillets' contribution
  2 (tw/tf)(0.145 + 0.1 r/tf) α⁴; Iw = tf b³ (h − tf)² / 24, the flanges alone.
- British (SCI P363): It with the fillet correction of El Darwish and Johnston;
  Iw = Iz (h − tf)² / 4.

Lengths in mm; results in mm², mm⁴, mm³, mm⁶.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

STEEL_DENSITY = 7850.0  # kg/m³: the density the tables use for the mass per metre (EN 10365)


@dataclass(frozen=True)
class RolledI:
    """A doubly symmetric rolled I section; all figures in mm-based units. `british`: computed as SCI P363
    computes it (otherwise as ArcelorMittal's European tables)."""

    h: float
    b: float
    tw: float
    tf: float
    r: float
    british: bool = False

    @property
    def fillet_area(self) -> float:
        """The area of one root fillet: the square r × r less a quarter circle."""
        return (1 - math.pi / 4) * self.r**2

    @property
    def fillet_offset(self) -> float:
        """How far one fillet's centroid lies from the web face and from the flange's inner face."""
        return self.r * (10 - 3 * math.pi) / (12 - 3 * math.pi)

    @property
    def fillet_inertia(self) -> float:
        """One fillet's second moment about its own centroid, parallel to a leg.

        About a leg, the square gives r⁴/3 and the quarter circle (centred on the far corner)
        πr⁴/16 + (πr²/4) r² − (πr²/4)(8r/3π) r = 5πr⁴/16 − 2r⁴/3, so the fillet r⁴(1 − 5π/16);
        less A ȳ² to its centroid."""
        return self.r**4 * (1 - 5 * math.pi / 16) - self.fillet_area * self.fillet_offset**2

    @property
    def area(self) -> float:
        return 2 * self.b * self.tf + (self.h - 2 * self.tf) * self.tw + 4 * self.fillet_area

    @property
    def fillet_lever_major(self) -> float:
        return self.h / 2 - self.tf - self.fillet_offset

    @property
    def fillet_lever_minor(self) -> float:
        return self.tw / 2 + self.fillet_offset

    @property
    def inertia_major(self) -> float:
        h, b, tw, tf = self.h, self.b, self.tw, self.tf
        plates = (b * h**3 - (b - tw) * (h - 2 * tf) ** 3) / 12
        return plates + 4 * (self.fillet_inertia + self.fillet_area * self.fillet_lever_major**2)

    @property
    def inertia_minor(self) -> float:
        plates = (2 * self.tf * self.b**3 + (self.h - 2 * self.tf) * self.tw**3) / 12
        return plates + 4 * (self.fillet_inertia + self.fillet_area * self.fillet_lever_minor**2)

    @property
    def plastic_major(self) -> float:
        h, b, tw, tf = self.h, self.b, self.tw, self.tf
        return b * tf * (h - tf) + tw * (h / 2 - tf) ** 2 + 4 * self.fillet_area * self.fillet_lever_major

    @property
    def plastic_minor(self) -> float:
        h, b, tw, tf = self.h, self.b, self.tw, self.tf
        return tf * b**2 / 2 + (h - 2 * tf) * tw**2 / 4 + 4 * self.fillet_area * self.fillet_lever_minor

    @property
    def torsion_constant(self) -> float:
        """It as the family's own table computes it (see the module's docstring)."""
        return self._torsion_sci() if self.british else self._torsion_eccs()

    def _torsion_eccs(self) -> float:
        """It = 2/3 (b − 0.63 tf) tf³ + 1/3 (h − 2tf) tw³ + 2 (tw/tf)(0.145 + 0.1 r/tf) α⁴,
        α = ((r + tw/2)² + (r + tf)² − r²) / (2r + tf): the ECCS formula of ArcelorMittal's tables."""
        h, b, tw, tf, r = self.h, self.b, self.tw, self.tf, self.r
        alpha = ((r + tw / 2) ** 2 + (r + tf) ** 2 - r**2) / (2 * r + tf)
        fillets = 2 * (tw / tf) * (0.145 + 0.1 * r / tf) * alpha**4
        return 2 / 3 * (b - 0.63 * tf) * tf**3 + (h - 2 * tf) * tw**3 / 3 + fillets

    def _torsion_sci(self) -> float:
        """It with the fillet correction of El Darwish and Johnston, as in SCI P363."""
        h, b, tw, tf, r = self.h, self.b, self.tw, self.tf, self.r
        alpha = -0.042 + 0.2204 * tw / tf + 0.1355 * r / tf - 0.0865 * r * tw / tf**2 - 0.0725 * tw**2 / tf**2
        d = ((tf + r) ** 2 + tw * (r + tw / 4)) / (2 * r + tf)
        return 2 / 3 * b * tf**3 + (h - 2 * tf) * tw**3 / 3 + 2 * alpha * d**4 - 0.420 * tf**4

    @property
    def warping_constant(self) -> float:
        """Iw about the shear centre: Iz hs²/4 in SCI P363; the flanges alone, tf b³ hs²/24, in ArcelorMittal's."""
        hs = self.h - self.tf
        if self.british:
            return self.inertia_minor * hs**2 / 4
        return self.tf * self.b**3 * hs**2 / 24

    @property
    def mass_per_metre(self) -> float:
        """kg/m."""
        return self.area * 1e-6 * STEEL_DENSITY
