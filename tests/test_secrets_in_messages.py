"""No password in a message, whatever shape the URL that holds it has, and none on the command line of `db copy`."""

from __future__ import annotations

from pathlib import Path

import pytest

from history import ChatHistoryDB
from store.postgres_url import redact_url
from tests.cli_helpers import run_cli
from tests.test_db_commands import db_command, filled

SECRET = "hunter2"
MALFORMED = (  # each once echoed with its password
    "postgresql://app:hunter2 and more@db:5432/history",  # a space in the password
    "postgresql://app:p@hunter2@db:5432/history",  # an `@` in it
    "postgresql://app:hunter2@db:54x2/history",  # a port that is no number
    "postgresql://app:hunter2@db:99999/history",  # one out of range
    "postgressql://app:hunter2@db:5432/history",  # the scheme misspelt
    "postgresql:/app:hunter2@db:5432/history",  # a slash lost, as a path folds `//`
    "mysql://app:hun:ter2@db/history",  # another scheme, with a colon in the password
)


@pytest.mark.parametrize("url", MALFORMED)
def test_a_url_is_shown_without_its_password_whatever_its_shape(url: str) -> None:
    shown = redact_url(f"Setting DATABASE_URL has the value {url!r}, which is not allowed.")
    assert "hunter" not in shown and "ter2" not in shown and "***@db" in shown, shown
    assert shown.startswith("Setting DATABASE_URL has the value '") and shown.endswith("', which is not allowed.")


@pytest.mark.parametrize("url", MALFORMED[::2])
def test_a_malformed_database_url_is_one_sentence_without_the_password(url: str, isolated: Path) -> None:
    said = run_cli("--once", "q", env={"DATABASE_URL": url})
    assert said.returncode == 2, said.stderr
    assert "Traceback" not in said.stderr and len(said.stderr.strip().splitlines()) == 1, said.stderr
    assert "hunter" not in said.stdout + said.stderr and "DATABASE_URL" in said.stderr, said.stderr
    assert not list(isolated.iterdir()), "nothing made from a URL taken for a file name"


@pytest.mark.parametrize("url", MALFORMED)
def test_a_copy_to_or_from_a_malformed_url_never_shows_the_password(url: str, isolated: Path) -> None:
    filled(isolated / "laptop.sqlite").close()
    for flags in (("--from", "laptop.sqlite", "--to", url), ("--from", url, "--to", "elsewhere.sqlite")):
        said = db_command("copy", *flags)
        assert said.returncode in (1, 2) and "Traceback" not in said.stderr, said.stderr
        assert "hunter" not in said.stdout + said.stderr and "ter2" not in said.stderr, said.stderr
    assert sorted(path.name for path in isolated.iterdir()) == ["laptop.sqlite"]


def test_db_copy_takes_its_urls_from_the_environment_or_the_settings_and_warns_of_one_typed(isolated: Path) -> None:
    filled(isolated / "laptop.sqlite").close()
    from_variable = db_command(
        "copy",
        "--from",
        "env:LAPTOP",
        "--to",
        "env:OFFICE",
        env={"LAPTOP": "sqlite:///laptop.sqlite", "OFFICE": f"sqlite:///{isolated / 'one.sqlite'}"},
    )
    assert from_variable.returncode == 0, from_variable.stderr
    assert "Copied 3 workspaces" in from_variable.stdout and "process list" not in from_variable.stderr
    (isolated / ".env").write_text("CHAT_HISTORY_DB_PATH=two.sqlite\n")
    into_settings = db_command("copy", "--from", "laptop.sqlite")
    assert into_settings.returncode == 0 and "into two.sqlite;" in into_settings.stdout, into_settings
    out_of_settings = db_command("copy", "--to", "three.sqlite")
    assert out_of_settings.returncode == 0 and (isolated / "three.sqlite").is_file(), out_of_settings.stderr
    unset = db_command("copy", "--from", "env:NOWHERE", "--to", "four.sqlite")
    assert unset.returncode == 2 and unset.stderr.strip() == (
        "The environment variable NOWHERE is not set; export it with the chat history's URL."
    )
    neither = db_command("copy")
    assert neither.returncode == 2 and "Name at least one side of the copy" in neither.stderr
    typed = db_command("copy", "--from", "laptop.sqlite", "--to", "postgresql://app:hunter2@127.0.0.1:9/h")
    assert typed.returncode == 1 and "hunter2" not in typed.stdout + typed.stderr
    assert typed.stderr.startswith(
        "The password given with --to can be read by every user of this computer in the process list; keep the "
        "URL in DATABASE_URL (in the environment or .env) or in a variable named with env:NAME.\n"
    ), typed.stderr
    assert "env:NAME" in db_command("copy", "--help").stdout


def test_a_copy_is_in_the_audit_trail_of_each_history_with_users(store_target: str, isolated: Path) -> None:
    laptop = filled(isolated / "laptop.sqlite")
    laptop.add_user("ann", "admin", "argon-hash")
    laptop.close()
    copied = db_command("copy", "--from", "laptop.sqlite", "--to", "env:TARGET", env={"TARGET": store_target})
    assert copied.returncode == 0, copied.stderr
    target, source = ChatHistoryDB(store_target), ChatHistoryDB(isolated / "laptop.sqlite")
    try:
        for store, action, where in (
            (target, "history copied in", "from laptop.sqlite"),
            (source, "history copied out", "to "),
        ):
            last = store.audit_records()[-1]
            assert (last.user_name, last.action) == ("(server)", action) and last.detail.startswith(where), last
            assert "Copied" not in last.detail and "3 workspaces" in last.detail and store.verify_audit().intact
            assert SECRET not in last.detail
    finally:
        target.close()
        source.close()
