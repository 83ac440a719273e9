"""`bolt_check`: a group of equal bolts sharing shear and tension, to AISC 360-22 J3 or EN 1993-1-8 Table 3.4, with
the ply's bearing, tear-out and block shear, an eccentric shear and prying where the joint is described."""

from __future__ import annotations

from domain.calculations import CalcResult
from tools.catalogue import tool
from tools.codes.national_annexes import national_annex as read_annex
from tools.connections.bolt_data import aisc_grade, en_grade
from tools.connections.bolt_data import diameter as read_diameter
from tools.connections.bolt_joint import Found, Joint
from tools.connections.bolt_layout import read_layout
from tools.connections.bolt_reading import read_bolt, slip_class_text
from tools.connections.bolt_reading import shear_planes as read_planes
from tools.connections.bolts_aisc import aisc
from tools.connections.bolts_eurocode import eurocode
from tools.connections.inputs import combination_name, combine, count, force
from tools.steel import readout
from tools.steel.readout import Kind
from tools.steel.sections_and_checks import CodeName, code_key
from tools.units.showing import system_of

AISC_ALWAYS = ("the plies' other limit states (shear yielding and rupture, J4.2; tension, J4.1) and the members",
               "the minimum spacing and edge distances (J3.3, J3.4)")  # fmt: skip
EN_ALWAYS = ("the plies' shear and tension resistance (3.10.3, 6.2) and punching shear",
             "the spacing and edge distance limits of Table 3.3",
             "the tension a nominal moment puts in the bolts of an end plate or cleat (SCI P358 takes 0.8 Fv,Rd for a "
             "partial depth end plate's bolts)")  # fmt: skip
NEW_FORCES = ("design_bearing_end", "design_bearing_inner", "design_bearing", "design_bolt_group", "design_block_shear",
              "design_tension_prying")  # fmt: skip


@tool("calculation", words=("bolt", "bolts", "bolted", "connection", "slip", "a325", "a490", "friction", "preloaded",
                            "bearing", "tear-out", "block", "prying", "eccentric", "fin", "cleat"))  # fmt: skip
def bolt_check(
    diameter: str,
    grade: str,
    bolts: int,
    shear_dead: str,
    shear_live: str,
    tension_dead: str = "0 kip",
    tension_live: str = "0 kip",
    code: str = "AISC360-LRFD",
    threads: str = "included",
    shear_planes: int | str = 1,
    slip_class: str | None = None,
    hole: str = "standard",
    columns: int = 1,
    spacing: str | None = None,
    gauge: str | None = None,
    end_distance: str | None = None,
    edge_distance: str | None = None,
    ply_thickness: str | None = None,
    ply_grade: str | None = None,
    eccentricity: str | None = None,
    angle: str = "0 deg",
    stem_distance: str | None = None,
    national_annex: str | None = None,
) -> CalcResult:
    """Bolt group in shear and tension (AISC 360-22 J3, J4.3; EN 1993-1-8): bolt shear, tension, slip; with the
    layout and ply, bearing, tear-out, block shear, eccentric shear, prying. Lists what it did not check.

    Args:
        diameter: "3/4 in", "M20", "M20 8.8".
        grade: "A325", "A490", "A325-SC", "A325-X", "8.8", "10.9".
        bolts: Number of bolts.
        shear_dead: Unfactored dead shear on the group.
        shear_live: Unfactored live shear.
        tension_dead: Unfactored dead tension.
        tension_live: Unfactored live tension.
        code: AISC360-LRFD, AISC360-ASD or EN1993.
        threads: "included" or "excluded".
        shear_planes: 1 or 2 ("double").
        slip_class: Slip-critical: "A", "B" (EN: to "D").
        hole: "standard", "oversized", "short-slotted transverse"…
        columns: Lines of bolts along the shear.
        spacing: Along the shear.
        gauge: Between lines.
        end_distance: To the ply's end (e1).
        edge_distance: To the side edge (e2).
        ply_thickness: Bearing one way.
        ply_grade: A36, A992, S275, S355…
        eccentricity: To the shear's line.
        angle: Shear to the lines.
        stem_distance: Prying's b.
        national_annex: "UK" (EN1993).
    """
    code_name = code_key(code)
    text = read_bolt(diameter, grade)
    size = read_diameter(text.diameter)
    loads = [force(value, name) for value, name in ((shear_dead, "shear_dead"), (shear_live, "shear_live"),
             (tension_dead, "tension_dead"), (tension_live, "tension_live"))]  # fmt: skip
    system = system_of(*loads)
    en = code_name == "EN1993"
    shear = combine(code_name, loads[0], loads[1], system, "Fv,Ed" if en else _symbols(code_name)[0])
    tension = combine(code_name, loads[2], loads[3], system, "Ft,Ed" if en else _symbols(code_name)[1])
    if shear.newtons <= 0 and tension.newtons <= 0:
        raise ValueError("the bolts carry no force; give the dead and live shear (and tension) on the group")
    lengths = {"spacing": spacing, "gauge": gauge, "end_distance": end_distance, "edge_distance": edge_distance,
               "ply_thickness": ply_thickness, "ply_grade": ply_grade, "eccentricity": eccentricity, "angle": angle,
               "stem_distance": stem_distance}  # fmt: skip
    annex = read_annex(national_annex)
    layout = read_layout(count(bolts, "bolts", "bolts"), count(columns, "columns", "lines of bolts"), lengths, annex)
    excluded = text.threads_excluded if text.threads_excluded is not None else _threads_excluded(threads)
    joint = Joint(size, layout.rows * layout.columns, read_planes(shear_planes), excluded, shear, tension, system,
                  layout)  # fmt: skip
    slip = _slip_class(slip_class_text(slip_class) or text.slip_class, en)
    found = eurocode(joint, en_grade(text.grade), slip, hole) if en else aisc(joint, code_name, text.grade, slip, hole)
    found.notes[:0] = text.notes
    if annex and not en:
        found.notes.append("national_annex is used by EN1993 only; AISC plies take AISC Manual Table 2-4.")
    return _result(joint, found, code_name)


