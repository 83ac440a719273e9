"""AIAgent: the prompt, the Ollama tool-calling loop, and the events every face renders.

The agent holds only what is fixed: the servers, the context budget, the time limits, the
default model, prompt and tools, and what it learned of each model. Everything that varies
from one turn to the next arrives as one immutable `TurnRequest`, so one agent can run turns
of different workspaces at once. Each turn, summary and embedding goes to a server of its
`ServerPool` (`server_pool.py`: one that has the model, with the fewest turns in flight). It
keeps one `ollama.AsyncClient` per event loop and server (a face that keeps its loop also keeps
its connections), and nothing else bound to a loop.

For other programs, as in the first version: `AIAgent(model, server, system_prompt)`,
`set_context(summary, history)`, `chat(text)` (which remembers its turns) and
`summarize_history(history)`. No SQL and no UI here. Without an approver in its
`ToolContext`, the agent's file edits are refused: nothing is written unapproved.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Hashable, Sequence
from contextlib import aclosing
from dataclasses import dataclass, replace
from typing import Any

from domain.events import AgentError, AgentEvent, ErrorEvent, TextDelta, WaitingForServer, WarningEvent
from engine.context_window import ContextWindow
from engine.failures import CLIENT_FAILURES, CallSite, ServerFailedError, classify
from engine.ollama_server import ServerStatus
from engine.prompt import answer_reserve, strip_think_tags, summary_prompt
from engine.server_pool import Claim, ServerPool
from engine.server_survey import chat_models_anywhere, pool_status
from engine.tool_selection import offer_tools
from engine.turn_loop import LoopLimits, ModelKnowledge, TurnLoop
from engine.turn_request import StopSignal, TurnRequest
from engine.turn_state import TurnState
from tools import ToolContext, tool_specs

__all__ = ["AIAgent", "AgentError", "AgentEvent", "AgentSettings", "StopSignal", "TurnRequest"]

logger = logging.getLogger(__name__)

MAX_REMEMBERED_TURNS = 200
TOOL_TIMEOUT_SECONDS = 60.0


@dataclass(frozen=True)
class AgentSettings:
    """What an agent is made with and never changes: the defaults of its requests, and the bounds of its turns."""

    model: str
    servers: tuple[str, ...]  # ENDPOINT's servers, in its order
    system_prompt: str
    tool_context: ToolContext
    tool_names: tuple[str, ...]
    select_tools: bool  # describe only the tools a question calls for (the application's agents do)
    think: bool | str
    limits: LoopLimits


class AIAgent:
    """Talks to Ollama models with tools: one turn per `TurnRequest`, or the first version's conversation."""

    def __init__(
        self,
        model: str,
        server: str | Sequence[str],
        system_prompt: str,
        context_summary: str | None = None,
        *,
        tool_context: ToolContext | None = None,
        num_ctx: int = 8192,
        num_predict: int = 0,
        max_tool_rounds: int = 8,
        request_timeout: float = 120.0,
        think: bool | str = False,
        tool_names: Sequence[str] | None = None,
        tool_timeout: float = TOOL_TIMEOUT_SECONDS,
        select_tools: bool = False,
        max_turns_per_server: int | None = None,
        pool: ServerPool | None = None,
    ) -> None:
        """`server` is one Ollama URL, several separated by commas, or a list of them. `pool` (the process's,
        shared by its agents) replaces `server` and `max_turns_per_server`, the most turns one server runs at
        once (None: no bound)."""
        self._pool = pool if pool is not None else ServerPool(server, max_turns_per_server)
        limits = LoopLimits(num_ctx, num_predict, max_tool_rounds, request_timeout, tool_timeout)
        self._settings = AgentSettings(
            model=model,
            servers=self._pool.urls,
            system_prompt=system_prompt,
            tool_context=tool_context or ToolContext(),
            tool_names=tuple(tool_specs if tool_names is None else tool_names),
            select_tools=select_tools,
            think=think,
            limits=limits,
        )
        self._knowledge = ModelKnowledge()
        # The first version's conversation: `set_context` loads it, `chat` adds to it, `request` reads it.
        self._summary = context_summary
        self._history: list[tuple[str, str]] = []
        self._workspace_key: Hashable | None = None
        self._own_stop = StopSignal()

    @property
    def settings(self) -> AgentSettings:
        return self._settings

    @property
    def model(self) -> str:
        return self._settings.model

    @property
    def server(self) -> str:
        """The server, or the servers separated by commas."""
        return ", ".join(self._settings.servers)

    @property
    def pool(self) -> ServerPool:
        return self._pool

    def configured(self, **changes: Any) -> AIAgent:
        """An agent like this one with some of its constructor's settings changed (`model`, `think`, …), sharing
        what this one learned of the models, its connections and its conversation."""
        settings, limits = self._settings, self._settings.limits
        values: dict[str, Any] = {
            "model": settings.model,
            "server": settings.servers,
            "system_prompt": settings.system_prompt,
            "tool_context": settings.tool_context,
            "num_ctx": limits.num_ctx,
            "num_predict": limits.num_predict,
            "max_tool_rounds": limits.max_tool_rounds,
            "request_timeout": limits.request_timeout,
            "think": settings.think,
            "tool_names": settings.tool_names,
            "tool_timeout": limits.tool_timeout,
            "select_tools": settings.select_tools,
            "max_turns_per_server": self._pool.cap,
        }
        if "server" not in changes and "max_turns_per_server" not in changes:
            values["pool"] = self._pool  # the same servers: their turns in flight are counted together
        twin = AIAgent(**(values | changes))
        twin._knowledge = self._knowledge
        twin.set_context(self._summary, self._history, self._workspace_key)
        return twin

    # The first version's conversation --------------------------------------------------------

    def set_context(
        self, context_summary: str | None, history: Sequence[tuple[str, str]], workspace_key: Hashable | None = None
    ) -> None:
        """Load a workspace for `chat` and `request`: its digital-twin summary and its (recent) turns.

        `workspace_key` (the workspace's id) lets the agent say only once per workspace that older turns
        are left out of the model's view; workspaces loaded without a key share one such notice.
        """
        self._summary = context_summary
        self._history = list(history)[-MAX_REMEMBERED_TURNS:]
        self._workspace_key = workspace_key

    def request(self, question: str, **changes: Any) -> TurnRequest:
        """A request for `question` with the agent's defaults and its conversation; `changes` replace fields."""
        settings = self._settings
        tools = offer_tools(
            question, settings.tool_names, select=settings.select_tools, external=settings.tool_context.external
        )
        self._own_stop = StopSignal()
        request = TurnRequest(
            question=question,
            model=settings.model,
            system_prompt=settings.system_prompt,
            summary=self._summary,
            history=tuple(self._history),
            tools=tools,
            tool_context=settings.tool_context,
            think=settings.think,
            workspace_key=self._workspace_key,
            stop=self._own_stop,
        )
        return replace(request, **changes) if changes else request  # `replace` copies every field, even for none

    async def chat(self, user_input: str) -> AsyncGenerator[str, None]:
        """The answer's text as it streams; when the turn fails, the last chunk is the error sentence.
        The turn joins the conversation the next `chat` sees."""
        shown_any = False
        turn = TurnState()
        async with aclosing(self.stream(self.request(user_input), turn)) as events:
            async for event in events:
                if isinstance(event, TextDelta):
                    shown_any = True
                    yield event.text
                elif isinstance(event, ErrorEvent):
                    yield ("\n" if shown_any else "") + event.message
        if turn.content.strip():
            self._history.append((user_input, turn.content))
            del self._history[:-MAX_REMEMBERED_TURNS]

    def stop(self) -> None:
        """Stop the turn of the agent's own conversation in progress (`chat`, or a stream of `request`);
        a turn of another request stops through its own `stop` signal."""
        self._own_stop.stop()

    # A turn ------------------------------------------------------------------------------------

    async def stream(self, request: TurnRequest, turn: TurnState | None = None) -> AsyncGenerator[AgentEvent, None]:
        """Run one turn, yielding typed events; the last is always `TurnCompleted`. Never raises.

        The turn is built up in `turn` (a fresh one if not given), so a caller whose stream is cut
        off part-way still has what arrived. It runs on a server that has its model and the fewest
        turns in flight, after a wait in line when each is busy. A server that fails before anything
        of the answer was shown leaves the turn to another that has the model, once; after that, or
        once text has streamed, its failure is the turn's. (One generator for all of it: every piece
        of every answer passes through each generator between the client and the face.)
        """
        turn = turn if turn is not None else TurnState()
        stop = request.stop
        error: ErrorEvent | None = None
        avoid: set[str] = set()
        failed: ServerFailedError | None = None
        try:
            stop.follow()
            while True:
                claim = self._pool.claim(request.model, self._knowledge.clients, avoid, dict(request.busy_elsewhere))
                shown = False
                try:
                    async with aclosing(self._hold(claim, failed)) as waits:
                        async for waiting in waits:
                            yield waiting
                            stop.follow()
                    loop = self._loop_on(claim, request)
                    async with aclosing(loop.run(turn)) as events:
                        async for event in events:
                            shown = shown or not isinstance(event, (WarningEvent, WaitingForServer))
                            yield event
                            stop.follow()
                    self._pool.mark_answering(loop.site.server)
                    break
                except ServerFailedError as failure:
                    began = shown or bool(turn.content or turn.thinking or turn.tool_calls)
                    if not self._fail_over(claim, failure, avoid, began):
                        raise
                    failed = failure
                except AgentError as failure:
                    if failure.code == "MODEL_NOT_FOUND" and claim.server is not None:
                        self._pool.forget_models(claim.server)  # it listed the model: read its list again
                    raise
                finally:
                    claim.release()
        except asyncio.CancelledError as cancelled:
            if not stop.was_this(cancelled):
                raise
            turn.stop_reason = "stopped"
        except AgentError as failure:
            error = failure.to_event()
        except Exception as failure:  # noqa: BLE001 - a bug must not take the face down with it
            logger.exception("turn failed unexpectedly")
            error = ErrorEvent(
                code="INTERNAL_ERROR",
                message=f"Something went wrong in the application ({failure!r}); your message was kept — try again.",
                recoverable=True,
            )
        finally:
            stop.ended()
        if error is not None:
            turn.stop_reason, turn.error = "error", error.message
            yield error
        yield turn.completed(request.model)

    # The servers -------------------------------------------------------------------------------

    def _loop_on(self, claim: Claim, request: TurnRequest) -> TurnLoop:
        """The turn's rounds on the server `claim` holds (told to the request's `on_server`)."""
        site = self._site(claim, request.model)
        if request.on_server is not None:
            request.on_server(site.server)
        return TurnLoop(request, self._settings.limits, self._knowledge, site)

    async def _hold(self, claim: Claim, failed: ServerFailedError | None) -> AsyncGenerator[WaitingForServer, None]:
        """`claim.waits()`; when no other server has the model after one failed, that failure is the turn's."""
        try:
            async with aclosing(claim.waits()) as waits:
                async for waiting in waits:
                    yield waiting
        except AgentError:
            if failed is not None:
                raise failed from None
            raise

    def _fail_over(self, claim: Claim, failure: ServerFailedError, avoid: set[str], began: bool) -> bool:
        """Mark the claim's server down; whether to try another (once, with several, before the answer began)."""
        if claim.server is None:
            return False
        self._pool.mark_down(claim.server, failure.message)
        if began or avoid or not self._pool.several:
            return False
        avoid.add(claim.server)
        return True

    def _site(self, claim: Claim, model: str) -> CallSite:
        assert claim.server is not None, "a claim holds a server once it has waited"
        return CallSite(claim.server, model, self._settings.limits.request_timeout)

    async def aclose(self) -> None:
        """Close the running loop's HTTP clients; call it before that loop ends (other loops' clients stay)."""
        await self._knowledge.clients.close_running()

    async def list_models(self) -> list[str]:
        """Names of the chat models pulled on the servers that answer (not embedding models); `AgentError` when
        it cannot tell."""
        return await chat_models_anywhere(self._pool, self._knowledge.clients, self._settings.limits.request_timeout)

    async def sees_images(self, model: str | None = None) -> bool:
        """Whether `model` (default: the agent's) takes pictures: its capabilities on a server that has it include
        "vision". `AgentError` when no server has it or none answers."""
        model = model or self._settings.model
        clients = self._knowledge.clients
        servers = await self._pool.servers_with(model, clients)
        site = CallSite(servers[0], model, self._settings.limits.request_timeout)
        return (await self._knowledge.capabilities_of(clients.get(site), site)).vision

    async def server_status(self, timeout: float, model: str | None = None) -> ServerStatus:
        """The servers' versions and chat models, naming those that do not answer, or why none can be reached."""
        return await pool_status(self._pool, model or self._settings.model, timeout)

    # The digital twin --------------------------------------------------------------------------

    async def summarize_history(
        self, history: Sequence[tuple[str, str]], previous_summary: str | None = None, *, model: str | None = None
    ) -> str:
        """An updated digital-twin summary: the previous one merged with `history` (bounded in size), written by
        `model` (default: the agent's) on a server that has it, after the turns in line before it (a server that
        fails leaves it to another, once). Raises `AgentError` on failure; the caller keeps the previous summary.
        """
        model = model or self._settings.model
        avoid: set[str] = set()
        failed: ServerFailedError | None = None
        while True:
            claim = self._pool.claim(model, self._knowledge.clients, avoid, background=True)  # turns go first
            try:
                async with aclosing(self._hold(claim, failed)) as waits:
                    async for _ in waits:
                        pass  # nobody watches a summary being written: it waits in line without a word
                return await self._write_summary(self._site(claim, model), history, previous_summary)
            except ServerFailedError as failure:
                if not self._fail_over(claim, failure, avoid, began=False):
                    raise
                failed = failure
            finally:
                claim.release()

    async def _write_summary(
        self, site: CallSite, history: Sequence[tuple[str, str]], previous_summary: str | None
    ) -> str:
        client = self._knowledge.clients.get(site)
        capabilities = await self._knowledge.capabilities_of(client, site)
        context: ContextWindow = self._knowledge.context(site, self._settings.limits.num_ctx, capabilities)
        messages, left_out = summary_prompt(previous_summary, history, context=context)
        if left_out:
            logger.info("summarising %d turns; %d older ones left out", len(history) - left_out, left_out)
        limit = self._settings.limits.answer_limit(answer_reserve(context.tokens))
        parts: list[str] = []
        try:  # streamed, so REQUEST_TIMEOUT bounds each wait, not the whole summary
            response = await client.chat(
                model=site.model,
                messages=messages,
                stream=True,
                think=False if capabilities.thinking else None,
                options={"num_ctx": context.tokens, "num_predict": limit},
            )
            async for chunk in response:
                parts.append(chunk.message.content or "")
        except CLIENT_FAILURES as failure:
            raise classify(failure, site, mid_stream=bool(parts)) from failure
        summary = strip_think_tags("".join(parts)).strip()
        if not summary:
            raise AgentError("PROVIDER_ERROR", f"{site.model} returned an empty summary; the previous one was kept.")
        return summary
