"""AIAgent: the prompt, the Ollama tool-calling loop, and the events every face renders.

One agent serves many turns, each possibly under a different event loop
(Streamlit reruns, `asyncio.run` per CLI command): it keeps one
`ollama.AsyncClient` per event loop (so a face that keeps its loop also keeps
its connection to Ollama), and nothing else bound to a loop.
No SQL and no UI here: the application service stores turns and the faces
render events. Without an approver in its `ToolContext`, the agent's file edits
are refused: nothing is written that the user did not approve.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, Hashable, Sequence
from contextlib import aclosing
from typing import Any

import ollama

from domain.events import AgentError, AgentEvent, ErrorEvent, TextDelta, ToolCallFinished
from engine import notices
from engine.context_window import CharsPerToken, ContextWindow, context_window, request_chars
from engine.failures import CLIENT_FAILURES, CallSite, classify
from engine.ollama_server import ClientPerLoop, ModelCapabilities, chat_models, close_stream, model_capabilities
from engine.prompt import answer_reserve, build_window, leaves_room, strip_think_tags, summary_prompt
from engine.text_call_filter import TextCallFilter
from engine.tool_runner import TurnToolRunner
from engine.tool_selection import offered_tools, schemas, schemas_chars
from engine.turn_state import MAX_TOOL_CALLS_PER_REPLY, RoundState, TurnState
from tools import ToolContext, tool_specs

__all__ = ["AIAgent", "AgentError", "AgentEvent"]

logger = logging.getLogger(__name__)

MAX_REMEMBERED_TURNS = 200
TOOL_TIMEOUT_SECONDS = 60.0


class AIAgent:
    """Talks to one Ollama model with tools, remembering the workspace's summary and recent turns."""

    def __init__(
        self,
        model: str,
        server: str,
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
    ) -> None:
        self.model = model
        self.server = server
        self.system_prompt = system_prompt
        self.context_summary = context_summary
        self.history: list[tuple[str, str]] = []
        self.memory: list[str] = []  # what the user asked to be remembered, for every workspace (set per turn)
        self.select_tools = select_tools  # describe only the tools the question calls for (the application's agents)
        self.tools_in_use: set[str] = set()  # tools the workspace has used, always described
        self.temperature: float | None = None  # an agent's own; None: the model's default
        self.tool_context = tool_context or ToolContext()
        self.num_ctx = num_ctx
        self.num_predict = num_predict  # the most tokens an answer may take; 0: what the context leaves
        self.max_tool_rounds = max_tool_rounds
        self.request_timeout = request_timeout
        self.think = think
        self.tool_names = list(tool_specs if tool_names is None else tool_names)
        self._offered: list[str] = list(self.tool_names)  # the tools described to the model in this turn
        self.tool_timeout = tool_timeout
        self._capabilities: dict[tuple[str, str], ModelCapabilities] = {}
        self._chars_per_token: dict[tuple[str, str], CharsPerToken] = {}
        self._workspace_key: Hashable | None = None
        self._told_trimmed: set[Hashable | None] = set()
        self._told_no_tools: set[str] = set()
        self._stop_requested = False
        self._stopped_task: asyncio.Task[Any] | None = None
        self._running: tuple[asyncio.AbstractEventLoop, asyncio.Task[Any]] | None = None
        self._clients = ClientPerLoop()

    def sibling(self) -> AIAgent:
        """An agent with the same settings and tools but no state of this one's: for a turn in another workspace."""
        return AIAgent(
            self.model, self.server, self.system_prompt, tool_context=self.tool_context, num_ctx=self.num_ctx,
            num_predict=self.num_predict, max_tool_rounds=self.max_tool_rounds,
            request_timeout=self.request_timeout, think=self.think, tool_names=self.tool_names,
            tool_timeout=self.tool_timeout, select_tools=self.select_tools,
        )  # fmt: skip

    def _options(self, num_ctx: int, num_predict: int) -> dict[str, Any]:
        """Ollama's options: the context, a bound on the answer (its default has none), and the temperature."""
        options: dict[str, Any] = {"num_ctx": num_ctx, "num_predict": num_predict}
        if self.temperature is not None:
            options["temperature"] = self.temperature
        return options

    def _answer_limit(self, room: int) -> int:
        """The tokens an answer may take: the room the context leaves, or NUM_PREDICT when that is less."""
        return min(room, self.num_predict) if self.num_predict > 0 else room

    # Context --------------------------------------------------------------------

    def set_context(
        self,
        context_summary: str | None,
        history: Sequence[tuple[str, str]],
        workspace_key: Hashable | None = None,
    ) -> None:
        """Load a workspace: its digital-twin summary and its (recent) turns.

        `workspace_key` (the workspace's id) lets the agent say only once per
        workspace that older turns are left out of the model's view; workspaces
        loaded without a key share one such notice.
        """
        self.context_summary = context_summary
        self.history = list(history)[-MAX_REMEMBERED_TURNS:]
        self._workspace_key = workspace_key

    def _remember(self, user_input: str, answer: str) -> None:
        if answer.strip():
            self.history.append((user_input, answer))
            del self.history[:-MAX_REMEMBERED_TURNS]

    # Server -----------------------------------------------------------------------

    def _site(self) -> CallSite:
        return CallSite(self.server, self.model, self.request_timeout)

    def _client(self) -> ollama.AsyncClient:
        """The HTTP client of the running event loop, made on first use; it keeps its connection between turns."""
        return self._clients.get(self._site())

    async def aclose(self) -> None:
        """Close the running loop's HTTP client; call it before that loop ends (other loops' clients stay)."""
        await self._clients.close_running()

    async def list_models(self) -> list[str]:
        """Names of the chat models pulled on the server (not embedding models); `AgentError` when it cannot tell."""
        return await chat_models(self._client(), self._site())

    async def _model_capabilities(self, client: ollama.AsyncClient) -> ModelCapabilities:
        key = (self.server, self.model)
        if key not in self._capabilities:
            self._capabilities[key] = await model_capabilities(client, self._site())
        return self._capabilities[key]

    def _think_option(self, capabilities: ModelCapabilities) -> bool | str | None:
        return self.think if capabilities.thinking else None

    def _chars_per_token_now(self) -> CharsPerToken:
        return self._chars_per_token.setdefault((self.server, self.model), CharsPerToken())

    def _context_window(self, capabilities: ModelCapabilities) -> ContextWindow:
        """The context a request may fill, with the characters per token measured for this model so far."""
        ratio = self._chars_per_token_now().value
        return context_window(self.num_ctx, self.model, capabilities.context_length, ratio)

    # Stopping -------------------------------------------------------------------

    def stop(self) -> None:
        """Stop the reply in progress (safe from a signal handler or another thread)."""
        running, self._running = self._running, None
        self._stop_requested = True
        self._stopped_task = running[1] if running is not None else None
        if running is not None:
            loop, task = running
            if not task.done():
                loop.call_soon_threadsafe(task.cancel)

    def _follow_running_task(self) -> None:
        """Note the task the turn runs in now, for `stop`.

        A caller may resume the stream in a new task for each event (the web face
        does), so this is renewed after every event; a stop whose cancel went to an
        earlier task (or to none) takes effect here instead.
        """
        task = asyncio.current_task()
        self._running = (asyncio.get_running_loop(), task) if task else None
        if self._stop_requested and self._stopped_task is not task:
            raise asyncio.CancelledError

    # The turn -------------------------------------------------------------------

    async def chat(self, user_input: str) -> AsyncGenerator[str, None]:
        """The answer's text as it streams; when the turn fails, the last chunk is the error sentence."""
        shown_any = False
        async with aclosing(self.stream(user_input)) as events:
            async for event in events:
                if isinstance(event, TextDelta):
                    shown_any = True
                    yield event.text
                elif isinstance(event, ErrorEvent):
                    yield ("\n" if shown_any else "") + event.message

    async def stream(self, user_input: str, turn: TurnState | None = None) -> AsyncGenerator[AgentEvent, None]:
        """Run one turn, yielding typed events; the last is always `TurnCompleted`. Never raises.

        The turn is built up in `turn` (a fresh one if not given), so a caller
        whose stream is cut off part-way still has what arrived.
        """
        turn = turn if turn is not None else TurnState()
        self._offered = (
            offered_tools(user_input, self.tool_names, self.tools_in_use)
            if self.select_tools
            else list(self.tool_names)
        )
        self._stop_requested, self._stopped_task = False, None
        self._follow_running_task()
        error: ErrorEvent | None = None
        try:
            async with aclosing(self._run_turn(user_input, turn)) as events:
                async for event in events:
                    yield event
                    self._follow_running_task()
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not self._stop_requested or task is None:
                raise
            while task.cancelling():
                task.uncancel()
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
            self._running = None
        if error is not None:
            turn.stop_reason, turn.error = "error", error.message
            yield error
        self._remember(user_input, turn.content)
        yield turn.completed(self.model)

    async def _run_turn(self, user_input: str, turn: TurnState) -> AsyncGenerator[AgentEvent, None]:
        client = self._client()
        capabilities = await self._model_capabilities(client)
        if not self.select_tools:
            self._offered = self._every_tool_or_the_questions(user_input, self._context_window(capabilities))
        if not capabilities.tools and self.model not in self._told_no_tools:
            self._told_no_tools.add(self.model)
            yield notices.tools_unsupported(self.model)
        turn_messages: list[dict[str, Any]] = [{"role": "user", "content": user_input}]
        runner = TurnToolRunner(self.tool_context, self.tool_names, self.tool_timeout, turn.tool_calls)
        only_repeats = False
        for round_number in range(self.max_tool_rounds + 1):
            final = round_number == self.max_tool_rounds or only_repeats
            # calls written as text are held back in the last round too (where they are not run)
            reply = RoundState(turn, TextCallFilter(self.tool_names if capabilities.tools else ()))
            offer_tools = capabilities.tools and not final
            round_events = self._round(client, capabilities, turn_messages, reply, offer_tools, round_number == 0)
            async with aclosing(round_events) as events:
                async for event in events:
                    yield event
            if final or not reply.tool_calls or reply.oversized:
                if round_number == self.max_tool_rounds:
                    turn.stop_reason = "max_tool_rounds"
                    yield notices.step_limit(self.max_tool_rounds, turn.tool_calls, bool(reply.content.strip()))
                elif not reply.content.strip():
                    if (results := notices.tool_results_answer(turn.tool_calls)) is None:
                        raise notices.empty_answer(self.model)
                    yield TextDelta(text=reply.add_text(results))
                return
            turn_messages.append(reply.assistant_message())
            fresh = 0
            for call in reply.tool_calls:
                async with aclosing(runner.run(call)) as events:
                    async for event in events:
                        if isinstance(event, ToolCallFinished):
                            fresh += not event.repeated
                            turn_messages.append(
                                {"role": "tool", "content": event.call.output, "tool_name": event.call.name}
                            )
                        yield event
            if reply.refused_calls:
                yield notices.tool_calls_capped(MAX_TOOL_CALLS_PER_REPLY, reply.refused_calls)
                refusal = notices.tool_calls_refused(MAX_TOOL_CALLS_PER_REPLY, reply.refused_calls)
                turn_messages.append({"role": "tool", "content": refusal, "tool_name": reply.refused_name})
            only_repeats = fresh == 0

    def _every_tool_or_the_questions(self, user_input: str, context: ContextWindow) -> list[str]:
        """All the agent's tools; or, when their schemas would crowd the conversation out of the model's context,
        only those the question calls for, as the application's agents always choose them."""
        every = list(self.tool_names)
        if leaves_room(context, schemas_chars(every, self.tool_context.external), self.system_prompt):
            return every
        return offered_tools(user_input, every, self.tools_in_use)

    async def _round(
        self,
        client: ollama.AsyncClient,
        capabilities: ModelCapabilities,
        turn_messages: list[dict[str, Any]],
        reply: RoundState,
        offer_tools: bool,
        first: bool,
    ) -> AsyncGenerator[AgentEvent, None]:
        """One request within the model's context, and the warnings it gives rise to."""
        context = self._context_window(capabilities)
        window = build_window(
            self.system_prompt,
            self.context_summary,
            self.history,
            turn_messages,
            context=context,
            tools_chars=schemas_chars(self._offered, self.tool_context.external) if offer_tools else 0,
            memory=self.memory,
        )
        reply.answer_limit = self._answer_limit(window.answer_room(context))
        if first and window.dropped_turns and self._workspace_key not in self._told_trimmed:
            self._told_trimmed.add(self._workspace_key)
            yield notices.context_trimmed(window.dropped_turns, context)
        tools = schemas(self._offered, self.tool_context.external) if offer_tools else None
        async with aclosing(self._stream_round(client, window.messages, tools, capabilities, reply, context)) as events:
            async for event in events:
                yield event
        for warning in (notices.context_full(reply.prompt_tokens, context), notices.cut_short(reply)):
            if warning is not None and warning.code not in reply.turn.warned:
                reply.turn.warned.add(warning.code)
                yield warning

    async def _stream_round(
        self,
        client: ollama.AsyncClient,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        capabilities: ModelCapabilities,
        reply: RoundState,
        context: ContextWindow,
    ) -> AsyncGenerator[AgentEvent, None]:
        """One streamed request: text and thinking deltas out, tool calls into `reply`."""
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("request to %s: %s", self.model, json.dumps(messages, default=str)[:100_000])
        received = False
        try:
            response = await client.chat(
                model=self.model,
                messages=messages,
                tools=tools,
                stream=True,
                think=self._think_option(capabilities),
                options=self._options(context.tokens, reply.answer_limit),
            )
            async for chunk in response:
                received = True
                for event in reply.take(chunk):
                    yield event
                if reply.oversized:
                    await close_stream(response)
                    break
                if chunk.done:
                    sent = request_chars(
                        messages, schemas_chars(self._offered, self.tool_context.external) if tools else 0
                    )
                    self._chars_per_token_now().learn(sent, reply.prompt_tokens, context.tokens)
        except CLIENT_FAILURES as failure:
            reply.keep_held_text()
            raise classify(failure, self._site(), mid_stream=received) from failure
        except asyncio.CancelledError:
            reply.keep_held_text()
            raise
        finally:
            reply.turn.add_usage(reply.prompt_tokens, reply.completion_tokens)
        if tail := reply.finish():
            yield TextDelta(text=tail)

    # The digital twin -------------------------------------------------------------

    async def summarize_history(self, history: Sequence[tuple[str, str]], previous_summary: str | None = None) -> str:
        """An updated digital-twin summary: the previous one merged with `history` (bounded in size).

        Raises `AgentError` on failure; the caller keeps the previous summary.
        """
        client = self._client()
        capabilities = await self._model_capabilities(client)
        context = self._context_window(capabilities)
        messages, left_out = summary_prompt(previous_summary, history, context=context)
        if left_out:
            logger.info("summarising %d turns; %d older ones left out", len(history) - left_out, left_out)
        parts: list[str] = []
        try:  # streamed, so REQUEST_TIMEOUT bounds each wait, not the whole summary
            response = await client.chat(
                model=self.model,
                messages=messages,
                stream=True,
                think=False if capabilities.thinking else None,
                options=self._options(context.tokens, self._answer_limit(answer_reserve(context.tokens))),
            )
            async for chunk in response:
                parts.append(chunk.message.content or "")
        except CLIENT_FAILURES as failure:
            raise classify(failure, self._site(), mid_stream=bool(parts)) from failure
        summary = strip_think_tags("".join(parts)).strip()
        if not summary:
            raise AgentError("PROVIDER_ERROR", f"{self.model} returned an empty summary; the previous one was kept.")
        return summary
