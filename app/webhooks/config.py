"""WEBHOOKS_CONFIG: the receivers the office's other programs listen on, read from a YAML file.

    - url: http://jira.office.local/rest/webhooks/engineering
      events: [package.approved, workspace.shared]
      secret: a long random text the receiver also knows
    - url: http://127.0.0.1:8009/matrix-bridge
      events: [turn.completed]
      secret: another one

The file is read with `yaml.safe_load` (no tags, no objects). Each URL is http:// or https:// and named once; each
hook lists the events it gets, from `domain.webhooks.WEBHOOK_EVENTS`; the secret signs each body and is never shown:
not in a record, a sentence, a log or the `webhooks` listing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from domain.webhooks import WebhookEvent


class Hook(BaseModel):
    """One receiver: where its events go, which it gets, and the secret that signs them (never shown)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str = Field(min_length=1)
    events: tuple[WebhookEvent, ...] = Field(min_length=1)
    secret: str = Field(min_length=1, repr=False)

    @field_validator("url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("a hook's url is an http:// or https:// URL with a host")
        return value.strip()

    def wants(self, event: str) -> bool:
        return event in self.events


_HOOKS: TypeAdapter[list[Hook]] = TypeAdapter(list[Hook])


def load_webhooks(path: Path | None) -> tuple[Hook, ...]:
    """The hooks WEBHOOKS_CONFIG names (none without it); ValueError says in one sentence what is wrong with the
    file, without quoting any value from it."""
    if path is None:
        return ()
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"WEBHOOKS_CONFIG {path} cannot be read ({type(error).__name__})") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark is not None else ""
        raise ValueError(f"WEBHOOKS_CONFIG {path}{where}: not valid YAML") from None
    try:
        hooks = tuple(_HOOKS.validate_python([] if loaded is None else loaded))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(map(str, first["loc"])) or "the file"
        raise ValueError(
            f"WEBHOOKS_CONFIG {path}: {where}: {first['msg']} (a list of {{url, events, secret}})"
        ) from None
    _each_url_once(path, hooks)
    return hooks


def _each_url_once(path: Path, hooks: Sequence[Hook]) -> None:
    seen: set[str] = set()
    for number, hook in enumerate(hooks):
        if hook.url in seen:
            raise ValueError(f"WEBHOOKS_CONFIG {path}: {number}.url: a URL is named once; list all its events there")
        seen.add(hook.url)
