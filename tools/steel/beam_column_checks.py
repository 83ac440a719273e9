"""The two code checks behind `steel_beam_column_check`: AISC 360-22 H1.1 and EN 1993-1-1 6.3.3 (Annex B).

Each takes the section, the lengths (major-axis and minor-axis effective lengths, the laterally
unbraced length, m), the factored loads (N, My, Mz in N and N·m) and the grade, and returns a
`BeamColumn`: the interaction ratio, the equation that governs, the design strengths and every
check with its clause. The moment is taken as uniform along the member (Cb = C1 = Cm = 1.0, the
cautious values). SI base units throughout.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.calculations import Check
from tools.codes.aisc360 import combined as aisc_combined
from tools.codes.aisc360 import compression as aisc_compression
from tools.codes.aisc360.strength import Strength
from tools.codes.en1993_1_1 import combined as en_combined
from tools.codes.en1993_1_1 import compression as en_compression
from tools.codes.en1993_1_1 import resistance as en_resistance
from tools.shapes.column_section import ColumnSection
from tools.steel.readout import limit_check, share_check, shown
from tools.units.showing import System

Loads = tuple[float, float, float]
Spans = tuple[float, float, float]
# Uniform moment along the member: the cautious values of Cb (AISC F1), C1 (M_cr) and Cm, CmLT (EN Table B.3)
CB = C1 = CM = 1.0


@dataclass
class BeamColumn:
    """What a code check found, in SI base units."""

    ratio: float
    equation: str
    design_axial: float
    design_major: float
    design_minor: float
    grade: str
    substituted: str
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    formula: str = ""
    reference: str = ""
    extra: dict[str, str] = field(default_factory=dict)
    not_checked: list[str] = field(default_factory=list)
    covers: str = ""


AISC_NOT_CHECKED = [
    "shear (Chapter G)",
    "web local yielding and crippling under concentrated loads (J10)",
    "torsion (H3)",
]
EN_NOT_CHECKED = [
    "shear (6.2.6) and its effect on the moment resistance (6.2.10)",
    "torsion",
]


def aisc(
    section: ColumnSection, spans: Spans, loads: Loads, grade: tuple[str, float], how: tuple[str, System]
) -> BeamColumn:
    """H1.1 with Pc from Chapter E, Mcx from F2/F3 and Mcy from F6, for LRFD or ASD."""
    (method, system), (name, fy), member = how, grade, section.member
    assert member is not None
    axial = aisc_compression.compressive_strength(section, fy, spans[0], spans[1], spans[1])
    major = aisc_combined.major_axis(member, fy, spans[2], CB)
    minor = aisc_combined.minor_axis(member, section.Z_y, fy)
    strengths = (axial.design(method), *(aisc_combined.governing(m).design(method) for m in (major, minor)))
    found = aisc_combined.interaction(*zip(loads, strengths, strict=True))
    design = "φ{}n" if method == "LRFD" else "{}n/Ω"
    checks = [share_check(_h1_name(found), found.ratio, f"AISC 360-22 H1.1 eq. {found.equation}")]
    demand = "Pu" if method == "LRFD" else "Pa"
    name_p = f"{demand} ≤ {design.format('P')}: {axial.governing.name} (Lc/r = {axial.governing.slenderness:.1f})"
    checks.append(limit_check(name_p, loads[0], strengths[0], "force", system, axial.clause))
    for axis, limits, required in (("x", major, loads[1]), ("y", minor, loads[2])):
        checks += [_moment_check(limit, axis, method, required, system) for limit in limits]
    pc, mc = design.format("P"), design.format("M")
    return BeamColumn(
        ratio=found.ratio,
        equation=found.equation,
        design_axial=strengths[0],
        design_major=strengths[1],
        design_minor=strengths[2],
        grade=f"{name} (Fy = {shown(fy, 'stress', 'US')})",
        substituted=_h1_substitution(found, loads, strengths, system),
        checks=checks,
        notes=_aisc_notes(axial),
        formula=f"AISC 360-22 H1-1a: Pr/Pc + 8/9 (Mrx/Mcx + Mry/Mcy) ≤ 1.0 when Pr/Pc ≥ 0.2; H1-1b: Pr/(2Pc) + "
        f"(Mrx/Mcx + Mry/Mcy) ≤ 1.0 otherwise; Pc = {pc} (Chapter E), Mc = {mc} (Chapter F)",
        reference=f"AISC 360-22 Chapters E, F (F2, F3, F6) and H1.1 ({method}); E = 29,000 ksi",
        not_checked=AISC_NOT_CHECKED,
        covers="axial compression with bending about both axes (H1.1), the member's buckling and each moment's "
        "limit states (Chapters E and F)",
    )


def _h1_name(found: aisc_combined.Interaction) -> str:
    if found.equation == "H1-1a":
        return f"Pr/Pc + 8/9 (Mrx/Mcx + Mry/Mcy) ≤ 1.0 (Pr/Pc = {found.axial_share:.3f} ≥ 0.2)"
    return f"Pr/(2Pc) + (Mrx/Mcx + Mry/Mcy) ≤ 1.0 (Pr/Pc = {found.axial_share:.3f} < 0.2)"


def _moment_check(limit: Strength, axis: str, method: str, required: float, system: System) -> Check:
    demand = f"Mu{axis}" if method == "LRFD" else f"Ma{axis}"
    capacity = f"φMn{axis}" if method == "LRFD" else f"Mn{axis}/Ω"
    detail = f" ({limit.detail})" if limit.detail else ""
    name = f"{demand} ≤ {capacity}: {limit.limit_state}{detail}"
    return limit_check(name, required, limit.design(method), "moment", system, limit.clause)


def _h1_substitution(
    found: aisc_combined.Interaction, loads: Loads, strengths: tuple[float, ...], system: System
) -> str:
    p, pc = (shown(value, "force", system) for value in (loads[0], strengths[0]))
    mx, mcx, my, mcy = (shown(v, "moment", system) for v in (loads[1], strengths[1], loads[2], strengths[2]))
    terms = f"{mx}/{mcx} + {my}/{mcy}"
    share = f"{found.axial_share:.3f}"
    equation = f"{share} + 8/9 ({terms})" if found.equation == "H1-1a" else f"{share}/2 + ({terms})"
    return f"Pr/Pc = {p}/{pc} = {share}; {found.equation}: {equation} = {found.ratio:.3f}"


def _aisc_notes(axial: aisc_compression.AxialStrength) -> list[str]:
    notes = [
        "The loads are required strengths from a second-order analysis (AISC 360-22 Chapter C); no amplification "
        "(B1, B2) is added here.",
        "Cb = 1.0: a uniform moment between braces is assumed, the cautious value (F1); a moment gradient would "
        "raise the lateral-torsional buckling strength.",
    ]
    if axial.slender:
        notes.append(f"Slender elements for compression: {'; '.join(axial.slender)}; E7 effective area applies.")
    return notes


@dataclass(frozen=True)
class _Member:
    """The figures of 6.3.3 for one member and load: resistances, shares of them and Annex B's factors."""

    klass: int
    detail: str
    y: en_compression.FlexuralBuckling
    z: en_compression.FlexuralBuckling
    torsional: en_compression.FlexuralBuckling
    ltb: en_resistance.Buckling
    mz_rd: float
    k: en_combined.Factors
    results: dict[str, float]


