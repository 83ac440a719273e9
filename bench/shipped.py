"""Running the product as the README runs it: `python main.py …` in a folder of its own, with the settings' defaults
(none of the application's settings inherited from the benchmark's environment) and Python's own default of keeping
compiled modules (this machine's environment may set PYTHONDONTWRITEBYTECODE; a user's Python writes `__pycache__`
at the first run, here kept under the benchmark's temporary folder so that the checkout stays as it is)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAIN = ROOT / "main.py"
PYCACHE = Path(tempfile.gettempdir()) / "bench-pycache"
# The application's settings (docs/configuration.md): a benchmark of what ships takes their defaults.
SETTINGS = (
    "ENDPOINT MAX_TURNS_PER_SERVER MODEL SYSTEM_PROMPT CHAT_HISTORY_DB_PATH DATABASE_URL WORKSPACE_ROOT NUM_CTX "
    "NUM_PREDICT MAX_TOOL_ROUNDS REQUEST_TIMEOUT THINK LOG_LEVEL LOG_FILE FILE_EDITS AGENTS_DIR HOOKS_CONFIG "
    "MCP_CONFIG EXPORTS_DIR MCP_IDLE_SECONDS EMBED_MODEL AUTH MAX_TURNS_PER_USER SESSION_HOURS "
    "ALLOW_UNAUTHENTICATED_NETWORK_ACCESS SSO_ALLOWED_DOMAINS SSO_ROLE_CLAIM TRUSTED_PROXIES API_KEY"
).split()


def environment(settings: Mapping[str, str] | None = None) -> dict[str, str]:
    """The process's environment as a user's shell gives it: no setting but `settings`, compiled modules kept."""
    kept = {key: value for key, value in os.environ.items() if key not in SETTINGS and key != "PYTHONDONTWRITEBYTECODE"}
    return {**kept, "PYTHONPYCACHEPREFIX": str(PYCACHE), **(settings or {})}


def main_py(arguments: Sequence[str]) -> list[str]:
    return [sys.executable, str(MAIN), *arguments]


def timed_run(
    command: Sequence[str], folder: Path, settings: Mapping[str, str] | None = None, stdin: str | None = None
) -> tuple[float, str | None]:
    """(milliseconds, why it failed or None) for one process from its start to its exit."""
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=folder, env=environment(settings), input=stdin, capture_output=True, text=True, timeout=300
    )
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        return elapsed, f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[-300:]}"
    return elapsed, None
