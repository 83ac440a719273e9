"""The NDJSON protocol of the Construct operator: requests read and checked, events written.

One JSON object per line both ways. Every event carries `type`, `requestID` (the
request's `id`, or null when the line could not be read) and `timestamp` (Unix ms).
See docs/protocol.md for the whole contract.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Literal

from app import MAX_IMAGES

MAX_LINE_BYTES = 1024 * 1024
# A dispatch that carries images may be longer: a 20 MB photo is about 27 MB of base64, and this takes four of them.
MAX_IMAGE_LINE_BYTES = 128 * 1024 * 1024
_IMAGES_KEY = b'"images"'
MAX_SESSION_ID = 2**63 - 1  # SQLite's largest integer
SHOWN_CHARS = 40  # of a client's value quoted back in a message
DEFAULT_AGENT = "assistant"
AGENTS = (DEFAULT_AGENT,)
RequestType = Literal["dispatch", "cancel", "list-sessions", "get-session", "delete-session"]
REQUEST_TYPES: tuple[RequestType, ...] = ("dispatch", "cancel", "list-sessions", "get-session", "delete-session")
ErrorCode = Literal[
    "INVALID_REQUEST", "AGENT_NOT_FOUND", "SESSION_NOT_FOUND", "TOOL_ERROR", "PROVIDER_ERROR", "TIMEOUT",
    "INTERNAL_ERROR", "UNAUTHORIZED", "FORBIDDEN",
]  # fmt: skip
Event = dict[str, Any]


def now_ms() -> int:
    return int(time.time() * 1000)


def event(kind: str, request_id: str | None, **fields: Any) -> Event:
    """An event: its type, the request it answers, the time, then its own fields."""
    return {"type": kind, "requestID": request_id, "timestamp": now_ms(), **fields}


def error_event(
    request_id: str | None,
    code: ErrorCode,
    message: str,
    recoverable: bool = True,
    details: dict[str, Any] | None = None,
) -> Event:
    extra = {"details": details} if details else {}
    return event("error", request_id, code=code, message=message, recoverable=recoverable, **extra)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # one encoder: json.dumps makes one a call
_ASCII_ENCODER = json.JSONEncoder(separators=(",", ":"))
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # `\ud800`: half of a UTF-16 pair, maybe alone


def encode(payload: Event) -> bytes:
    """The event's line; text holding a lone surrogate (not UTF-8) is written with JSON's `\\u` escapes."""
    try:
        return _ENCODER.encode(payload).encode() + b"\n"
    except UnicodeEncodeError:
        return _ASCII_ENCODER.encode(payload).encode() + b"\n"


def shown(value: Any) -> str:
    """A client's value quoted in a message, cut short."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else f"{text[:SHOWN_CHARS]}…"


