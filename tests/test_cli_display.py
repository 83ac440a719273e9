"""What the CLI prints besides the answer: the tool list fitted to the terminal, tool results as engineers write them."""

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
