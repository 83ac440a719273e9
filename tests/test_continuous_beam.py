"""`continuous_beam` against the standard coefficients for equal spans under a uniform load w.

AISC Steel Construction Manual, 16th ed., Table 3-23, case 29 (two equal spans): R = 0.375wL, 1.25wL, 0.375wL;
M over the support = wL²/8; largest span moment 9wL²/128; Δmax = wL⁴/(185EI).
Three equal spans (Table 3-23 / the usual coefficient tables, e.g. Reynolds' Reinforced Concrete Designer's
Handbook, Table 2.29): R = 0.4wL, 1.1wL; M over the supports = wL²/10; end-span moment 0.08wL²; Δmax = 0.0069wL⁴/EI.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools import ToolContext, run_tool
from tools.continuous_beam import continuous_beam


def numbers(values: str | list[str]) -> list[float]:
    return [float(v.split()[0]) for v in (values if isinstance(values, list) else [values])]


def test_two_equal_spans() -> None:
    w, span, e, i = 10.0, 6.0, 200e9, 1e-4  # kN/m, m, Pa, m⁴
    result = continuous_beam(["6 m", "6 m"], "10 kN/m", "200 GPa", "1e-4 m**4")
    assert numbers(result.results["reactions"]) == pytest.approx(
        [0.375 * w * span, 1.25 * w * span, 0.375 * w * span], rel=1e-3
    )
    assert numbers(result.results["support_moments"]) == pytest.approx([0, -w * span**2 / 8, 0], abs=1e-6, rel=1e-3)
    assert numbers(result.results["max_positive_moment"])[0] == pytest.approx(9 * w * span**2 / 128, rel=1e-3)
    assert numbers(result.results["max_negative_moment"])[0] == pytest.approx(-w * span**2 / 8, rel=1e-3)
    deflection_mm = w * 1e3 * span**4 / (185 * e * i) * 1e3
    assert numbers(result.results["max_deflection"])[0] == pytest.approx(deflection_mm, rel=0.01)


def test_three_equal_spans_in_us_units() -> None:
    w, span = 1.0, 20.0  # kip/ft, ft
    result = continuous_beam(["20 ft", "20 ft", "20 ft"], "1 kip/ft", "29000 ksi", "800 in**4")
    assert numbers(result.results["reactions"]) == pytest.approx(
        [0.4 * w * span, 1.1 * w * span, 1.1 * w * span, 0.4 * w * span], rel=1e-3
    )
    assert numbers(result.results["support_moments"]) == pytest.approx([0, -40, -40, 0], abs=1e-6, rel=1e-3)
    assert numbers(result.results["max_positive_moment"])[0] == pytest.approx(0.08 * w * span**2, rel=1e-3)
    assert isinstance(result.results["max_deflection"], str) and result.results["max_deflection"].endswith(" in")
    deflection = 0.0069 * (w / 12) * (span * 12) ** 4 / (29000 * 800)
    assert numbers(result.results["max_deflection"])[0] == pytest.approx(deflection, rel=0.01)


def test_unequal_spans_balance_the_load_and_draw_one_diagram() -> None:
    result = continuous_beam(["5 m", "8 m", "4 m"], "12 kN/m")
    assert sum(numbers(result.results["reactions"])) == pytest.approx(12 * 17, rel=1e-3)
    assert "max_deflection" not in result.results
    diagram = result.diagram
    assert diagram is not None and diagram.x[0] == 0 and diagram.x[-1] == pytest.approx(17)
    assert diagram.moment_unit == "kN*m" and min(diagram.moment) == pytest.approx(
        numbers(result.results["max_negative_moment"])[0], rel=1e-3
    )


def test_the_model_gets_lists_of_quantities_and_bad_input_one_sentence() -> None:
    context = ToolContext()
    outcome = run_tool("continuous_beam", {"spans": ["6 m", "6 m"], "load": "10 kN/m"}, context)
    sent = json.loads(outcome.output)
    assert sent["results"]["reactions"] == ["22.5 kN", "75 kN", "22.5 kN"]
    assert sent["results"]["support_moments"] == ["0 kN·m", "-45 kN·m", "0 kN·m"]
    for arguments, words in (
        ({"spans": [], "load": "10 kN/m"}, "give between 1 and 20 spans"),
        ({"spans": ["6 m", "6 kN"], "load": "10 kN/m"}, "spans[1] must be a length"),
        ({"spans": ["6 m"], "load": "10 kN/m", "elastic_modulus": "200 GPa"}, "give both elastic_modulus and"),
    ):
        outcome = run_tool("continuous_beam", arguments, context)
        assert outcome.error and words in outcome.error


def test_the_solver_is_not_imported_until_a_continuous_beam_is_asked_for() -> None:
    script = (
        "import sys, main, agent, history, tools, app, faces.web.page, faces.cli\n"
        "assert 'Pynite' not in sys.modules, 'Pynite on the startup path'\n"
        "from tools.continuous_beam import continuous_beam\n"
        "assert 'Pynite' not in sys.modules\n"
        "continuous_beam(['6 m', '6 m'], '10 kN/m')\n"
        "assert 'Pynite' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120, cwd=Path(__file__).parent.parent)
