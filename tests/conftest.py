"""Shared fixtures: a temp working folder for every test, no setting from the machine, and a scripted fake Ollama."""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.configuration.settings import Settings  # noqa: E402
from fakes.ollama import FakeOllama  # noqa: E402
from fakes.postgres import PostgresServer, unavailable  # noqa: E402

if TYPE_CHECKING:
    from streamlit.testing.v1 import AppTest

    from history import ChatHistoryDB

# Every setting the application reads (derived, so a new one cannot leak in), and what the ollama client reads.
# A shell that starts a job in the background has it ignore Ctrl-C, and programs it starts inherit that: the
# CLI under test would never see the Ctrl-C its tests press. The suite gives its programs Ctrl-C back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

SETTING_KEYS = tuple(name.upper() for name in Settings.model_fields) + ("OLLAMA_HOST", "OLLAMA_API_KEY")

# A test that hangs ends the run with every thread's traceback instead of holding CI for its 90 minutes. Generous:
# the slowest test takes about a minute on a busy 2-CPU machine; this only catches a hang.
HANG_SECONDS = 900


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


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


@pytest.fixture
def app(fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The web page under Streamlit's AppTest, against the fake Ollama, in the test's own folder."""
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("ENDPOINT", fake_ollama.url)
    return AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=20)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the session (Debian's binaries, run as the postgres user when root).

    Outside CI the PostgreSQL tests are skipped, with the reason, where the binaries are missing; in CI they
    never are (`.ci/run` installs them).
    """
    reason = unavailable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"The PostgreSQL tests must run in CI, but {reason}.")
        pytest.skip(f"PostgreSQL tests skipped: {reason}.")
    with PostgresServer() as server:
        yield server


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a store is opened, for each backend: a SQLite file in the test's folder, or a fresh PostgreSQL
    database owned by a role of its own (no superuser)."""
    if request.param == "sqlite":
        yield str(tmp_path / "chat_history.sqlite")
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.new_database()
    yield url
    server.drop_database(url)


@pytest.fixture
def store(store_target: str) -> Iterator[ChatHistoryDB]:
    """The store opened on each backend (`store_target`), closed after the test."""
    from history import ChatHistoryDB

    db = ChatHistoryDB(store_target)
    yield db
    db.close()


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[ChatHistoryDB]:
    """The store on a SQLite file in the test's folder, for what only a file has."""
    from history import ChatHistoryDB

    db = ChatHistoryDB(tmp_path / "history.sqlite")
    yield db
    db.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of tests/browser is of the browser tier (the default run leaves it to CI)."""
    for item in items:
        if "tests/browser/" in item.nodeid.replace("\\", "/"):
            item.add_marker(pytest.mark.browser)
