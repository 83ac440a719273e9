"""PostgreSQL under bad input: a wrong DATABASE_URL, a server that is down, restarts or is full, a user without
rights, a schema from a newer version, another application's database. One sentence each, never the password,
nothing half-written, and the app keeps running where it can."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app import Application
from domain.events import TextDelta
from fakes.ollama import FakeOllama, Reply, wait_until
from fakes.postgres import PostgresServer, unavailable
from fakes.replies import Gate, chunk, final
from history import ChatHistoryDB, HistoryError
from store import postgres_schema
from tests.agent_helpers import make_agent
from tests.cli_helpers import run_cli
from tests.stores import raw_rows

if TYPE_CHECKING:
    from streamlit.testing.v1 import AppTest

pytestmark = pytest.mark.postgres


def password_of(url: str) -> str:
    return url.split(":")[2].split("@")[0]


@pytest.fixture(scope="module")
def own_server() -> Iterator[PostgresServer]:
    """A server of this module's own, which its tests stop, restart and fill; durable (fsync on), as it crashes."""
    if (reason := unavailable()) is not None:
        pytest.skip(f"PostgreSQL tests skipped: {reason}.")
    with PostgresServer(durable=True) as server:
        yield server


def test_a_wrong_database_url_is_one_sentence_that_never_shows_the_password(fake_ollama: FakeOllama) -> None:
    not_postgres = run_cli("--once", "q", env={"DATABASE_URL": "mysql://app:hunter2@db:3306/history"})
    assert not_postgres.returncode == 2
    assert "Setting DATABASE_URL has the value 'mysql://app:***@db:3306/history', which is not allowed" in (
        not_postgres.stderr
    ), not_postgres.stderr
    no_database = run_cli("--once", "q", env={"DATABASE_URL": "postgresql://app:hunter2@db:5432"})
    assert no_database.returncode == 2
    assert "Setting DATABASE_URL has the value 'postgresql://app:***@db:5432', which is not allowed" in (
        no_database.stderr
    )
    nobody = run_cli(
        "--server", fake_ollama.url, "--once", "q", env={"DATABASE_URL": "postgresql://app:hunter2@127.0.0.1:9/h"}
    )
    assert nobody.returncode == 1
    assert nobody.stderr.strip() == (
        "The PostgreSQL server at 127.0.0.1:9 cannot be reached (Connection refused); start it, or correct "
        "DATABASE_URL (or the URL given)."
    )
    for result in (not_postgres, no_database, nobody):
        assert "hunter2" not in result.stdout + result.stderr
    assert fake_ollama.chat_requests == [], "nothing asked of a model whose answer could not be kept"


def test_the_web_page_says_what_is_wrong_with_database_url(app: AppTest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://app:hunter2@127.0.0.1:9/history")
    app.run()
    assert not app.exception
    assert [error.value for error in app.error] == [
        "The PostgreSQL server at 127.0.0.1:9 cannot be reached (Connection refused); start it, or correct "
        "DATABASE_URL (or the URL given)."
    ]


def test_the_cli_and_the_web_page_work_on_postgresql(
    app: AppTest, fake_ollama: FakeOllama, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres_server.new_database()
    fake_ollama.responder = lambda body: Reply.text("The beam is 600 mm deep.")
    flags = ("--server", fake_ollama.url, "--workspace", "Tower", "--once", "How deep?")
    once = run_cli(*flags, env={"DATABASE_URL": url})
    assert once.returncode == 0 and "600 mm" in once.stdout, once.stderr
    monkeypatch.setenv("DATABASE_URL", url)
    app.run()
    app.chat_input(key="question").set_value("And the column?").run()
    assert not app.exception and not app.error
    store = ChatHistoryDB(url)
    (chat,) = store.recent_chats()
    assert [turn.user for turn in store.get_turns(chat.chat_id)] == ["How deep?", "And the column?"]
    assert not (Path.cwd() / "chat_history.sqlite").exists(), "no SQLite file made beside it"


def test_a_server_that_is_down_then_restarts_costs_one_sentence_and_loses_nothing(own_server: PostgresServer) -> None:
    url = own_server.new_database()
    store = ChatHistoryDB(url)
    chat = store.create_chat("Tower")
    store.add_to_history(chat, "before", "kept")
    own_server.stop()
    with pytest.raises(HistoryError) as down:
        store.add_to_history(chat, "while down", "not stored")
    assert f"The PostgreSQL server at 127.0.0.1:{own_server.port} cannot be reached" in str(down.value)
    assert password_of(url) not in str(down.value)
    with pytest.raises(HistoryError, match="cannot be reached"):
        store.get_turns(chat)
    own_server.start()
    store.add_to_history(chat, "after", "stored")  # the connection is opened anew
    own_server.stop("immediate")  # a crash, then a restart, between two steps: the next one does not notice
    own_server.start()
    assert [turn.user for turn in store.get_turns(chat)] == ["before", "after"]
    assert store.count_turns(chat) == 2


async def test_a_turn_cut_off_by_an_outage_is_stored_by_its_process_once_the_server_is_back(
    own_server: PostgresServer, fake_ollama: FakeOllama
) -> None:
    url = own_server.new_database()
    service = Application(ChatHistoryDB(url), make_agent(fake_ollama))
    chat = service.workspaces.create("Tower").chat_id
    gate = Gate()
    fake_ollama.script(Reply([chunk(content="The footing is "), gate, chunk(content="2 m wide."), final("stop", 9, 5)]))
    asking = service.turns.ask("How wide?", chat)
    assert isinstance(await anext(asking), TextDelta)
    own_server.stop()  # the database goes away while the model answers
    gate.gate.set()
    with pytest.raises(HistoryError, match="cannot be reached"):
        async for _ in asking:
            pass
    own_server.start()
    other = ChatHistoryDB(url)  # another process's view: it sees the turn without this one ending
    try:
        assert wait_until(lambda: other.count_turns(chat) == 1, timeout=30), "stored once the server is back"
        [turn] = other.get_turns(chat)
        assert (turn.user, turn.assistant) == ("How wide?", "The footing is 2 m wide.")
        assert raw_rows(url, "SELECT COUNT(*) FROM running_turns") == [(0,)]
    finally:
        other.close()
        service.close()


@pytest.fixture
def small_disk(own_server: PostgresServer, tmp_path: Path) -> Iterator[Path]:
    """A 16 MB tmpfs as a tablespace of the server (mounted as root, which CI and these machines are)."""
    disk = Path(own_server.folder) / "small"
    disk.mkdir()
    if shutil.which("mount") is None or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)],
                                                       capture_output=True).returncode != 0:  # fmt: skip
        pytest.skip("this machine cannot mount a small tmpfs (it needs root)")
    shutil.chown(disk, "postgres", "postgres")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_a_full_server_stores_nothing_half_and_the_next_turn_works(
    own_server: PostgresServer, small_disk: Path
) -> None:
    url = own_server.new_database()
    store = ChatHistoryDB(url)
    chat = store.create_chat("Tower")
    store.add_to_history(chat, "before", "kept")
    database = url.rsplit("/", 1)[1]
    with own_server.admin(database) as admin:
        admin.execute(f"CREATE TABLESPACE small LOCATION '{small_disk}'")
        for table in ("history", "tool_calls", "turn_search"):
            admin.execute(f"ALTER TABLE {table} SET TABLESPACE small")
    filler = small_disk / "filler"
    with open(filler, "wb", buffering=0) as stuffing, pytest.raises(OSError, match="No space left"):
        while True:
            stuffing.write(b"\0" * 65536)
    with pytest.raises(HistoryError) as full:
        for i in range(200):  # until the table needs a page the disk has no room for
            store.add_to_history(chat, f"turn {i}", "x" * 8000)
    assert "has no room for this" in str(full.value) and "nothing was stored" in str(full.value)
    stored = store.count_turns(chat)
    assert raw_rows(url, "SELECT COUNT(*) FROM history") == [(stored,)], "the count and the turns agree"
    assert raw_rows(url, "SELECT COUNT(*) FROM turn_search") == [(stored,)], "each turn whole, or not at all"
    filler.unlink()
    store.add_to_history(chat, "after", "stored")
    assert store.get_turns(chat, limit=1)[0].user == "after"
    store.close()
    own_server.drop_database(url)
    with own_server.admin() as admin:
        admin.execute("DROP TABLESPACE small")


