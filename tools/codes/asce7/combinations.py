"""ASCE/SEI 7 basic load combinations without roof live, rain or earthquake loads: strength design (§2.3.1) and
allowable stress design (§2.4.1), in the 2022 and 2016 editions. Each is (name, factors on D, L, S, W); one is used
when every load it names was given.

ASCE 7-22 maps strength-level snow loads: the leading snow factor is 1.0 (LRFD) and 0.7 (ASD), where ASCE 7-16's
snow loads take 1.6 and 1.0; the companion 0.5S of ASCE 7-16 (LRFD) becomes 0.3S."""

from __future__ import annotations

Combination = tuple[str, dict[str, float]]

LRFD_2022: list[Combination] = [
    ("1.4D", {"D": 1.4}),
    ("1.2D + 1.6L", {"D": 1.2, "L": 1.6}),
    ("1.2D + 1.6L + 0.3S", {"D": 1.2, "L": 1.6, "S": 0.3}),
    ("1.2D + 1.0S + 1.0L", {"D": 1.2, "S": 1.0, "L": 1.0}),
    ("1.2D + 1.0S + 0.5W", {"D": 1.2, "S": 1.0, "W": 0.5}),
    ("1.2D + 1.0W + 1.0L", {"D": 1.2, "W": 1.0, "L": 1.0}),
    ("1.2D + 1.0W + 1.0L + 0.3S", {"D": 1.2, "W": 1.0, "L": 1.0, "S": 0.3}),
    ("0.9D + 1.0W", {"D": 0.9, "W": 1.0}),
]
LRFD_2016: list[Combination] = [
    ("1.4D", {"D": 1.4}),
    ("1.2D + 1.6L", {"D": 1.2, "L": 1.6}),
    ("1.2D + 1.6L + 0.5S", {"D": 1.2, "L": 1.6, "S": 0.5}),
    ("1.2D + 1.6S + 1.0L", {"D": 1.2, "S": 1.6, "L": 1.0}),
    ("1.2D + 1.6S + 0.5W", {"D": 1.2, "S": 1.6, "W": 0.5}),
    ("1.2D + 1.0W + 1.0L", {"D": 1.2, "W": 1.0, "L": 1.0}),
    ("1.2D + 1.0W + 1.0L + 0.5S", {"D": 1.2, "W": 1.0, "L": 1.0, "S": 0.5}),
    ("0.9D + 1.0W", {"D": 0.9, "W": 1.0}),
]
ASD_2022: list[Combination] = [
    ("D", {"D": 1.0}),
    ("D + L", {"D": 1.0, "L": 1.0}),
    ("D + 0.7S", {"D": 1.0, "S": 0.7}),
    ("D + 0.75L + 0.525S", {"D": 1.0, "L": 0.75, "S": 0.525}),
    ("D + 0.6W", {"D": 1.0, "W": 0.6}),
    ("D + 0.75L + 0.45W", {"D": 1.0, "L": 0.75, "W": 0.45}),
    ("D + 0.75L + 0.45W + 0.525S", {"D": 1.0, "L": 0.75, "W": 0.45, "S": 0.525}),
    ("0.6D + 0.6W", {"D": 0.6, "W": 0.6}),
]
ASD_2016: list[Combination] = [
    ("D", {"D": 1.0}),
    ("D + L", {"D": 1.0, "L": 1.0}),
    ("D + S", {"D": 1.0, "S": 1.0}),
    ("D + 0.75L + 0.75S", {"D": 1.0, "L": 0.75, "S": 0.75}),
    ("D + 0.6W", {"D": 1.0, "W": 0.6}),
    ("D + 0.75L + 0.45W", {"D": 1.0, "L": 0.75, "W": 0.45}),
    ("D + 0.75L + 0.45W + 0.75S", {"D": 1.0, "L": 0.75, "W": 0.45, "S": 0.75}),
    ("0.6D + 0.6W", {"D": 0.6, "W": 0.6}),
]
SETS = {
    "ASCE7-LRFD": (LRFD_2022, "ASCE 7-22 §2.3.1", "strength-level snow (ASCE 7-22 Chapter 7), factor 1.0 leading"),
    "ASCE7-16-LRFD": (LRFD_2016, "ASCE 7-16 §2.3.1", "ASCE 7-16's snow load (Chapter 7, 50-year), factor 1.6"),
    "ASCE7-ASD": (ASD_2022, "ASCE 7-22 §2.4.1", "strength-level snow (ASCE 7-22 Chapter 7), factor 0.7"),
    "ASCE7-16-ASD": (ASD_2016, "ASCE 7-16 §2.4.1", "ASCE 7-16's snow load (Chapter 7, 50-year), factor 1.0"),
}


def applicable(code: str, given: set[str]) -> list[Combination]:
    """The combinations of `code` whose loads were all given (by letter: D, L, S, W)."""
    return [(name, factors) for name, factors in SETS[code][0] if set(factors) <= given]
