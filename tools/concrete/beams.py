"""`concrete_beam_check`: a rectangular reinforced concrete beam or one-way slab under factored moment and shear,
to ACI 318-19 (`tools.concrete.beam_aci`) or EN 1992-1-1 (`tools.concrete.beam_en`). Results in the units of the
inputs, with the section drawn with its bars."""

from __future__ import annotations

from typing import Any

from domain.calculations import CalcResult
from tools.catalogue import tool
from tools.codes.en1992.materials import RECOMMENDED, UK_ANNEX
from tools.concrete import beam_aci, beam_en
from tools.concrete.bars import read_bars, read_stirrups
from tools.concrete.materials import Code, read_code, read_concrete, read_steel
from tools.concrete.readout import Findings, result
from tools.concrete.section import (
    BeamSection,
    compression_depth,
    default_cover,
    drawing,
    fit_problem,
    tension_depth,
)
from tools.units.reading import require
from tools.units.showing import system_of

NOT_CHECKED = [
    "deflection by calculation",
    "crack widths",
    "torsion",
    "anchorage and development of the bars (use development_length)",
    "axial load (the section is taken with none; use concrete_column_check)",
]


@tool(
    "calculation",
    words=("concrete", "beam", "slab", "rebar", "reinforced", "flexure", "stirrup", "links", "aci", "eurocode", "ec2"),
)
def concrete_beam_check(
    width: str,
    height: str,
    tension_bars: str,
    concrete: str,
    steel: str,
    moment: str,
    shear: str = "0",
    code: str = "ACI318-19",
    cover: str | None = None,
    stirrups: str | None = None,
    compression_bars: str | None = None,
    effective_depth: str | None = None,
    compression_depth: str | None = None,
) -> CalcResult:
    """Reinforced concrete beam or one-way slab section, ACI 318-19 or EN 1992-1-1: φMn/MRd, shear, steel limits,
    OK/NG. Use it whenever asked if a concrete beam or slab carries a moment or shear.

    Args:
        width: Section width, "12 in"; for a slab strip "12 in" or "1 m".
        height: Overall depth h, "24 in", "500 mm".
        tension_bars: "4 #8", "3H20", "3 x 20 mm", a slab's "#5 @ 12 in" or "H12 @ 200", or "2.37 in2".
        concrete: "4000 psi", "fc' = 4 ksi", "fck = 30 MPa", "C30/37".
        steel: "Grade 60", "fy = 60 ksi", "B500B", "460 MPa".
        moment: Factored moment Mu or MEd, "250 kip*ft".
        shear: Factored shear Vu or VEd, "40 kip"; "0" for none.
        code: ACI318-19, EN1992 or EN1992-UK.
        cover: Clear cover to the stirrups (to the bars without); default the usual.
        stirrups: "#4 @ 10 in" (2 legs), "2-leg H8 @ 200"; omit for none.
        compression_bars: Top bars in compression, "2 #6".
        effective_depth: d to the tension bars; needed with an area.
        compression_depth: d' to the compression bars.
    """
    code_name = read_code(code)
    aci = code_name == "ACI318-19"
    loads, given = _loads(moment, shear)
    section, found = _section(
        (width, height, cover, effective_depth, compression_depth),
        (tension_bars, stirrups, compression_bars),
        aci,
        given,
    )
    materials = read_concrete(concrete), read_steel(steel)
    system = section.system
    if aci:
        findings = beam_aci.check_beam(section, *materials, *loads)
    else:
        variant = UK_ANNEX if code_name == "EN1992-UK" else RECOMMENDED
        findings = beam_en.check_beam(section, *materials, loads, variant)
    _merge(findings, found)
    findings.not_checked += NOT_CHECKED
    findings.text.update(code=_code_text(code_name), member="one-way slab" if section.slab else "beam")
    return result(findings, system, section=drawing(section))


