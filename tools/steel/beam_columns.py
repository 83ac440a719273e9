"""`steel_beam_column_check`: a rolled I or H member under axial compression and bending about both axes.

AISC 360-22 H1.1 with the strengths of Chapters E and F (`aisc_compression`, `aisc_combined`),
or EN 1993-1-1 6.3.3 with Annex B (`en_compression`, `en_combined`). The loads are required
strengths, already factored, as an analysis gives them. Results are in the units of the inputs.
"""

from __future__ import annotations

from typing import Any

from domain.calculations import CalcResult
from tools.catalogue import tool
from tools.codes.national_annexes import national_annex as read_annex
from tools.shapes.column_section import column_section
from tools.steel import beam_column_checks
from tools.steel.beam_column_checks import BeamColumn
from tools.steel.column_inputs import aisc_grade, annex_note, en_grade, lengths
from tools.steel.readout import Kind, figures_result
from tools.steel.sections_and_checks import code_key, designation_and_grade
from tools.units import registry
from tools.units.reading import require
from tools.units.showing import System, system_of

TOOL = "steel_beam_column_check"


@tool("calculation", words=("column", "axial", "compression", "combined", "interaction", "biaxial", "h1"))
def steel_beam_column_check(
    designation: str,
    length: str,
    axial_load: str,
    moment_major: str,
    moment_minor: str = "0",
    code: str = "AISC360-LRFD",
    unbraced_length: str | None = None,
    length_weak: str | None = None,
    grade: str | None = None,
    national_annex: str | None = None,
) -> CalcResult:
    """I or H member in compression and bending to AISC 360-22 H1.1 or EN 1993-1-1 6.3.3, with clauses and OK/NG.
    Use it whenever a column carries moments.

    Args:
        designation: I or H shape, "W14X99".
        length: Major-axis K·L, "14 ft".
        axial_load: Factored compression, "400 kip".
        moment_major: Factored major-axis moment, "250 kip*ft".
        moment_minor: Factored minor-axis moment.
        code: AISC360-LRFD, AISC360-ASD or EN1993.
        unbraced_length: Laterally unbraced length; default length_weak.
        length_weak: Minor-axis K·L; default length.
        grade: "A992", "S355"…; omit for the usual.
        national_annex: EN1993: "UK".
    """
    code_name = code_key(code)
    annex = read_annex(national_annex)
    designation, grade = designation_and_grade(designation, grade)
    section = column_section(designation, TOOL)
    if section.member is None:
        raise ValueError(
            f"{TOOL} covers doubly symmetric rolled I and H shapes (W, M, S, HP, IPE, HE, UB); {section.designation} "
            f"is a {section.family} shape. Check its axial strength with steel_column_check and its bending by hand."
        )
    major, minor, braced = lengths(length, length_weak, unbraced_length)
    axial = require(axial_load, "axial_load", "force", positive=False)
    moments = (_moment(moment_major, "moment_major"), _moment(moment_minor, "moment_minor"))
    if axial.magnitude < 0:
        raise ValueError(
            "axial_load is a compression: give it as a positive force (tension, AISC H1.2 or EN 6.2.9 "
            "with tension, is not covered by this check)"
        )
    system = system_of(major, axial, *(m for m in moments if m.magnitude))
    spans = (major.to("m").magnitude, minor.to("m").magnitude, braced.to("m").magnitude)
    loads = (axial.to("N").magnitude, *(abs(m.to("N*m").magnitude) for m in moments))
    if code_name == "EN1993":
        found = beam_column_checks.eurocode(section, spans, loads, en_grade(section, grade, TOOL, annex), system)
    else:
        how = (code_name.split("-")[1], system)
        found = beam_column_checks.aisc(section, spans, loads, aisc_grade(section, grade), how)
    found.notes += annex_note(annex, code_name, found.grade)
    return _result(found, system, code_name)


def _moment(text: str, name: str) -> Any:
    if text.strip() in ("0", "0.0", ""):
        return 0.0 * registry().N * registry().m
    return require(text, name, "moment (force × length)", positive=False)


def _result(found: BeamColumn, system: System, code: str) -> CalcResult:
    figures: dict[str, tuple[float, Kind]] = {
        "design_axial": (found.design_axial, "force"),
        "design_moment_major": (found.design_major, "moment"),
        "design_moment_minor": (found.design_minor, "moment"),
    }
    text = {
        "interaction_ratio": f"{found.ratio:.3f}",
        "equation": f"{'AISC 360-22' if code != 'EN1993' else 'EN 1993-1-1'} eq. {found.equation}",
        "verdict": "OK" if all(c.status == "OK" for c in found.checks) else "NG",
        "grade": found.grade,
        **found.extra,
    }
    return figures_result(
        figures,
        text,
        system,
        formula=found.formula,
        substituted=found.substituted,
        reference=found.reference,
        checks=found.checks,
        notes=found.notes,
        not_checked=found.not_checked,
        covers=found.covers,
    )
