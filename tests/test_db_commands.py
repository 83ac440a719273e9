"""`python main.py db upgrade` and `db copy`, and migrations that must leave a database as it was or upgrade it
one process at a time, on both backends."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import store.postgres_schema
import store.schema
from domain.calculations import CalcResult
from domain.packages import PackageRevision, ProjectDetails, SheetEntry
from domain.records import DocumentFile, Passage, ToolCall
from fakes.ollama import wait_until
from fakes.postgres import PostgresServer
from history import ChatHistoryDB, HistoryError
from store import is_postgres_url
from tests.stores import raw_rows

ROOT = Path(__file__).resolve().parents[1]


def db_command(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "db", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def filled(target: str | Path) -> ChatHistoryDB:
    """A store holding a little of everything a history holds, text with NUL and diacritics included."""
    store = ChatHistoryDB(target)
    for number in range(3):
        chat = store.create_chat(f"Tower {number} — béton")
        for i in range(7):
            calls = [
                ToolCall(
                    name="beam_analysis",
                    arguments={"span": f"{i} m"},
                    output="54 kN·m",
                    calculation=CalcResult(results={}, formula=f"M = {i} kN·m"),
                )
            ]
            store.add_to_history(chat, f"Beam {i} of tower {number}?\x00", f"Answer {i}.", tool_calls=calls,
                                 model="qwen3:4b", prompt_tokens=10, asked_by="A. Engineer")  # fmt: skip
        store.add_file_edit(chat, "notes.txt", b"\x00before", b"after", "applied")
    store.set_context_summary(1, "A 45 m tower.", through_turn_id=3)
    store.set_chat_agent(2, "reviewer")
    store.set_project_details(1, ProjectDetails(project_name="Tower", project_number="P-1", client="City"))
    revision = PackageRevision(
        revision_id=0, chat_id=1, letter="A", status="checked", workspace_name="Tower 0", records_digest="d" * 64,
        details=ProjectDetails(project_name="Tower"), sheets=[SheetEntry(key="1:0", title="Beam")],
        checked_by="B. Checker", checked_at="2026-01-01 00:00:00",
    )  # fmt: skip
    checked = store.record_check(revision)
    approved = checked.model_copy(update={"approved_by": "C. Approver", "approved_at": "2026-01-02 00:00:00"})
    assert store.record_approval(approved, b"%PDF-1.7 frozen", "f" * 64)
    store.add_memory("The office designs to Eurocode 3.")
    store.save_document(
        DocumentFile(path="spec.pdf", size=10, mtime_ns=1, sha256="s", status="indexed"),
        [Passage(path="spec.pdf", page=1, location="page 1", text="Anchorage length of the beam splice.")],
    )
    store.save_embeddings("nomic-embed-text", [(1, b"\x00\x00\x80?")])
    return store


def everything(store: ChatHistoryDB) -> dict[str, Any]:
    """What a store holds, as the application reads it."""
    chats = store.recent_chats()
    return {
        "chats": [chat.model_dump() for chat in chats],
        "turns": {chat.chat_id: [turn.model_dump() for turn in store.get_turns(chat.chat_id)] for chat in chats},
        "counts": {chat.chat_id: store.count_turns(chat.chat_id) for chat in chats},
        "edits": {chat.chat_id: [edit.model_dump() for edit in store.file_edits(chat.chat_id)] for chat in chats},
        "details": {chat.chat_id: store.project_details(chat.chat_id).model_dump() for chat in chats},
        "revisions": {chat.chat_id: [r.model_dump() for r in store.package_revisions(chat.chat_id)] for chat in chats},
        "pdf": store.issued_pdf(1, "A"),
        "memories": [memory.model_dump() for memory in store.memories()],
        "documents": [file.model_dump() for file in store.document_files()],
        "embeddings": store.embeddings("nomic-embed-text"),
        "search": [hit.model_dump() for hit in store.search_chats("béton beam")],
        "passages": [passage.model_dump() for passage, _ in store.search_passages("anchorage", 5)],
    }


@pytest.mark.postgres
def test_a_history_moves_from_a_laptop_to_the_server_and_back_whole(
    isolated: Path, postgres_server: PostgresServer
) -> None:
    laptop = filled(isolated / "laptop.sqlite")
    before = everything(laptop)
    laptop.close()
    server = postgres_server.new_database()
    moved_in = db_command("copy", "--from", "sqlite:///laptop.sqlite", "--to", server)
    assert moved_in.returncode == 0, moved_in.stderr
    assert "Copied 3 workspaces, 21 turns, 21 tool calls, 3 file edits, 1 memory" in moved_in.stdout
    assert "the counts match" in moved_in.stdout and postgres_server.url("", "", "") not in moved_in.stdout
    on_server = ChatHistoryDB(server)
    assert everything(on_server) == before
    chat = on_server.create_chat("After the move")
    assert chat == 4 and on_server.add_to_history(chat, "q", "a") == 22, "ids go on from the copied ones"
    on_server.delete_chat(chat)

    back = db_command("copy", "--from", server, "--to", f"sqlite:///{isolated / 'back.sqlite'}")
    assert back.returncode == 0, back.stderr
    assert everything(ChatHistoryDB(isolated / "back.sqlite")) == before


def test_a_copy_into_a_history_that_holds_workspaces_is_refused(store_target: str, isolated: Path) -> None:
    filled(isolated / "laptop.sqlite").close()
    target = ChatHistoryDB(store_target)
    target.create_chat("Already here")
    refused = db_command("copy", "--from", str(isolated / "laptop.sqlite"), "--to", store_target)
    assert refused.returncode == 1
    assert "already holds workspaces; copy into an empty chat history" in refused.stderr, refused.stderr
    assert [name for _, name, _ in target.list_chats()] == ["Already here"], "nothing mixed in"


def test_a_copy_needs_a_source_and_another_target(isolated: Path) -> None:
    missing = db_command("copy", "--from", "sqlite:///nowhere.sqlite", "--to", "new.sqlite")
    assert missing.returncode == 2 and "There is no chat history at sqlite:///nowhere.sqlite" in missing.stderr
    assert not (isolated / "nowhere.sqlite").exists() and not (isolated / "new.sqlite").exists()
    filled(isolated / "laptop.sqlite").close()
    same = db_command("copy", "--from", "laptop.sqlite", "--to", f"sqlite:///{isolated / 'laptop.sqlite'}")
    assert same.returncode == 2 and "the same chat history" in same.stderr


def many_turns(path: Path, turns: int) -> None:
    """A SQLite history with one workspace of `turns` turns, written in bulk."""
    ChatHistoryDB(path).create_chat("Long")
    raw = sqlite3.connect(path)
    with raw:
        raw.executemany(
            "INSERT INTO history (chat_id, user, assistant, created_at) VALUES (1, ?, ?, '2026-01-01 00:00:00')",
            [(f"Load case {i} on the transfer beam?", "Fine. " * 40) for i in range(turns)],
        )
        raw.execute("INSERT INTO search_terms (term) VALUES ('load'), ('case'), ('fine')")
    raw.close()


def test_a_copy_killed_half_way_leaves_the_target_empty_and_can_start_again(store_target: str, isolated: Path) -> None:
    many_turns(isolated / "laptop.sqlite", 60_000)
    copying = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "db", "copy", "--from", "laptop.sqlite", "--to", "env:TARGET"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "TARGET": store_target},
    )  # fmt: skip
    assert copying.stderr is not None
    line = copying.stderr.readline()
    assert line.startswith("Copying chats: 1 of 1"), line  # the turns are being copied now
    copying.send_signal(signal.SIGKILL)
    copying.communicate(timeout=60)
    target = ChatHistoryDB(store_target)
    assert target.list_chats() == [] and raw_rows(store_target, "SELECT COUNT(*) FROM history") == [(0,)]
    target.close()
    again = db_command(
        "copy", "--from", "laptop.sqlite", "--to", "env:TARGET", env={"TARGET": store_target}, timeout=600
    )
    assert again.returncode == 0, again.stderr
    assert "Copied 1 workspace, 60,000 turns" in again.stdout
    assert ChatHistoryDB(store_target).count_turns(1) == 60_000


def test_db_upgrade_brings_an_old_file_to_the_current_schema(isolated: Path) -> None:
    path = isolated / "v12.sqlite"
    raw = sqlite3.connect(path)
    for migration in store.schema.MIGRATIONS[:12]:
        migration(raw)
    raw.execute("INSERT INTO chats (chat_name, created_at) VALUES ('Tower', '2026-01-01')")
    raw.execute("PRAGMA user_version = 12")
    raw.commit()
    raw.close()
    done = db_command("upgrade", "--db", str(path))
    assert done.returncode == 0, done.stderr
    latest = store.schema.SCHEMA_VERSION
    assert done.stdout.strip() == f"Upgraded the chat history at {path} from schema 12 to schema {latest}."
    again = db_command("upgrade", "--db", str(path))
    assert again.stdout.strip() == f"The chat history at {path} is already at schema {latest}; nothing to upgrade."


@pytest.mark.postgres
def test_db_upgrade_reads_database_url_and_never_shows_its_password(postgres_server: PostgresServer) -> None:
    url = postgres_server.new_database()
    password = url.split(":")[2].split("@")[0]
    done = db_command("upgrade", env={"DATABASE_URL": url})
    assert done.returncode == 0, done.stderr
    latest = store.postgres_schema.SCHEMA_VERSION
    assert f"from a new chat history to schema {latest}." in done.stdout and password not in done.stdout
    wrong = db_command("upgrade", env={"DATABASE_URL": url.replace(password, "not-" + password)})
    assert wrong.returncode == 1 and password not in wrong.stderr
    assert "refused user" in wrong.stderr and "correct the user and password in DATABASE_URL" in wrong.stderr


def migrations_of(target: str) -> tuple[Any, str]:
    """The module holding the migrations of `target`'s backend, and the SQL reading its schema version."""
    if is_postgres_url(target):
        return store.postgres_schema, "SELECT version FROM schema_version"
    return store.schema, "PRAGMA user_version"