def test_a_user_without_rights_is_told_the_role_must_own_its_database(postgres_server: PostgresServer) -> None:
    owned = postgres_server.new_database()
    ChatHistoryDB(owned).close()
    database = owned.rsplit("/", 1)[1]
    with postgres_server.admin() as admin:
        admin.execute("CREATE ROLE visitor LOGIN PASSWORD 'visitor-secret'")
    visitor = postgres_server.url("visitor", "visitor-secret", database)
    with pytest.raises(HistoryError) as refused:
        ChatHistoryDB(visitor)
    assert "PostgreSQL user visitor lacks the rights this needs" in str(refused.value)
    assert "the application's role must own its database" in str(refused.value)
    fresh = postgres_server.new_database()
    with pytest.raises(HistoryError, match="user visitor lacks the rights .* must own its database"):
        ChatHistoryDB(postgres_server.url("visitor", "visitor-secret", fresh.rsplit("/", 1)[1]))
    assert raw_rows(fresh, "SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'") == [(0,)]


def test_a_database_that_does_not_exist_is_named_and_none_is_made(postgres_server: PostgresServer) -> None:
    owned = postgres_server.new_database()
    missing = owned.rsplit("/", 1)[0] + "/nosuch"
    with pytest.raises(HistoryError) as absent:
        ChatHistoryDB(missing)
    assert str(absent.value) == (
        f"The database nosuch does not exist on the PostgreSQL server at 127.0.0.1:{postgres_server.port}; create it "
        "(see docs/office-server.md) or correct DATABASE_URL (or the URL given)."
    )
    assert password_of(owned) not in str(absent.value)
    with postgres_server.admin() as admin:
        assert admin.execute("SELECT COUNT(*) FROM pg_database WHERE datname = 'nosuch'").fetchone() == (0,)


def test_a_schema_from_a_newer_version_is_refused_untouched(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    store = ChatHistoryDB(url)
    store.create_chat("Tower")
    store.close()
    with postgres_server.admin(url.rsplit("/", 1)[1]) as admin:
        admin.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(HistoryError) as newer:
        ChatHistoryDB(url)
    known = postgres_schema.SCHEMA_VERSION
    assert f"was written by a newer version of this application (schema 99, this version knows up to {known})" in str(
        newer.value
    )
    assert "left untouched — update the application" in str(newer.value)
    assert raw_rows(url, "SELECT version FROM schema_version") == [(99,)]


def test_another_application_s_database_is_refused_untouched(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    with postgres_server.admin(url.rsplit("/", 1)[1]) as admin:
        admin.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(HistoryError, match="holds the tables of another application"):
        ChatHistoryDB(url)
    assert raw_rows(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'") == [("invoices",)]