def eurocode(
    section: ColumnSection, spans: Spans, loads: Loads, grade: tuple[str, float], system: System
) -> BeamColumn:
    """6.3.3(4), eq. 6.61 and 6.62 with Annex B (Table B.2), and the cross-section to 6.2.9."""
    name, fy = grade
    figures = _member(section, spans, loads, grade)
    equation = max(figures.results, key=lambda key: figures.results[key])
    return BeamColumn(
        ratio=figures.results[equation],
        equation=equation,
        design_axial=min(figures.y.resistance, figures.z.resistance),
        design_major=figures.ltb.resistance,
        design_minor=figures.mz_rd,
        grade=f"{name} (fy = {shown(fy, 'stress', 'SI')})",
        substituted=_annex_b_substitution(figures, loads, system),
        checks=_eurocode_checks(figures, loads, system),
        notes=_eurocode_notes(section),
        formula="6.61: N_Ed/(χy N_Rk/γM1) + k_yy M_y,Ed/(χLT M_y,Rk/γM1) + k_yz M_z,Ed/(M_z,Rk/γM1) ≤ 1; 6.62: the "
        "same with χz, k_zy and k_zz; k from Annex B Table B.2, Cm from Table B.3",
        reference="EN 1993-1-1:2005+A1:2014, 5.5, 6.2.9, 6.3.1, 6.3.2.3, 6.3.3 and Annex B (Method 2); E = 210 GPa, "
        "G = 81 GPa",
        extra={"section_class": str(figures.klass)},
        not_checked=EN_NOT_CHECKED,
        covers="compression with bending about both axes: flexural and lateral-torsional buckling (6.3.3, Annex B), "
        "torsional buckling under the axial load (6.3.1.4) and the cross-section (6.2.9)",
    )


