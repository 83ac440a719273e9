"""Shared fixtures: a temp working folder for every test, and a scripted fake Ollama."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fakes.ollama import FakeOllama  # noqa: E402

_SETTING_KEYS = (
    "ENDPOINT",
    "MODEL",
    "SYSTEM_PROMPT",
    "CHAT_HISTORY_DB_PATH",
    "WORKSPACE_ROOT",
    "NUM_CTX",
    "MAX_TOOL_ROUNDS",
    "REQUEST_TIMEOUT",
    "THINK",
    "LOG_LEVEL",
    "LOG_FILE",
    "OLLAMA_HOST",
    "OLLAMA_API_KEY",
)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs in its own empty folder, with no setting leaking in from the machine."""
    monkeypatch.chdir(tmp_path)
    for key in _SETTING_KEYS:
        monkeypatch.delenv(key, raising=False)
    return tmp_path


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        yield fake
