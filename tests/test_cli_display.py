"""What the CLI prints besides the answer: the tool list fitted to the terminal, quantities as engineers write them."""

from __future__ import annotations

import pytest

from fakes.ollama import FakeOllama, Reply
from tests.cli_helpers import run_cli
from tools import tool_specs


@pytest.mark.parametrize("columns", [60, 120])
def test_tools_fit_the_terminal_width_and_keep_every_word(fake_ollama: FakeOllama, columns: int) -> None:
    result = run_cli("--server", fake_ollama.url, stdin="/tools\n", env={"COLUMNS": str(columns)})
    listing = result.stdout.split("/help for commands\n", 1)[1]
    lines = listing.splitlines()
    assert len(lines) > len(tool_specs) / 2
    too_wide = [line for line in lines if len(line) > columns]
    assert too_wide == [], f"lines wider than {columns} columns"
    flat = " ".join(listing.split())
    for name, spec in tool_specs.items():
        assert f"{name} {' '.join(spec.description.split())}" in flat, f"{name}: its whole description, wrapped"


def test_tool_results_and_errors_write_quantities_as_engineers_do(fake_ollama: FakeOllama) -> None:
    fake_ollama.script(
        Reply.tool_calls(
            ("evaluate_quantity", {"expression": "12 kN/m * (6 m)**2 / 8"}),
            ("convert_units", {"quantity": "5 kN * m", "to_unit": "m ** 2"}),
        ),
        Reply.text("M = 54 kN·m."),
    )
    result = run_cli("--once", "Midspan moment?", "--server", fake_ollama.url)
    assert result.returncode == 0, result.stderr
    calculation, error = result.stderr.split("→ convert_units")
    assert "= 54 kN·m\n" in calculation and "result 54 kN·m\n" in calculation
    assert "✗ Error: convert_units failed: cannot convert 5 kN·m (moment (force × length)) to m² (area)" in error