def _section(
    dimensions: tuple[str, str, str | None, str | None, str | None],
    reinforcement: tuple[str, str | None, str | None],
    aci: bool,
    loads: list[Any],
) -> tuple[BeamSection, Findings]:
    width_text, height_text, cover_text, depth_text, top_text = dimensions
    tension_text, stirrups_text, compression_text = reinforcement
    width, height = (require(text, name, "length") for text, name in ((width_text, "width"), (height_text, "height")))
    b, h = float(width.to("m").magnitude), float(height.to("m").magnitude)
    bars = read_bars(tension_text, "tension_bars")
    links = read_stirrups(stirrups_text, "stirrups") if stirrups_text else None
    top = read_bars(compression_text, "compression_bars") if compression_text else None
    slab = bars.spacing is not None
    found = Findings()
    cover = _cover(cover_text, aci, slab, found)
    d = _length(depth_text, "effective_depth") or tension_depth(h, cover, links, bars)
    d_top = (_length(top_text, "compression_depth") or compression_depth(cover, links, top)) if top else 0.0
    _check_depths(b, h, d, d_top)
    section = BeamSection(
        b, h, d, bars, bars.area(b), top, top.area(b) if top else 0.0, d_top, links, cover, slab,
        system_of(width, height, *loads),
    )  # fmt: skip
    problem = fit_problem(section, aci)
    if problem and depth_text is None:
        raise ValueError(f"{problem}: use a wider section, or give effective_depth for bars in two layers")
    if problem:
        found.warnings.append(f"{problem}; they are taken at the effective_depth given, εt at that depth.")
    return section, found


def _cover(text: str | None, aci: bool, slab: bool, found: Findings) -> float:
    if text is not None:
        cover = float(require(text, "cover", "length", positive=False).to("m").magnitude)
        if not 0 <= cover <= 0.2:
            raise ValueError(f"cover '{text}' is not a concrete cover (0 to 200 mm)")
        if cover < 0.010:
            found.warnings.append(f"A cover of {text} is far below any code's minimum: check it.")
        return cover
    cover = default_cover(aci, slab)
    source = "ACI 318-19 Table 20.5.1.3.1" if aci else "EN 1992-1-1 4.4.1, exposure XC1"
    found.notes.append(f"No cover given: {cover * 1000:.1f} mm ({cover / 0.0254:.2f} in) clear taken ({source}).")
    return cover


def _length(text: str | None, name: str) -> float | None:
    return float(require(text, name, "length").to("m").magnitude) if text else None


def _check_depths(b: float, h: float, d: float, d_top: float) -> None:
    if not 0.05 <= h <= 5 or not 0.05 <= b <= 20:
        raise ValueError("width and height should be a beam's or a slab strip's (50 mm to 5 m deep, at most 20 m wide)")
    if not 0 < d < h:
        raise ValueError("effective_depth must be more than zero and less than the height")
    if d_top and not 0 < d_top < d:
        raise ValueError("compression_depth must be more than zero and less than the effective depth")


def _loads(moment: str, shear: str) -> tuple[tuple[float, float], list[Any]]:
    """(|Mu|, |Vu|) in N·m and N, and the quantities given (for the units' system); "0" is no shear."""
    mu = require(moment, "moment", "moment (force × length)", positive=False)
    if shear.strip() in ("0", "0.0"):
        return (abs(float(mu.to("N*m").magnitude)), 0.0), [mu]
    vu = require(shear, "shear", "force", positive=False)
    return (abs(float(mu.to("N*m").magnitude)), abs(float(vu.to("N").magnitude))), [mu, vu]


def _merge(findings: Findings, found: Findings) -> None:
    findings.notes = found.notes + findings.notes
    findings.warnings = found.warnings + findings.warnings


def _code_text(code: Code) -> str:
    return {"ACI318-19": "ACI 318-19", "EN1992": "EN 1992-1-1", "EN1992-UK": "EN 1992-1-1 + UK NA"}[code]
