"""How the moment varies along an unbraced segment: AISC's Cb and Eurocode's C1.

Both take the segment's moment diagram as a function of position. Cb is AISC 360-22
eq. F1-1 from the quarter-point moments. C1 (for the elastic critical moment M_cr,
end restraints k = kw = 1) uses the closed form of López, Yong and Serna (2006), which
reproduces the tabulated C1 values (1.13 for a parabola, 1.77 for a triangle with one
zero end) within 1 %.
"""

from __future__ import annotations

from collections.abc import Callable

Moment = Callable[[float], float]
SAMPLES = 200


def peak(moment: Moment, start: float, end: float) -> float:
    """The largest absolute moment on [start, end], sampled finely."""
    return max(abs(moment(start + (end - start) * i / SAMPLES)) for i in range(SAMPLES + 1))


def quarter_points(moment: Moment, start: float, end: float) -> list[float]:
    """|M| at the segment's ends and quarter points: M1 … M5."""
    return [abs(moment(start + (end - start) * i / 4)) for i in range(5)]


def aisc_cb(moment: Moment, start: float, end: float) -> float:
    """Cb = 12.5 Mmax / (2.5 Mmax + 3 MA + 4 MB + 3 MC)  (AISC 360-22 eq. F1-1)."""
    m_max = peak(moment, start, end)
    if m_max == 0:
        return 1.0
    _, m_a, m_b, m_c, _ = quarter_points(moment, start, end)
    return 12.5 * m_max / (2.5 * m_max + 3 * m_a + 4 * m_b + 3 * m_c)


def eurocode_c1(moment: Moment, start: float, end: float) -> float:
    """C1 = 1 / √A1 with A1 = (Mmax² + 5 M2² + 10 M3² + 5 M4²) / (21 Mmax²)  (López, Yong, Serna 2006, k = 1)."""
    m_max = peak(moment, start, end)
    if m_max == 0:
        return 1.0
    _, m2, m3, m4, _ = quarter_points(moment, start, end)
    a1 = (m_max**2 + 5 * m2**2 + 10 * m3**2 + 5 * m4**2) / (21 * m_max**2)
    return float(a1**-0.5)
