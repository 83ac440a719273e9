"""What the HTTP faces read of a request before they serve it: the bearer token, and the body within bounds."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from starlette.requests import Request

from faces.server.protocol import MAX_LINE_BYTES


class BodyTooLongError(Exception):
    """A body longer than MAX_LINE_BYTES."""


def bearer_token(request: Request) -> str | None:
    """The token of an `Authorization: Bearer` header (None: no header, or an empty token)."""
    return request.headers.get("authorization", "").removeprefix("Bearer ").strip() or None


def declared_too_long(request: Request, most: int = MAX_LINE_BYTES) -> bool:
    """Whether the body's declared length (`Content-Length`) passes `most` bytes, before any of it is read."""
    declared = request.headers.get("content-length", "")
    return declared.isdigit() and int(declared) > most


def _within_a_line(body: bytearray) -> bool:
    return len(body) <= MAX_LINE_BYTES


async def read_body(request: Request, seconds: float, allowed: Callable[[bytearray], bool] = _within_a_line) -> bytes:
    """The body, read in pieces: BodyTooLongError as soon as it is no longer `allowed` (by default: past
    MAX_LINE_BYTES), TimeoutError when it has not arrived whole within `seconds`."""
    body = bytearray()
    async with asyncio.timeout(seconds):
        async for piece in request.stream():
            body += piece
            if not allowed(body):
                raise BodyTooLongError
    return bytes(body)