class RequestError(Exception):
    """A request that cannot be served: the error event to send instead."""

    def __init__(self, request_id: str | None, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.event = error_event(request_id, code, message)


@dataclass(frozen=True)
class Request:
    """A request that has been read and checked."""

    id: str
    type: RequestType
    body: dict[str, Any] = field(default_factory=dict)

    def text(self, key: str) -> str | None:
        value = self.body.get(key)
        return value if isinstance(value, str) else None

    def session_id(self, required: bool) -> int | None:
        """`sessionID` as the workspace id: a string of digits or a number; None when absent and not required."""
        value = self.body.get("sessionID")
        if value is None or value == "":
            if required:
                raise RequestError(self.id, "INVALID_REQUEST", f"{self.type} needs a sessionID")
            return None
        number = _whole_number(value)
        if number is None or number > MAX_SESSION_ID:
            raise RequestError(
                self.id, "INVALID_REQUEST",
                f"sessionID {shown(value)} is not a session ID: session IDs are whole numbers up to "
                f"{MAX_SESSION_ID}, as a string of digits or a number",
            )  # fmt: skip
        return number


def _whole_number(value: Any) -> int | None:
    """A JSON number or a string of ASCII digits (at most 19 of them) as an int; None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value >= 0 else None
    if isinstance(value, str):
        digits = value.strip()
        if digits.isascii() and digits.isdigit() and len(digits) <= len(str(MAX_SESSION_ID)):
            return int(digits)
    return None


def carries_images(start: bytes | bytearray) -> bool:
    """Whether a line that begins with `start` names `images` within its first MAX_LINE_BYTES (where the key of a
    dispatch's pictures comes, before their base64)."""
    return start.find(_IMAGES_KEY, 0, MAX_LINE_BYTES) >= 0


def line_allowed(start: bytes | bytearray, length: int) -> bool:
    """Whether a line of `length` bytes that begins with `start` is read: up to MAX_LINE_BYTES, or up to
    MAX_IMAGE_LINE_BYTES when it carries images."""
    return length <= MAX_LINE_BYTES or (length <= MAX_IMAGE_LINE_BYTES and carries_images(start))


def parse_line(line: bytes) -> Any:
    """The line's JSON value; RequestError for a line that is not JSON, is nested too deeply, or holds a lone
    surrogate (text that is not Unicode, which nothing downstream could store or send)."""
    try:
        body = json.loads(line)
    except RecursionError:
        raise RequestError(None, "INVALID_REQUEST", "the line's JSON is nested too deeply to be read") from None
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, a number of more than 4,300 digits
        raise RequestError(None, "INVALID_REQUEST", f"the line is not JSON ({str(error)[:200]})") from None
    if _SURROGATE_ESCAPE.search(line):
        try:
            _ENCODER.encode(body).encode()
        except (UnicodeEncodeError, RecursionError):
            message = "the line holds a lone UTF-16 surrogate (a \\ud800-style escape), which is not text"
            raise RequestError(None, "INVALID_REQUEST", message) from None
    return body


def read_request(line: bytes, token: str | None, token_matches: Any, agents: Collection[str] = AGENTS) -> Request:
    """The request on one line, checked; RequestError says what is wrong with it."""
    body = parse_line(line)
    if not isinstance(body, dict):
        raise RequestError(None, "INVALID_REQUEST", "a request is a JSON object")
    raw_id = body.get("id")
    request_id = str(raw_id) if isinstance(raw_id, str | int) and not isinstance(raw_id, bool) else None
    if token is not None and not token_matches(body.get("token")):
        raise RequestError(request_id, "UNAUTHORIZED", "the request's token is missing or wrong")
    if request_id is None or not request_id:
        raise RequestError(None, "INVALID_REQUEST", "a request needs an id (a string)")
    kind = body.get("type")
    if kind is None:
        raise RequestError(request_id, "INVALID_REQUEST", "a request needs a type")
    if kind not in REQUEST_TYPES:
        kinds = ", ".join(REQUEST_TYPES)
        raise RequestError(request_id, "INVALID_REQUEST", f"unknown type {shown(kind)}; use one of {kinds}")
    request = Request(request_id, kind, body)
    if kind == "dispatch":
        content = body.get("content")
        if not isinstance(content, str) or not content.strip():
            raise RequestError(request_id, "INVALID_REQUEST", "a dispatch needs content: the question, as text")
        files = body.get("files")
        if files is not None and not (isinstance(files, list) and all(isinstance(f, str) for f in files)):
            raise RequestError(request_id, "INVALID_REQUEST", "files must be a list of file names")
        _check_images(request_id, body.get("images"))
    if len(line) > MAX_LINE_BYTES and not (kind == "dispatch" and body.get("images")):
        message = f"only a dispatch that carries images may be longer than {MAX_LINE_BYTES:,} bytes"
        raise RequestError(request_id, "INVALID_REQUEST", message)
    if kind == "cancel" and not request.text("requestID"):
        raise RequestError(request_id, "INVALID_REQUEST", "a cancel needs the requestID of the dispatch to stop")
    agent = body.get("agentID", DEFAULT_AGENT if kind != "dispatch" else None)
    if kind == "dispatch" and not isinstance(agent, str):
        raise RequestError(request_id, "INVALID_REQUEST", f"a dispatch needs an agentID ({DEFAULT_AGENT!r})")
    if agent is not None and not isinstance(agent, str):
        raise RequestError(request_id, "INVALID_REQUEST", f"agentID is an agent's name, such as {DEFAULT_AGENT!r}")
    if agent is not None and agent not in agents:
        known = ", ".join(sorted(agents))
        raise RequestError(request_id, "AGENT_NOT_FOUND", f"there is no agent {shown(agent)}; the agents are: {known}")
    return request


def _check_images(request_id: str, images: Any) -> None:
    if images is None:
        return
    if not (isinstance(images, list) and all(isinstance(image, str) and image for image in images)):
        raise RequestError(request_id, "INVALID_REQUEST", "images must be a list of base64 strings, one a picture")
    if len(images) > MAX_IMAGES:
        message = f"{len(images)} images is more than the {MAX_IMAGES} one dispatch may carry"
        raise RequestError(request_id, "INVALID_REQUEST", message)