def tables(target: str) -> set[str]:
    if is_postgres_url(target):
        sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {row[0] for row in raw_rows(target, sql)}


def test_a_migration_that_fails_half_way_leaves_the_database_as_it_was(
    store_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = ChatHistoryDB(store_target)
    chat = opened.create_chat("Tower")
    opened.add_to_history(chat, "kept", "answer")
    opened.close()
    module, version_sql = migrations_of(store_target)
    before, version = tables(store_target), raw_rows(store_target, version_sql)

    def half_way(db: Any) -> None:
        db.execute("CREATE TABLE half_done (id INTEGER)")
        db.execute("DELETE FROM history")
        db.execute("INSERT INTO no_such_table VALUES (1)")

    monkeypatch.setattr(module, "MIGRATIONS", [*module.MIGRATIONS, half_way])
    with pytest.raises(HistoryError, match="no_such_table"):
        ChatHistoryDB(store_target)
    assert tables(store_target) == before and raw_rows(store_target, version_sql) == version
    monkeypatch.undo()
    reopened = ChatHistoryDB(store_target)
    assert [turn.user for turn in reopened.get_turns(chat)] == ["kept"]


@pytest.mark.postgres
def test_migrations_run_one_process_at_a_time(postgres_server: PostgresServer) -> None:
    from store.postgres_connection import MIGRATION_LOCK

    url = postgres_server.new_database()
    script = "import sys; sys.path.insert(0, sys.argv[1]); import history; history.ChatHistoryDB(sys.argv[2])"
    with postgres_server.admin(url.rsplit("/", 1)[1]) as admin:  # advisory locks are a database's own
        admin.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))  # as a process migrating now would
        starting = [subprocess.Popen([sys.executable, "-c", script, str(ROOT), url], stderr=subprocess.PIPE, text=True)
                    for _ in range(3)]  # fmt: skip
        waiting = "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        assert wait_until(lambda: admin.execute(waiting).fetchone()[0] == 3, timeout=60), "they did not wait"
        admin.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
        errors = [process.communicate(timeout=60)[1] for process in starting]
    assert [process.returncode for process in starting] == [0, 0, 0], errors
    assert raw_rows(url, "SELECT version FROM schema_version") == [(store.postgres_schema.SCHEMA_VERSION,)]


