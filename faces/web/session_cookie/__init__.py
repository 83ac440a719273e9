"""The browser's sign-in session kept in an HttpOnly cookie, so that a reload, a bookmark, a `?chat=` link or a
restarted web process keeps the user signed in (for SESSION_HOURS, unless the session is ended first).

Streamlit lets a page set no cookie of its own, so the page hands the session's token to a frame of its own
origin (`session_cookie.js`), which sends it to the app's `/_session` route (`route`, served by `st.App`); the
route answers with the cookie. A new tab reads it back from `st.context.cookies`. The cookie holds only the
token, whose secret the store keeps as a SHA-256: it signs nobody in once the session is ended.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import streamlit as st
import streamlit.components.v1 as components
from starlette.requests import Request
from starlette.responses import Response

COOKIE = "engineering_session"
ROUTE = "/_session"
MAX_AGE = 90 * 24 * 3600  # the browser's bound; the store's expiry (SESSION_HOURS) is the one that counts
_TOKEN = re.compile(r"ess_[0-9]{1,18}_[A-Za-z0-9_-]{20,100}")


@functools.cache
def _frame() -> Any:
    """The frame, declared on first use in a run of the page: the server imports this module for `route` before
    its runtime (with the registry of components) exists."""
    return components.declare_component("session_cookie", path=str(Path(__file__).parent))


def keep(token: str) -> None:
    """Put the session's token in the browser's cookie ("" takes it out), from a frame of no height."""
    _frame()(token=token, key="session-cookie", default=None)


def from_browser() -> str:
    """The session token the browser sent with this tab's connection ("" when there is none)."""
    cookies = getattr(st.context, "cookies", None) or {}
    token = str(cookies.get(COOKIE, ""))
    return token if _TOKEN.fullmatch(token) else ""


async def route(request: Request) -> Response:
    """POST a token: the cookie holds it; DELETE: the cookie is taken out. Only from this origin's own frame (a
    header a page of another site cannot send without this app's leave), and only a token's shape."""
    if request.headers.get("x-session-cookie") != "1":
        return Response("Not from this app.", status_code=403)
    response = Response(status_code=204)
    if request.method == "DELETE":
        response.delete_cookie(COOKIE, path="/", samesite="strict", httponly=True)
        return response
    token = (await request.body())[:200].decode("ascii", "replace").strip()
    if not _TOKEN.fullmatch(token):
        return Response("Not a session.", status_code=400)
    secure = request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https"
    response.set_cookie(COOKIE, token, max_age=MAX_AGE, path="/", httponly=True, samesite="strict", secure=secure)
    return response
