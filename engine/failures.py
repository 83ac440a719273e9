"""Turn what goes wrong between us and Ollama into one coded sentence for the user.

This is the single place that knows the client's exception types; the agent
wraps its calls to the server in `provider_errors`, or for a stream catches
`CLIENT_FAILURES` and calls `classify` (which knows whether text had arrived),
and so sees only `AgentError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import ollama
import pydantic

from domain.events import AgentError

_KEPT = "The text received so far was kept."
# Ollama's "input length exceeds the context length", llama.cpp's "the request exceeds the available context size"
_CONTEXT_OVERFLOW = re.compile(
    r"exceed\w*\s+(?:the\s+)?(?:available\s+|model'?s?\s+|maximum\s+)?context"
    r"|context\s+(?:length|size|window)\s+(?:is\s+|was\s+)?exceeded"
    r"|too long for (?:the\s+)?(?:model'?s?\s+)?context|maximum context length"
)
_CONTEXT_OVERFLOW_TYPES = {"exceed_context_size_error", "context_length_exceeded", "context_exceeded"}


@dataclass(frozen=True)
class CallSite:
    """What a failure message needs to name: the server, the model and the time limit."""

    server: str
    model: str
    timeout: float


class ServerFailedError(AgentError):
    """The server failed, not the model: it refused the connection, did not answer in time, broke off, or answered
    with a 5xx of its own. Another server may take the turn (if nothing of it was shown yet)."""


def unavailable(site: CallSite) -> AgentError:
    return ServerFailedError(
        "PROVIDER_UNAVAILABLE",
        f"Cannot reach Ollama at {site.server} — is `ollama serve` running? Start it and send your message again.",
    )


def model_not_found(site: CallSite, pulled: Iterable[str] | None) -> AgentError:
    names = sorted(pulled or [])
    if names:
        have = f"Pulled models: {', '.join(names)}."
    elif pulled is None:
        have = "The list of pulled models could not be read."
    else:
        have = "No models are pulled yet."
    return AgentError(
        "MODEL_NOT_FOUND",
        f"The model {site.model} is not available on the Ollama server at {site.server}. {have} "
        f"Run `ollama pull {site.model}` or choose another model.",
        recoverable=False,
    )


def listed(urls: Sequence[str]) -> str:
    return ", ".join(urls)


def none_answers(urls: Sequence[str]) -> AgentError:
    """The sentence for several servers of which none answers."""
    return AgentError(
        "PROVIDER_UNAVAILABLE",
        f"None of the Ollama servers answers (tried {listed(urls)}) — is `ollama serve` running on them? "
        "Start one and send your message again.",
    )


def model_on_no_server(
    model: str, servers: Sequence[str], asked: Sequence[str], answering: Sequence[str], pulled: Sequence[str]
) -> AgentError:
    """The sentence for a model on none of the `servers` that answer, naming those tried and those silent."""
    if not answering:
        return none_answers(asked)
    silent = [url for url in servers if url not in answering]
    down = f"; {listed(silent)} {'is' if len(silent) == 1 else 'are'} not answering" if silent else ""
    have = f"Pulled there: {listed(pulled)}." if pulled else "No models are pulled there yet."
    return AgentError(
        "MODEL_NOT_FOUND",
        f"The model {model} is on none of the Ollama servers that answer (tried {listed(answering)}{down}). "
        f"{have} Run `ollama pull {model}` on one of them, or choose another model.",
        recoverable=False,
    )


def _error_detail(error: ollama.ResponseError) -> tuple[str, str]:
    """The server's message and error type, whether it sent a sentence or an object such as llama.cpp's
    `{"code": 500, "type": "exceed_context_size_error", "message": "…"}`."""
    detail: Any = error.error
    if isinstance(detail, str) and detail.lstrip().startswith("{"):
        try:
            detail = json.loads(detail)
        except ValueError:
            pass
    if isinstance(detail, dict):
        inner = detail.get("error", detail)
        detail = inner if isinstance(inner, dict) else {"message": inner}
        return str(detail.get("message") or "").strip().rstrip("."), str(detail.get("type") or "")
    return str(detail).strip().rstrip("."), ""


def context_overflow(site: CallSite) -> AgentError:
    return AgentError(
        "CONTEXT_OVERFLOW",
        f"The conversation no longer fits in the context of {site.model}, so the server refused it; start a new "
        "workspace, or raise NUM_CTX (or choose a model with a larger context).",
        recoverable=False,
    )


def _response_error(error: ollama.ResponseError, site: CallSite, mid_stream: bool) -> AgentError:
    text, kind = _error_detail(error)
    lowered = text.lower()
    if kind in _CONTEXT_OVERFLOW_TYPES or _CONTEXT_OVERFLOW.search(lowered):
        return context_overflow(site)
    if error.status_code == 404 or ("not found" in lowered and "model" in lowered):
        return model_not_found(site, None)
    if "memory" in lowered:
        return AgentError(
            "PROVIDER_ERROR",
            f"Ollama could not run {site.model}: {text}. Close other programs or choose a smaller model.",
        )
    if mid_stream or error.status_code == -1:  # -1: an error line in the stream, not an HTTP status
        kept = f" {_KEPT}" if mid_stream else " Try again."
        return AgentError("PROVIDER_ERROR", f"Ollama reported an error while answering: {text}.{kept}")
    failure = ServerFailedError if error.status_code >= 500 else AgentError
    return failure("PROVIDER_ERROR", f"Ollama reported an error (HTTP {error.status_code}): {text}. Try again.")


def classify(error: BaseException, site: CallSite, mid_stream: bool = False) -> AgentError:
    """Map a client, transport or protocol exception to an `AgentError`."""
    kept = f" {_KEPT}" if mid_stream else ""
    if isinstance(error, AgentError):
        return error
    if isinstance(error, ollama.ResponseError):
        return _response_error(error, site, mid_stream)
    if isinstance(error, httpx.TimeoutException):
        return ServerFailedError(
            "TIMEOUT",
            f"Ollama at {site.server} did not answer within {site.timeout:g} s (REQUEST_TIMEOUT); the model may be "
            f"loading or overloaded — try again, or raise REQUEST_TIMEOUT.{kept}",
        )
    if isinstance(error, (ConnectionError, httpx.ConnectError)) and not mid_stream:
        return unavailable(site)
    if isinstance(error, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError, ConnectionError)):
        return ServerFailedError(
            "PROVIDER_ERROR", f"The connection to Ollama at {site.server} broke off in the middle of the answer.{kept}"
        )
    if isinstance(error, pydantic.ValidationError) and _about_tool_calls(error):
        return AgentError(
            "PROVIDER_ERROR",
            f"{site.model} sent a malformed tool call (its arguments were missing or not a JSON object); "
            f"ask again, or try another model.{kept}",
        )
    if isinstance(error, (json.JSONDecodeError, pydantic.ValidationError, UnicodeDecodeError)):
        return AgentError(
            "PROVIDER_ERROR",
            f"Ollama at {site.server} sent a reply this application cannot read "
            f"(is it really an Ollama server?).{kept}",
        )
    return AgentError("PROVIDER_ERROR", f"Talking to Ollama at {site.server} failed ({error}).{kept}")


def _about_tool_calls(error: pydantic.ValidationError) -> bool:
    return any("tool_calls" in map(str, item["loc"]) for item in error.errors())


CLIENT_FAILURES = (
    ollama.ResponseError,
    httpx.HTTPError,
    ConnectionError,
    json.JSONDecodeError,
    pydantic.ValidationError,
    UnicodeDecodeError,
)


@asynccontextmanager
async def provider_errors(site: CallSite) -> AsyncIterator[None]:
    """Re-raise any client failure inside the block as an `AgentError`."""
    try:
        yield
    except CLIENT_FAILURES as error:
        raise classify(error, site) from error