@pytest.mark.postgres
def test_a_long_history_copied_with_its_words_made_by_several_processes_is_the_same_history(
    isolated: Path, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long history's word vectors are made by a process a CPU, and its references and word indexes are made
    again once the rows are in: the copy must read back the same, with the same constraints and indexes."""
    from store import copy_history, postgres_dialect

    laptop = filled(isolated / "laptop.sqlite")
    before = everything(laptop)
    fresh, plain, server = (postgres_server.new_database() for _ in range(3))
    ChatHistoryDB(fresh).close()
    copy_history(laptop, ChatHistoryDB(plain))  # a short history: its vectors made by the copying process
    monkeypatch.setattr(postgres_dialect, "SPREAD_FROM_TURNS", 1)  # every copy counts as long here
    monkeypatch.setattr("store.copying.BATCH", 4)  # and comes in many batches
    copy_history(laptop, ChatHistoryDB(server))
    on_server = ChatHistoryDB(server)
    assert everything(on_server) == before
    words = "SELECT turn_id, chat_id, words::text FROM turn_search ORDER BY turn_id"
    assert raw_rows(server, words) == raw_rows(plain, words) and len(raw_rows(server, words)) == 21
    assert _definitions(server) == _definitions(fresh), "the references and indexes a new database has"
    on_server.delete_chat(1)  # the references cascade again
    assert (
        on_server.get_turns(1) == []
        and raw_rows(server, "SELECT COUNT(*) FROM turn_search WHERE chat_id = 1")[0][0] == 0
    )


def _definitions(url: str) -> list[tuple[str, ...]]:
    import psycopg

    with psycopg.connect(url) as connection:
        constraints = connection.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint ORDER BY 1, 2"
        ).fetchall()
        indexes = connection.execute("SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = 'public' "
                                     "ORDER BY 1, 2").fetchall()  # fmt: skip
    return [tuple(map(str, row)) for row in [*constraints, *indexes]]
