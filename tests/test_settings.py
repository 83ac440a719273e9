"""Settings: defaults, `.env`, the environment and CLI overrides; one sentence for a bad value."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.configuration.settings import DEFAULT_SYSTEM_PROMPT, SettingsError, load_settings


def test_defaults_without_any_configuration() -> None:
    settings = load_settings(env_file=None, environ={})
    assert settings.endpoint == "http://localhost:11434" and settings.model == "qwen3:4b"
    assert settings.system_prompt == DEFAULT_SYSTEM_PROMPT
    assert settings.chat_history_db_path == Path("chat_history.sqlite")
    assert settings.workspace_root == Path("workspace")
    assert (settings.num_ctx, settings.max_tool_rounds, settings.think_option) == (8192, 8, False)
    assert settings.log_file is None


def test_precedence_file_then_environment_then_overrides(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("MODEL=llama3.2:3b\nNUM_CTX=4096\nTHINK=yes\nLOG_FILE=\nENDPOINT=http://gpu-box:11434/\n")
    from_file = load_settings(env_file=env_file, environ={})
    assert (from_file.model, from_file.num_ctx, from_file.think_option) == ("llama3.2:3b", 4096, True)
    assert from_file.endpoint == "http://gpu-box:11434" and from_file.log_file is None
    from_env = load_settings(env_file=env_file, environ={"MODEL": "mistral:7b"})
    assert from_env.model == "mistral:7b" and from_env.num_ctx == 4096
    overridden = load_settings(env_file=env_file, environ={"MODEL": "mistral:7b"}, overrides={"model": "qwen3:30b"})
    assert overridden.model == "qwen3:30b"


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("NUM_CTX", "lots", "a whole number from 1024 to 1048576"),
        ("NUM_CTX", "100", "a whole number from 1024 to 1048576"),
        ("MAX_TOOL_ROUNDS", "0", "from 1 to 50"),
        ("REQUEST_TIMEOUT", "-5", "seconds"),
        ("THINK", "maybe", "true, false, low, medium or high"),
        ("LOG_LEVEL", "LOUD", "DEBUG, INFO"),
        ("ENDPOINT", "localhost:11434", "http:// or https:// URL"),
        ("MODEL", "", "an Ollama model name"),
    ],
)
def test_bad_value_names_the_key_and_what_is_allowed(key: str, value: str, allowed: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(env_file=None, environ={key: value})
    message = str(caught.value)
    assert message.startswith(f"Setting {key} has the value") and allowed in message
    assert "\n" not in message


def test_no_setting_of_the_machine_reaches_a_test() -> None:
    """The fixtures clear every setting the application knows, whatever the developer exported."""
    import os

    from tests.conftest import SETTING_KEYS

    assert {"FILE_EDITS", "CHAT_HISTORY_DB_PATH", "WORKSPACE_ROOT", "LOG_FILE"} <= set(SETTING_KEYS)
    assert not any(key in os.environ for key in SETTING_KEYS)
    assert load_settings(env_file=None).file_edits == "confirm"


def test_paths_may_start_at_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    settings = load_settings(env_file=None, environ={"CHAT_HISTORY_DB_PATH": "~/h.sqlite", "WORKSPACE_ROOT": "~/w"})
    assert settings.chat_history_db_path == tmp_path / "h.sqlite" and settings.workspace_root == tmp_path / "w"


def test_a_log_file_that_is_the_history_under_another_name_is_refused(tmp_path: Path) -> None:
    from history import ChatHistoryDB

    ChatHistoryDB(tmp_path / "h.sqlite").close()
    os.link(tmp_path / "h.sqlite", tmp_path / "app.log")
    with pytest.raises(SettingsError, match="LOG_FILE .* is a file of the chat history"):
        load_settings(
            env_file=None,
            environ={"CHAT_HISTORY_DB_PATH": str(tmp_path / "h.sqlite"), "LOG_FILE": str(tmp_path / "app.log")},
        )


PLACES = [  # (.env, environment, --db)
    ("", {}, None),
    ("", {"CHAT_HISTORY_DB_PATH": "  office.sqlite "}, None),
    ("CHAT_HISTORY_DB_PATH=from-file.sqlite\n", {}, None),
    ("CHAT_HISTORY_DB_PATH=from-file.sqlite\n", {"CHAT_HISTORY_DB_PATH": "from-env.sqlite"}, None),
    ("", {"CHAT_HISTORY_DB_PATH": "~/office.sqlite"}, None),
    ("DATABASE_URL=postgresql://app:secret@db:5432/office\n", {}, None),
    ("", {"DATABASE_URL": " postgresql://app:secret@db/office "}, "here.sqlite"),
    ("", {"DATABASE_URL": "", "CHAT_HISTORY_DB_PATH": ""}, None),
    ("", {"DATABASE_URL": "mysql://app:secret@db/office"}, None),
    ("", {"DATABASE_URL": "mysql://app:secret@db/office"}, "here.sqlite"),
]


@pytest.mark.parametrize(("dotenv", "environ", "db"), PLACES)
def test_verify_finds_the_chat_history_where_the_settings_find_it(
    tmp_path: Path, dotenv: str, environ: dict[str, str], db: str | None
) -> None:
    """`python main.py verify` reads the history's place without the settings' validation
    (app.configuration.store_place): the same place, the same words, the same refusal as the settings."""
    from app.configuration.settings import store_choice
    from app.configuration.store_place import history_place

    env_file = tmp_path / ".env"
    env_file.write_text(dotenv)
    overrides = {"chat_history_db_path": db, "database_url": "" if db else None}
    try:
        settings = load_settings(env_file=env_file, environ=environ, overrides=overrides)
        choice = store_choice(env_file, overrides, environ=environ)
    except SettingsError as error:
        with pytest.raises(SettingsError) as raised:
            history_place(env_file, db, environ=environ)
        assert str(raised.value) == str(error)
        return
    place = history_place(env_file, db, environ=environ)
    assert place.target == settings.store_target
    assert (place.described, place.configured, place.exists) == (choice.described, choice.configured, choice.exists)
