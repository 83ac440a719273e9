"""The web page's security headers: the browser itself refuses to load anything from another origin.

Streamlit serves the page through Starlette; `streamlit_app.py` hands this middleware
to `st.App`, so every HTTP response (the page, its scripts, its media) carries:

- a Content-Security-Policy that lets the page load images, media, fonts, frames and
  scripts, and connect, only to the app itself (and `data:`/`blob:` URLs it made),
  so even an image that got past `faces/web/markdown.py` would not be fetched;
- `nosniff`, no referrer, and no embedding of the page in another site's frame.

Streamlit's own code needs `'unsafe-inline'` styles (its CSS-in-JS), and its
page has one inline script, allowed by its hash (read from the installed
Streamlit's page, so it follows upgrades). No `eval`: the charts draw without it.
The browser tests fail on any report of this policy refusing something.
"""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser
from pathlib import Path

import streamlit
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class _InlineScripts(HTMLParser):
    """The text of each `<script>` without `src` in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._inside = tag == "script" and not any(name == "src" for name, _ in attrs)
        if self._inside:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        self._inside = False

    def handle_data(self, data: str) -> None:
        if self._inside:
            self.scripts[-1] += data


def inline_script_hashes(page: Path = Path(streamlit.__file__).parent / "static" / "index.html") -> list[str]:
    """CSP source expressions ('sha256-…') for the inline scripts of Streamlit's page."""
    reader = _InlineScripts()
    reader.feed(page.read_text(encoding="utf-8"))
    digests = (hashlib.sha256(script.encode()).digest() for script in reader.scripts)
    return [f"'sha256-{base64.b64encode(digest).decode()}'" for digest in digests]


CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        " ".join(["script-src 'self'", *inline_script_hashes()]),
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "media-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "frame-src 'self' blob: data:",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'self'",
    ]
)
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """ASGI middleware: adds SECURITY_HEADERS to every HTTP response (WebSocket traffic passes untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