def _symbols(code: CodeName) -> tuple[str, str, str]:
    return ("Vu", "Tu", "φRn") if code == "AISC360-LRFD" else ("Va", "Ta", "Rn/Ω")


def _threads_excluded(text: str) -> bool:
    key = text.strip().lower()
    if key in ("included", "include", "n", "in", "not excluded", "threads included", "yes"):
        return False
    if key in ("excluded", "exclude", "x", "out", "threads excluded", "no"):
        return True
    raise ValueError(f"threads must be 'included' (threads in the shear planes) or 'excluded'; got {text!r}")


def _slip_class(key: str | None, en: bool) -> str | None:
    if key is None:
        return None
    known = ("A", "B", "C", "D") if en else ("A", "B")
    if key not in known:
        raise ValueError(f"slip_class must be {', '.join(known)} (the faying surface's class), or omitted; got {key!r}")
    return key


def _result(joint: Joint, found: Found, code: CodeName) -> CalcResult:
    ratio = max((c.ratio or 0.0) for c in found.checks)
    governing = max(found.checks, key=lambda c: c.ratio or 0.0)
    figures: dict[str, tuple[float, Kind]] = {
        "required_shear": (joint.shear.newtons, "force"),
        "design_shear": (found.design_shear, "force"),
        "required_tension": (joint.tension.newtons, "force"),
        "design_tension": (found.design_tension, "force"),
    }
    if found.design_slip is not None:
        figures["design_slip"] = (found.design_slip, "force")
    figures.update({key: (found.forces[key], "force") for key in NEW_FORCES if key in found.forces})
    shown = {key: readout.shown(value, kind, joint.system) for key, (value, kind) in figures.items()}
    full = {key: readout.exact(value, kind, joint.system) for key, (value, kind) in figures.items()}
    amounts = {key: readout.amount(value, kind, joint.system) for key, (value, kind) in figures.items()}
    en = code == "EN1993"
    not_checked = [*found.not_checked, *(EN_ALWAYS if en else AISC_ALWAYS)]
    states = list(dict.fromkeys(c.name.split(": ", 1)[-1] for c in found.checks))
    covers = f"{', '.join(states)} only"
    plain = {
        "ratio": f"{ratio:.3f}",
        "verdict": "OK" if all(c.status == "OK" for c in found.checks) else "NG",
        "governing": governing.name.split(": ", 1)[-1],
        "bolts": f"{joint.bolts} × {joint.size.label} {found.grade}, {joint.planes} shear plane(s), threads "
        f"{'excluded' if joint.threads_excluded else 'included'}"
        + (f", {joint.layout.columns} lines of {joint.layout.rows}" if joint.layout.columns > 1 else ""),
        **found.figures,
        "not_checked": "Not checked: " + "; ".join(not_checked),
        "covers": covers,
    }
    return CalcResult(
        results={**shown, **plain},
        precise={**full, **plain, "ratio": repr(ratio)},
        amounts=dict(amounts),
        formula=_formula(code, found.design_slip is not None),
        substituted="; ".join(found.substituted),
        reference=("EN 1993-1-8:2005, 3.4 to 3.10, Table 3.4; SCI P358; EN 1990 6.10" if en
                   else f"AISC 360-22 J3.6 to J3.11, J4.3 ({code.split('-')[1]}); AISC Manual 16th ed. Parts 7 and 9; "
                   "combination per ASCE 7-22"),
        checks=found.checks,
        notes=found.notes,
        not_checked=not_checked,
        covers=covers,
    )  # fmt: skip


def _formula(code: CodeName, slip: bool) -> str:
    if code == "EN1993":
        text = ("Fv,Rd = αv fub A/γM2 per plane; Ft,Rd = k2 fub As/γM2; Fv,Ed/Fv,Rd + Ft,Ed/(1.4 Ft,Rd) ≤ 1.0 "
                "(Table 3.4); Fb,Rd = k1 αb fu d t/γM2; eccentric: VRd = n Fv,Rd/√((1 + αn)² + (βn)²) "
                "(P358)")  # fmt: skip
        return f"{combination_name(code)}; {text}" + ("; Fs,Rd = ks n μ (Fp,C − 0.8 Ft,Ed)/γM3 (3.9)" if slip else "")
    text = (
        "Rn = Fnv Ab ns, Fnt Ab (J3-1); F'nt = 1.3Fnt − Fnt frv/(φFnv) ≤ Fnt (J3-3a; J3-3b for ASD), Rn = F'nt Ab "
        "(J3-2); Rn = 2.4 d t Fu, 1.2 lc t Fu (J3-6a, J3-6c); eccentric: C × the least bolt strength (Manual Part 7); "
        "φ = 0.75, Ω = 2.00"
    )
    return f"{combination_name(code)}; {text}" + ("; Rn = μ Du hf Tb ns × ksc (J3-4, J3-5)" if slip else "")


__all__ = ["aisc_grade", "bolt_check"]