def _member(section: ColumnSection, spans: Spans, loads: Loads, grade: tuple[str, float]) -> _Member:
    member, (axial, my, mz), fy = section.member, loads, grade[1]
    assert member is not None
    klass, detail = en_combined.section_class(member, fy, axial, my)
    if klass == 4:
        raise ValueError(
            f"{member.designation} is Class 4 under this load ({detail}); effective sections (EN 1993-1-5) under "
            "bending and compression are not covered"
        )
    w_y, w_z = (member.Z_major, section.Z_y) if klass <= 2 else (member.S_major, member.S_minor)
    y, z, torsional = en_compression.buckling(member, grade, (spans[0], spans[1], spans[1]), area=member.area)
    ltb = en_resistance.buckling_resistance(member, fy, w_y, spans[2], C1)
    mz_rd = w_z * fy / en_resistance.GAMMA_M1
    n_y, n_z = axial / y.resistance, axial / z.resistance
    k = en_combined.interaction_factors(klass, (y.slenderness, z.slenderness), (n_y, n_z), (CM, CM, CM))
    if klass <= 2:
        cross = {"6.41" if my and mz else "6.31": en_combined.plastic_cross_section(member, fy, section.Z_y, loads)}
    else:
        cross = {"6.42": en_combined.elastic_cross_section(member, fy, loads)}
    results = {
        "6.61": n_y + k.kyy * my / ltb.resistance + k.kyz * mz / mz_rd,
        "6.62": n_z + k.kzy * my / ltb.resistance + k.kzz * mz / mz_rd,
        **cross,
    }
    return _Member(klass, detail, y, z, torsional, ltb, mz_rd, k, results)


def _eurocode_checks(figures: _Member, loads: Loads, system: System) -> list[Check]:
    k, (equation_cross, cross) = figures.k, list(figures.results.items())[2]
    checks = [
        share_check(
            f"N_Ed/N_b,y,Rd + k_yy M_y,Ed/M_b,Rd + k_yz M_z,Ed/M_z,Rd ≤ 1 (k_yy = {k.kyy:.3f}, k_yz = {k.kyz:.3f})",
            figures.results["6.61"],
            "EN 1993-1-1 6.3.3(4) eq. 6.61, Annex B Table B.2",
        ),
        share_check(
            f"N_Ed/N_b,z,Rd + k_zy M_y,Ed/M_b,Rd + k_zz M_z,Ed/M_z,Rd ≤ 1 (k_zy = {k.kzy:.3f}, k_zz = {k.kzz:.3f})",
            figures.results["6.62"],
            "EN 1993-1-1 6.3.3(4) eq. 6.62, Annex B Table B.2",
        ),
        share_check(
            f"cross-section under N_Ed, M_y,Ed and M_z,Ed (Class {figures.klass}, {figures.detail})",
            cross,
            f"EN 1993-1-1 6.2.9 eq. {equation_cross}",
        ),
    ]
    for mode in (figures.y, figures.z, figures.torsional):
        kind = "torsional buckling" if mode.axis == "torsional" else f"flexural buckling about {mode.axis}"
        name = f"N_Ed ≤ N_b,Rd: {kind} (λ̄ = {mode.slenderness:.3f}, curve {mode.curve}, χ = {mode.chi:.3f})"
        clause = "EN 1993-1-1 6.3.1.4" if mode.axis == "torsional" else "EN 1993-1-1 6.3.1"
        checks.append(limit_check(name, loads[0], mode.resistance, "force", system, clause))
    ltb = figures.ltb
    name = f"M_y,Ed ≤ M_b,Rd (M_cr = {shown(ltb.m_cr, 'moment', system)}, λ̄_LT = {ltb.slenderness:.3f}, "
    name += f"curve {ltb.curve}, χ_LT = {ltb.chi:.3f})"
    checks.append(limit_check(name, loads[1], ltb.resistance, "moment", system, "EN 1993-1-1 6.3.2.3"))
    minor = limit_check("M_z,Ed ≤ M_z,Rd", loads[2], figures.mz_rd, "moment", system, "EN 1993-1-1 6.2.5")
    return [*checks, minor]


def _annex_b_substitution(figures: _Member, loads: Loads, system: System) -> str:
    k, results = figures.k, figures.results
    in_plane = results["6.61"] >= results["6.62"]
    used, factors = ("6.61", (k.kyy, k.kyz)) if in_plane else ("6.62", (k.kzy, k.kzz))
    share = loads[0] / (figures.y if in_plane else figures.z).resistance
    my, mb, mz, mzr = (shown(v, "moment", system) for v in (loads[1], figures.ltb.resistance, loads[2], figures.mz_rd))
    cross_eq, cross = list(results.items())[2]
    return (
        f"eq. {used}: {share:.3f} + {factors[0]:.3f} × {my}/{mb} + {factors[1]:.3f} × {mz}/{mzr} = "
        f"{results[used]:.3f}; cross-section, eq. {cross_eq}: {cross:.3f}"
    )


def _eurocode_notes(section: ColumnSection) -> list[str]:
    notes = [
        "Recommended values γM0 = γM1 = 1.0, λLT,0 = 0.4, β = 0.75; the National Annex may differ.",
        "Non-sway member: the moments include any sway (P-Δ) effects of the frame; Annex B covers the member's own "
        "imperfections and P-δ. M_cr with the load at the shear centre.",
        "Uniform moment assumed: Cmy = Cmz = CmLT = 1.0 (Table B.3) and C1 = 1.0, the cautious values.",
    ]
    if section.system == "US":
        notes.append("An AISC shape checked to EN 1993: the grade named above is assumed (fy from Table 3.1).")
    return notes
