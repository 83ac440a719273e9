"""Shared fixtures: a temp working folder for every test, no setting from the machine, and a scripted fake Ollama."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.settings import Settings  # noqa: E402
from fakes.ollama import FakeOllama  # noqa: E402

# Every setting the application reads (derived, so a new one cannot leak in), and what the ollama client reads.
SETTING_KEYS = tuple(name.upper() for name in Settings.model_fields) + ("OLLAMA_HOST", "OLLAMA_API_KEY")


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs in its own empty folder, with no setting leaking in from the machine."""
    monkeypatch.chdir(tmp_path)
    for key in SETTING_KEYS:
        monkeypatch.delenv(key, raising=False)
    return tmp_path


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        yield fake
