"""`postgresql://USER:PASSWORD@HOST:PORT/DB`, read once, and shown everywhere without its password.

Every sentence the store says about a PostgreSQL database names it by `PostgresUrl.shown`
(`postgresql://USER@HOST:PORT/DB`), and anything the driver says passes through `redact`
first, so a password never reaches a message, a log or a page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

SCHEMES = ("postgresql://", "postgres://")
HIDDEN = "***"


def is_postgres_url(text: str) -> bool:
    return text.strip().lower().startswith(SCHEMES)


@dataclass(frozen=True)
class PostgresUrl:
    """A PostgreSQL URL taken apart: what libpq connects with, and what a sentence may show."""

    url: str
    user: str
    host: str
    port: int
    database: str
    secrets: tuple[str, ...]  # the password as written and as meant, to be hidden from every message

    @property
    def shown(self) -> str:
        return f"postgresql://{self.user}@{self.host}:{self.port}/{self.database}"

    def redact(self, text: str) -> str:
        """`text` with the password replaced, wherever it appears."""
        for secret in self.secrets:
            text = text.replace(secret, HIDDEN)
        return text


# `scheme:/…/user:` then anything up to the line's last `@`: a password may hold spaces, `@`, `:` or `/`, the
# scheme may be misspelt and its `//` folded into one `/` by a path, and hiding too much is safe.
_CREDENTIALS = re.compile(r"([A-Za-z][\w+.-]*:/*[^:/@\s'\"]*:).*@")
_PASSWORD_PARAMETER = re.compile(r"(password\s*=\s*)[^&\s'\"]*", re.IGNORECASE)


def redact_url(text: str) -> str:
    """`text` with whatever stands between a URL's `user:` and its last `@` (and any `password=`) hidden,
    whatever the URL's shape."""
    text = _CREDENTIALS.sub(rf"\1{HIDDEN}@", text)
    return _PASSWORD_PARAMETER.sub(rf"\1{HIDDEN}", text)


def parse_postgres_url(text: str) -> PostgresUrl:
    """The URL's parts; ValueError with one sentence (the URL shown without its password) when it is not one."""
    shown = redact_url(text.strip())
    if not is_postgres_url(text):
        raise ValueError(f"{shown} is not a postgresql://USER:PASSWORD@HOST:PORT/DB URL")
    if any(character.isspace() for character in text.strip()):
        raise ValueError(f"{shown} holds a space; write a space in the password as %20")
    if text.partition("://")[2].split("/", 1)[0].count("@") > 1:
        raise ValueError(f"{shown} holds an @ before its host's; write an @ in the password as %40")
    try:
        parts = urlsplit(text.strip())
        port = parts.port or 5432
    except ValueError:
        raise ValueError(f"{shown} has no valid port; write postgresql://USER:PASSWORD@HOST:PORT/DB") from None
    query = parse_qs(parts.query)
    database = unquote(parts.path.lstrip("/")) or query.get("dbname", [""])[0]
    if not database:
        raise ValueError(f"{shown} names no database; write postgresql://USER:PASSWORD@HOST:PORT/DB")
    written = [parts.password or "", *query.get("password", [])]
    secrets = tuple(sorted({s for w in written if w for s in (w, unquote(w))}, key=len, reverse=True))
    user = unquote(parts.username or "") or query.get("user", ["(your login)"])[0]
    host = parts.hostname or query.get("host", ["localhost"])[0]
    return PostgresUrl(text.strip(), user, host, port, database, secrets)
