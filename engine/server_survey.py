"""Asking every server of a pool at once: the status line, and the chat models any server that answers has.

A server that does not answer is marked down in the pool (so turns skip it) and named; one that answers is
marked answering again, so a server that came back takes turns at once.
"""

from __future__ import annotations

import asyncio

from domain.events import AgentError
from engine.failures import CallSite, none_answers
from engine.ollama_server import ClientPerLoop, ServerStatus, chat_models, server_status
from engine.server_pool import ServerPool


async def pool_status(pool: ServerPool, model: str, timeout: float) -> ServerStatus:
    """The servers' versions and chat models, naming those that do not answer (one server: as it always was)."""
    if not pool.several:
        return await server_status(CallSite(pool.urls[0], model, timeout))
    each = await asyncio.gather(*(server_status(CallSite(url, model, timeout)) for url in pool.urls))
    silent: list[str] = []
    for url, status in zip(pool.urls, each, strict=True):
        if status.error is None:
            pool.mark_answering(url)
        else:
            pool.mark_down(url, status.error)
            silent.append(url)
    answering = [status for status in each if status.error is None]
    error = None if answering else none_answers(pool.urls).message
    versions = sorted({status.version for status in answering if status.version})
    models = sorted({name for status in answering for name in status.models})
    return ServerStatus(
        ", ".join(versions) or None, tuple(models), error, servers=pool.urls, not_answering=tuple(silent)
    )


async def chat_models_anywhere(pool: ServerPool, clients: ClientPerLoop, timeout: float) -> list[str]:
    """The chat models of every server worth asking, together; `AgentError` when none answers (one server: its
    own sentence, as it always was)."""
    if not pool.several:
        site = CallSite(pool.urls[0], "", timeout)
        return await chat_models(clients.get(site), site)
    asking = pool.asking()

    async def models_of(url: str) -> list[str] | None:
        site = CallSite(url, "", timeout)
        try:
            names = await chat_models(clients.get(site), site)
        except AgentError as failure:
            pool.mark_down(url, failure.message)
            return None
        pool.mark_answering(url)
        return names

    each = await asyncio.gather(*(models_of(url) for url in asking))
    if all(names is None for names in each):
        raise none_answers(asking)
    return sorted({name for names in each for name in names or ()})
