"""A strength to AISC 360-22: the nominal strength Rn with its resistance factor φ (LRFD) and safety factor Ω (ASD)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Strength:
    """A nominal strength with its factors and the clause it comes from."""

    nominal: float
    phi: float
    omega: float
    clause: str
    limit_state: str
    detail: str = ""

    def design(self, method: str) -> float:
        """φRn for LRFD, Rn/Ω for ASD."""
        return self.nominal * self.phi if method == "LRFD" else self.nominal / self.omega
