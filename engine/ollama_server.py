"""Reaching the Ollama server: cheap per-call clients, model capabilities, pulled models, version."""

from __future__ import annotations

import asyncio
import re
import ssl
import weakref
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import httpx
import ollama

from domain.events import AgentError
from engine.failures import CallSite, model_not_found, provider_errors


@dataclass(frozen=True)
class ModelCapabilities:
    """What `/api/show` says a model can do (`vision`: it takes pictures), and the largest context it takes (None:
    it does not say)."""

    tools: bool = True
    thinking: bool = False
    context_length: int | None = None
    vision: bool = False


_NUM_CTX_PARAMETER = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)


def model_context_length(model_info: Mapping[str, Any] | None, parameters: str | None) -> int | None:
    """The smaller of the context the model was trained for (`<arch>.context_length`) and a `num_ctx`
    in its Modelfile's parameters; None when neither is given."""
    info = model_info or {}
    architecture = info.get("general.architecture")
    trained = info.get(f"{architecture}.context_length")
    if trained is None:
        trained = next((value for key, value in info.items() if key.endswith(".context_length")), None)
    limits = [int(trained)] if isinstance(trained, (int, float)) and trained > 0 else []
    if match := _NUM_CTX_PARAMETER.search(parameters or ""):
        limits.append(int(match.group(1)))
    return min(limits) if limits else None


@cache
def _tls_context() -> ssl.SSLContext:
    """One verified TLS context per process: building one costs ~30 ms, a client then ~0.2 ms."""
    return ssl.create_default_context()


def make_client(site: CallSite) -> ollama.AsyncClient:
    """A client for one call or one turn; it binds to the event loop that uses it, so never keep it."""
    timeout = httpx.Timeout(site.timeout, connect=min(site.timeout, 10.0))
    # trust_env=False: a proxy in the environment (HTTP_PROXY, ALL_PROXY) never sees a prompt; ENDPOINT alone is asked
    return ollama.AsyncClient(host=site.server, timeout=timeout, verify=_tls_context(), trust_env=False)


class ClientPerLoop:
    """One client per event loop and server, made on first use and kept, so a face that keeps its loop keeps its
    connections."""

    def __init__(self) -> None:
        self._clients: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[tuple[str, float], ollama.AsyncClient]
        ] = weakref.WeakKeyDictionary()

    def get(self, site: CallSite) -> ollama.AsyncClient:
        """The running loop's client for `site`'s server and timeout (made on first use)."""
        loop = asyncio.get_running_loop()
        clients = self._clients.setdefault(loop, {})
        key = (site.server, site.timeout)
        if key not in clients:
            clients[key] = make_client(site)
        return clients[key]

    async def close_running(self) -> None:
        """Close the running loop's clients; call it before that loop ends (other loops' clients stay)."""
        clients = self._clients.pop(asyncio.get_running_loop(), {})
        for client in clients.values():
            await client.close()  # type: ignore[no-untyped-call]  # the client's own method lacks hints


async def pulled_models(client: ollama.AsyncClient, site: CallSite) -> list[str]:
    """Names of the models pulled on the server; raises `AgentError` when it cannot tell."""
    async with provider_errors(site):
        listing = await client.list()
    return sorted(m.model for m in listing.models if m.model)


async def chat_models(client: ollama.AsyncClient, site: CallSite) -> list[str]:
    """The pulled models that can chat: those whose `/api/show` capabilities include "completion" (an embedding
    model such as nomic-embed-text says only "embedding"). A model the server says nothing about is kept."""
    names = await pulled_models(client, site)

    async def can_chat(name: str) -> bool:
        try:
            async with provider_errors(site):
                shown = await client.show(name)
        except AgentError:  # removed meanwhile, or the server hiccupped: it is not hidden for that
            return True
        return shown.capabilities is None or "completion" in shown.capabilities

    verdicts = await asyncio.gather(*(can_chat(name) for name in names))
    return [name for name, chat in zip(names, verdicts, strict=True) if chat]


async def model_capabilities(client: ollama.AsyncClient, site: CallSite) -> ModelCapabilities:
    """Ask `/api/show`; a missing model raises `MODEL_NOT_FOUND` naming the models that are pulled."""
    try:
        async with provider_errors(site):
            shown = await client.show(site.model)
    except AgentError as error:
        if error.code != "MODEL_NOT_FOUND":
            raise
        try:
            pulled: list[str] | None = await pulled_models(client, site)
        except AgentError:
            pulled = None
        raise model_not_found(site, pulled) from None
    names = set(shown.capabilities or ["completion", "tools"])  # servers before 0.6.4 do not say
    return ModelCapabilities(
        tools="tools" in names,
        thinking="thinking" in names,
        vision="vision" in names,
        context_length=model_context_length(shown.modelinfo, shown.parameters),
    )


@dataclass(frozen=True)
class ServerStatus:
    """What a status line says about the Ollama server, or servers: with several, `models` is what any of them has,
    `version` their versions, and `not_answering` those that did not answer (`error` only when none did)."""

    version: str | None
    models: tuple[str, ...]
    error: str | None = None
    servers: tuple[str, ...] = ()
    not_answering: tuple[str, ...] = ()

    @property
    def note(self) -> str | None:
        """With several servers: "2 of 3 Ollama servers reachable; http://gpu2:11434 is not answering"."""
        total = len(self.servers)
        if total < 2:
            return None
        down = self.not_answering
        if not down:
            return f"all {total} Ollama servers reachable"
        verb = "is" if len(down) == 1 else "are"
        return f"{total - len(down)} of {total} Ollama servers reachable; {', '.join(down)} {verb} not answering"


async def server_status(site: CallSite) -> ServerStatus:
    """The server's version and pulled chat models, or the sentence that says why it cannot be reached."""
    try:
        version = await server_version(site)
        async with make_client(site) as client:
            models = await chat_models(client, site)
    except AgentError as error:
        return ServerStatus(None, (), error.message)
    return ServerStatus(version, tuple(models))


async def server_version(site: CallSite) -> str:
    """The server's version (the client has no call for `/api/version`)."""
    timeout = httpx.Timeout(min(site.timeout, 5.0))
    async with httpx.AsyncClient(
        base_url=site.server, timeout=timeout, verify=_tls_context(), trust_env=False
    ) as client:
        async with provider_errors(site):
            response = await client.get("/api/version")
            response.raise_for_status()
            return str(response.json().get("version", "unknown"))


__all__ = [
    "ServerStatus",
    "chat_models",
    "server_status",
    "ModelCapabilities",
    "make_client",
    "model_capabilities",
    "model_context_length",
    "pulled_models",
    "server_version",
]


async def close_stream(response: AsyncIterator[Any]) -> None:
    """End a streamed reply before the server does: its connection is closed rather than read to the end."""
    aclose = getattr(response, "aclose", None)
    if aclose is not None:
        await aclose()
