"""Application settings: read once at start-up from the environment and `.env`.

Precedence, highest first: explicit overrides (CLI flags), the process
environment, the `.env` file, the defaults below. A bad value stops start-up
with one sentence that names the key and says what is allowed.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from app.configuration.store_place import DATABASE_URL_ALLOWED, check_history_file, read_env_file
from app.configuration.store_place import SettingsError as SettingsError  # where it was always imported from, too
from store import is_store_file
from store.postgres_url import parse_postgres_url, redact_url

DEFAULT_SYSTEM_PROMPT = (
    "You are a private engineering assistant for construction and structural "
    "engineers, running entirely on this computer. Use the tools for every "
    "calculation instead of doing arithmetic in your head, keep units on every "
    "quantity, show the formula and the values you substituted, and say which "
    "code or reference a rule comes from. Take a steel section's properties from "
    "section_properties, never from memory, and check a member with steel_beam_check. "
    "The project's own documents (specifications, memos, load schedules) are searchable with "
    "search_documents: use it for questions about the project, and cite the file and page. "
    "Earlier work in the user's other workspaces is searchable with search_past_work: use it when asked what "
    "was used last time or on another job, and cite the workspace by name. "
    "Read and edit project files only with "
    "the file tools. If information is missing, ask for it rather than guess."
)

_SERVER_URL = re.compile(r"https?://[^\s/,]+(/[^\s,]*)?")
ThinkSetting = Literal["true", "false", "low", "medium", "high"]
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class Settings(BaseModel):
    """Every configurable value, validated. Field names are the `.env` keys in lower case."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    endpoint: str = Field(
        "http://localhost:11434",
        description="an http:// or https:// URL such as http://localhost:11434, or several separated by commas",
    )
    max_turns_per_server: int = Field(2, ge=1, le=64, description="a whole number from 1 to 64")
    model: str = Field("qwen3:4b", min_length=1, description="an Ollama model name such as qwen3:4b")
    system_prompt: str = Field(DEFAULT_SYSTEM_PROMPT, min_length=1, description="non-empty text")
    chat_history_db_path: Path = Field(Path("chat_history.sqlite"), description="a file path")
    database_url: str = Field(
        "",
        description=DATABASE_URL_ALLOWED,
        repr=False,  # it holds a password
    )
    workspace_root: Path = Field(Path("workspace"), description="a folder path")
    num_ctx: int = Field(8192, ge=1024, le=1_048_576, description="a whole number from 1024 to 1048576")
    num_predict: int = Field(
        0, ge=0, le=1_048_576, description="0 (what the context leaves) or a whole number of tokens up to 1048576"
    )
    max_tool_rounds: int = Field(8, ge=1, le=50, description="a whole number from 1 to 50")
    request_timeout: float = Field(120.0, gt=0, le=3600, description="seconds, more than 0 and at most 3600")
    think: ThinkSetting = Field("false", description="true, false, low, medium or high")
    log_level: LogLevel = Field("WARNING", description="DEBUG, INFO, WARNING, ERROR or CRITICAL")
    log_file: Path | None = Field(None, description="a file path, or empty for standard error")
    file_edits: Literal["confirm", "auto", "off"] = Field("confirm", description="confirm, auto or off")
    agents_dir: Path | None = Field(
        None, description="a folder of agent files (NAME.md), or empty for the shipped ones"
    )
    hooks_config: Path | None = Field(None, description="a JSON file of pre-tool and post-tool hooks, or empty")
    mcp_config: Path | None = Field(None, description='a JSON file of MCP servers ({"mcpServers": …}), or empty')
    webhooks_config: Path | None = Field(
        None, description="a YAML file of webhooks (a list of {url, events, secret}), or empty"
    )
    exports_dir: Path | None = Field(
        None, description="a folder for exports and reports, or empty for exports/ beside the chat history"
    )
    mcp_idle_seconds: float = Field(300.0, gt=0, le=86400, description="seconds, more than 0 and at most 86400")
    embed_model: str = Field(
        "nomic-embed-text", description="an Ollama embedding model such as nomic-embed-text, or empty for none"
    )
    auth: Literal["none", "accounts"] = Field(
        "none", description="none (one person, no sign-in) or accounts (every face needs a user)"
    )
    max_turns_per_user: int = Field(2, ge=1, le=64, description="a whole number from 1 to 64")
    max_workspaces_per_user: int = Field(1000, ge=1, le=1_000_000, description="a whole number from 1 to 1,000,000")
    session_hours: float = Field(12, gt=0, le=24 * 90, description="a number of hours up to 2,160 (90 days)")
    allow_unauthenticated_network_access: bool = Field(
        False, description="true or false (true lets the web app without accounts serve other computers)"
    )
    sso_allowed_domains: str = Field(
        "", max_length=2000, description="e-mail domains separated by commas (office.example), or empty"
    )
    sso_role_claim: str = Field("roles", max_length=200, description="the name of an ID token's claim")
    trusted_proxies: str = Field(
        "", max_length=2000, description="addresses or networks of reverse proxies, separated by commas, or empty"
    )
    summary_every_turns: int = Field(
        10, ge=0, le=10_000, description="0 (only on leaving a workspace) or a whole number of turns up to 10000"
    )
    engineer_name: str = Field(
        "", max_length=200, description="your name as calculation packages show it (at most 200 characters), or empty"
    )

    @field_validator("think", mode="before")
    @classmethod
    def _normalise_think(cls, value: Any) -> Any:
        aliases = {"1": "true", "yes": "true", "on": "true", "0": "false", "no": "false", "off": "false"}
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            lowered = value.strip().lower()
            return aliases.get(lowered, lowered)
        return value

    @field_validator("file_edits", "auth", mode="before")
    @classmethod
    def _lower_file_edits(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_log_level(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator(
        "log_file", "agents_dir", "hooks_config", "mcp_config", "webhooks_config", "exports_dir", mode="before"
    )
    @classmethod
    def _empty_log_file_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("chat_history_db_path", "workspace_root", "log_file", "exports_dir", mode="after")
    @classmethod
    def _expand_home(cls, value: Path | None) -> Path | None:
        """`~/projects` in `.env` means the home folder, as in a shell (SQLite itself would not expand it)."""
        return value.expanduser() if value is not None else None

    @field_validator("database_url", mode="after")
    @classmethod
    def _postgres_url(cls, value: str) -> str:
        if value:
            parse_postgres_url(value)  # its sentence never shows the password
        return value

    @field_validator("endpoint", mode="after")
    @classmethod
    def _servers_listed(cls, value: str) -> str:
        """One URL or several separated by commas, each without its trailing slash, none twice."""
        urls = [url.strip().rstrip("/") for url in value.split(",") if url.strip()]
        if not urls or not all(_SERVER_URL.fullmatch(url) for url in urls):
            raise ValueError("not a list of http:// or https:// URLs")
        return ",".join(dict.fromkeys(urls))

    @model_validator(mode="after")
    def _files_apart_from_the_history(self) -> Settings:
        """A log appended to the database (or its companions) would corrupt it, and reading one as a setting file
        would drop SQLite's locks on it: refuse before anything opens it."""
        for key, path, use in (
            ("LOG_FILE", self.log_file, "the log"),
            ("HOOKS_CONFIG", self.hooks_config, "the hooks"),
            ("MCP_CONFIG", self.mcp_config, "the MCP servers"),
            ("WEBHOOKS_CONFIG", self.webhooks_config, "the webhooks"),
        ):
            if path is not None and is_store_file(path.expanduser(), self.chat_history_db_path):
                raise ValueError(
                    f"{key} {path} is a file of the chat history (CHAT_HISTORY_DB_PATH); name another file for {use}."
                )
        return self

    @property
    def store_target(self) -> str | Path:
        """What the store opens: DATABASE_URL when it is set, else the SQLite file at CHAT_HISTORY_DB_PATH."""
        return self.database_url or self.chat_history_db_path

    @property
    def exports_folder(self) -> Path:
        """Where `/export` and `/report` write without a file name: EXPORTS_DIR, or `exports/` beside the history."""
        return self.exports_dir if self.exports_dir is not None else self.chat_history_db_path.parent / "exports"

    @property
    def servers(self) -> tuple[str, ...]:
        """ENDPOINT's Ollama servers, in its order."""
        return tuple(self.endpoint.split(","))

    @property
    def think_option(self) -> bool | Literal["low", "medium", "high"]:
        """The value of Ollama's `think` request field."""
        if self.think == "true":
            return True
        if self.think == "false":
            return False
        return self.think


def _env_key(field_name: str) -> str:
    return field_name.upper()


def _explain(error: ValidationError, raw: Mapping[str, Any]) -> str:
    first = error.errors()[0]
    if not first["loc"]:  # a rule between settings: its own sentence says which and why
        return str(first.get("ctx", {}).get("error", first["msg"]))
    field_name = str(first["loc"][0])
    field = Settings.model_fields.get(field_name)
    allowed = field.description if field is not None and field.description else first["msg"]
    key = _env_key(field_name)
    if field_name not in Settings.model_fields:
        return f"Unknown setting {key}."
    shown = redact_url(str(raw.get(field_name, "")))[:80]  # a password in DATABASE_URL is never shown
    return f"Setting {key} has the value {shown!r}, which is not allowed: use {allowed}."


def load_settings(
    env_file: Path | None = Path(".env"),
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Settings:
    """Build the settings from defaults, `.env`, the environment and overrides.

    Only keys that `Settings` knows are taken from the file and the environment;
    `overrides` uses field names (`model`, `endpoint`, …) and ignores `None`s.
    """
    environ = os.environ if environ is None else environ
    sources = [read_env_file(env_file), environ]
    raw: dict[str, Any] = {}
    for source in sources:
        for name in Settings.model_fields:
            if _env_key(name) in source:
                raw[name] = source[_env_key(name)]
    raw.update({key: value for key, value in (overrides or {}).items() if value is not None})
    try:
        return Settings(**raw)
    except ValidationError as error:
        raise SettingsError(_explain(error, raw)) from None


@dataclass(frozen=True)
class StoreChoice:
    """Which chat history a command would open, and whether anything chose it: `.env`, the environment or a flag
    (else it is the default file in the current folder), and whether it exists already."""

    described: str
    configured: bool
    exists: bool


def store_choice(
    env_file: Path | None, overrides: Mapping[str, Any], environ: Mapping[str, str] | None = None
) -> StoreChoice:
    """The chat history `load_settings` would open with these, without opening anything."""
    environ = os.environ if environ is None else environ
    named = {key for key in ("CHAT_HISTORY_DB_PATH", "DATABASE_URL") if environ.get(key)}
    from_file = {key for key in ("CHAT_HISTORY_DB_PATH", "DATABASE_URL") if read_env_file(env_file).get(key)}
    flagged = any(overrides.get(name) for name in ("chat_history_db_path", "database_url"))
    settings = load_settings(env_file=env_file, environ=environ, overrides=overrides)
    if settings.database_url:
        return StoreChoice(f"the PostgreSQL database {redact_url(settings.database_url)}", True, True)
    path = settings.chat_history_db_path.absolute()
    return StoreChoice(f"the chat history file {path}", bool(named or from_file or flagged), path.exists())


def configure_logging(settings: Settings) -> None:
    """Log to LOG_FILE (or standard error) at LOG_LEVEL; whole prompts appear only at DEBUG."""
    handler: logging.Handler
    if settings.log_file is not None:
        settings.log_file.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(settings.log_file, encoding="utf-8")
    else:
        handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level)
    quiet = logging.DEBUG if settings.log_level == "DEBUG" else logging.WARNING
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(quiet)


def _nearest_existing(path: Path) -> Path:
    current = path.absolute()
    while not current.exists() and current != current.parent:
        current = current.parent
    return current


def check_paths(settings: Settings) -> None:
    """Refuse, before anything is created, a chat history whose folder does not exist (a mistyped path) and
    a workspace folder that cannot be made.

    One sentence names the setting; nothing is left half-created.
    """
    if not settings.database_url:  # on a database server, the history has no file here
        check_history_file(settings.chat_history_db_path)
    folder = settings.workspace_root
    existing = _nearest_existing(folder)
    if not existing.is_dir():
        raise SettingsError(
            f"WORKSPACE_ROOT {folder} cannot be used as the workspace folder: {existing} is a file, not a folder."
        )
    if not os.access(existing, os.W_OK | os.X_OK) and existing != folder.absolute():
        raise SettingsError(f"WORKSPACE_ROOT {folder} cannot be created: {existing} is not writable.")
