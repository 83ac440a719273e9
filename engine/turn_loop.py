"""One turn's tool-calling loop: rounds of requests to Ollama, the tool calls they ask for, the events.

A `TurnLoop` is made for one `TurnRequest` and holds everything of that turn, so turns of
different workspaces can run at once on one agent. What the agent learned of each model (its
capabilities, the characters per token the server counts) is shared through `ModelKnowledge`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, Hashable
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

import ollama

from domain.events import AgentEvent, TextDelta, ToolCallFinished, WarningEvent
from engine import notices
from engine.context_window import CharsPerToken, ContextWindow, context_window, request_chars
from engine.failures import CLIENT_FAILURES, CallSite, classify
from engine.ollama_server import ClientPerLoop, ModelCapabilities, close_stream, model_capabilities
from engine.prompt import build_window, leaves_room
from engine.text_calls.filter import TextCallFilter
from engine.tool_runner import TurnToolRunner
from engine.tool_selection import offer_tools
from engine.turn_request import TurnRequest
from engine.turn_state import MAX_TOOL_CALLS_PER_REPLY, RoundState, TurnState

logger = logging.getLogger(__name__)

Message = dict[str, Any]


@dataclass(frozen=True)
class LoopLimits:
    """The agent's fixed bounds on a turn: the context, the answer, the rounds, the waits."""

    num_ctx: int
    num_predict: int  # the most tokens an answer may take; 0: what the context leaves
    max_tool_rounds: int
    request_timeout: float
    tool_timeout: float

    def answer_limit(self, room: int) -> int:
        """The tokens an answer may take: the room the context leaves, or NUM_PREDICT when that is less."""
        return min(room, self.num_predict) if self.num_predict > 0 else room


@dataclass
class ModelKnowledge:
    """What the agent keeps between turns: one HTTP client per event loop and server, each model's capabilities
    and the characters per token its server counts (per server and model), and the notices already given."""

    clients: ClientPerLoop = field(default_factory=ClientPerLoop)
    capabilities: dict[tuple[str, str], ModelCapabilities] = field(default_factory=dict)
    chars_per_token: dict[tuple[str, str], CharsPerToken] = field(default_factory=dict)
    told_trimmed: set[Hashable | None] = field(default_factory=set)
    told_no_tools: set[str] = field(default_factory=set)

    async def capabilities_of(self, client: ollama.AsyncClient, site: CallSite) -> ModelCapabilities:
        key = (site.server, site.model)
        if key not in self.capabilities:
            self.capabilities[key] = await model_capabilities(client, site)
        return self.capabilities[key]

    def ratio(self, site: CallSite) -> CharsPerToken:
        return self.chars_per_token.setdefault((site.server, site.model), CharsPerToken())

    def context(self, site: CallSite, num_ctx: int, capabilities: ModelCapabilities) -> ContextWindow:
        """The context a request may fill, with the characters per token measured for this model so far."""
        return context_window(num_ctx, site.model, capabilities.context_length, self.ratio(site).value)


@dataclass(frozen=True)
class RoundRequest:
    """One round's request: the client's arguments, the context it fits, its tools' schemas' size and the older
    turns left out of it."""

    arguments: dict[str, Any]
    context: ContextWindow
    tools_chars: int
    dropped_turns: int

    def sent_chars(self) -> int:
        """The characters the request sends, as the server counts them into its prompt's tokens."""
        return request_chars(self.arguments["messages"], self.tools_chars)


class RoundFailures:
    """Around reading a round's response: a client's failure becomes the turn's error (`classify`), and a round
    ended early keeps the text held back; the round's usage is added to the turn however it ends."""

    def __init__(self, site: CallSite, reply: RoundState) -> None:
        self.site = site
        self.reply = reply
        self.received = False  # a chunk arrived: a failure now is mid-stream

    async def __aenter__(self) -> RoundFailures:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, failure: BaseException | None, _: Any) -> bool:
        reply = self.reply
        try:
            if isinstance(failure, CLIENT_FAILURES):
                reply.keep_held_text()
                raise classify(failure, self.site, mid_stream=self.received) from failure
            if isinstance(failure, asyncio.CancelledError):
                reply.keep_held_text()
            return False
        finally:
            reply.turn.add_usage(reply.prompt_tokens, reply.completion_tokens)


class TurnLoop:
    """The rounds of one turn on the server of its `site`: each a request within the model's context, then the tool
    calls it asked for."""

    def __init__(self, request: TurnRequest, limits: LoopLimits, knowledge: ModelKnowledge, site: CallSite) -> None:
        self.request = request
        self.limits = limits
        self.knowledge = knowledge
        self.site = site
        self.offer = request.tools

    async def run(self, turn: TurnState) -> AsyncGenerator[AgentEvent, None]:
        """The turn's rounds. Each round's response is read here, not in a generator of its own: every piece of
        every answer passes through each generator between the client and the face."""
        client = self.knowledge.clients.get(self.site)
        capabilities = await self._capabilities(client)
        if not capabilities.tools and self.request.model not in self.knowledge.told_no_tools:
            self.knowledge.told_no_tools.add(self.request.model)
            yield notices.tools_unsupported(self.request.model)
        turn_messages: list[Message] = [self._question()]
        runner = TurnToolRunner(
            self.request.tool_context, self.offer.allowed, self.limits.tool_timeout, turn.tool_calls
        )
        only_repeats = False
        for round_number in range(self.limits.max_tool_rounds + 1):
            final = round_number == self.limits.max_tool_rounds or only_repeats
            # calls written as text are held back in the last round too (where they are not run)
            reply = RoundState(turn, TextCallFilter(self.offer.allowed if capabilities.tools else ()))
            asked = self._round_request(capabilities, turn_messages, reply, capabilities.tools and not final)
            if round_number == 0 and (trimmed := self._trimmed_notice(asked)) is not None:
                yield trimmed
            async with RoundFailures(self.site, reply) as failures:
                response = await client.chat(**asked.arguments)
                async for chunk in response:
                    failures.received = True
                    for event in reply.take(chunk):
                        yield event
                    if reply.oversized:
                        await close_stream(response)
                        break
                    if chunk.done and not self.request.images:  # a picture's tokens are the model's own count
                        ratio = self.knowledge.ratio(self.site)
                        ratio.learn(asked.sent_chars(), reply.prompt_tokens, asked.context.tokens)
            for event in self._round_ended(reply, asked.context):
                yield event
            if final or not reply.tool_calls or reply.oversized:
                async with aclosing(self._end(turn, reply, round_number)) as events:
                    async for event in events:
                        yield event
                return
            turn_messages.append(reply.assistant_message())
            only_repeats = True
            async with aclosing(self._run_calls(runner, reply, turn_messages)) as events:
                async for event in events:
                    if isinstance(event, ToolCallFinished) and not event.repeated:
                        only_repeats = False
                    yield event

    async def _capabilities(self, client: ollama.AsyncClient) -> ModelCapabilities:
        """The model's capabilities, the turn's tools fitted to its context; a picture it cannot see refused before
        anything is sent."""
        capabilities = await self.knowledge.capabilities_of(client, self.site)
        if self.request.images and not capabilities.vision:
            raise notices.images_unsupported(self.request.model)
        self._fit_tools(self.knowledge.context(self.site, self.limits.num_ctx, capabilities))
        return capabilities

    def _question(self) -> Message:
        """The user's message: the question, and its pictures."""
        question: Message = {"role": "user", "content": self.request.question}
        if self.request.images:
            question["images"] = list(self.request.images)  # the client sends them as base64
        return question

    def _fit_tools(self, context: ContextWindow) -> None:
        """All the turn's tools are described unless their schemas would crowd the conversation out of the model's
        context: then only those the question calls for, as the application's agents always choose them."""
        offer = self.offer
        if offer.selected or leaves_room(context, offer.chars, self.request.system_prompt):
            return
        self.offer = offer_tools(
            self.request.question, offer.allowed, used=offer.used, external=self.request.tool_context.external
        )  # every tool allowed still (`allowed` is the same), the question's described

    async def _end(self, turn: TurnState, reply: RoundState, round_number: int) -> AsyncGenerator[AgentEvent, None]:
        """The turn's last round: the step limit said, or an empty answer made of the tools' results (or refused)."""
        if round_number == self.limits.max_tool_rounds:
            turn.stop_reason = "max_tool_rounds"
            yield notices.step_limit(self.limits.max_tool_rounds, turn.tool_calls, bool(reply.content.strip()))
        elif not reply.content.strip():
            if (results := notices.tool_results_answer(turn.tool_calls)) is None:
                raise notices.empty_answer(self.request.model)
            yield TextDelta(text=reply.add_text(results))

    async def _run_calls(
        self, runner: TurnToolRunner, reply: RoundState, turn_messages: list[Message]
    ) -> AsyncGenerator[AgentEvent, None]:
        """Run the calls the model asked for in this round; their results go back to it as tool messages."""
        for call in reply.tool_calls:
            async with aclosing(runner.run(call)) as events:
                async for event in events:
                    if isinstance(event, ToolCallFinished):
                        turn_messages.append(
                            {"role": "tool", "content": event.call.output, "tool_name": event.call.name}
                        )
                    yield event
        if reply.refused_calls:
            yield notices.tool_calls_capped(MAX_TOOL_CALLS_PER_REPLY, reply.refused_calls)
            refusal = notices.tool_calls_refused(MAX_TOOL_CALLS_PER_REPLY, reply.refused_calls)
            turn_messages.append({"role": "tool", "content": refusal, "tool_name": reply.refused_name})

    def _round_request(
        self, capabilities: ModelCapabilities, turn_messages: list[Message], reply: RoundState, with_tools: bool
    ) -> RoundRequest:
        """One round's request within the model's context (logged when debugging); sets the answer's bound on
        `reply`."""
        request = self.request
        context = self.knowledge.context(self.site, self.limits.num_ctx, capabilities)
        tools_chars = self.offer.chars if with_tools else 0
        window = build_window(
            request.system_prompt,
            request.summary,
            request.history,
            turn_messages,
            context=context,
            tools_chars=tools_chars,
            memory=request.memory,
        )
        reply.answer_limit = self.limits.answer_limit(window.answer_room(context))
        if logger.isEnabledFor(logging.DEBUG):
            shown = [{**m, "images": len(m["images"])} if "images" in m else m for m in window.messages]
            logger.debug("request to %s: %s", request.model, json.dumps(shown, default=str)[:100_000])
        arguments = {
            "model": request.model,
            "messages": window.messages,
            "tools": list(self.offer.schemas) if with_tools else None,
            "stream": True,
            "think": request.think if capabilities.thinking else None,
            "options": self._options(context.tokens, reply.answer_limit),
        }
        return RoundRequest(arguments, context, tools_chars, window.dropped_turns)

    def _trimmed_notice(self, asked: RoundRequest) -> AgentEvent | None:
        """Once per workspace, at a turn's first round: older turns were left out (noted as given)."""
        key = self.request.workspace_key
        if not asked.dropped_turns or key in self.knowledge.told_trimmed:
            return None
        self.knowledge.told_trimmed.add(key)
        return notices.context_trimmed(asked.dropped_turns, asked.context)

    def _round_ended(self, reply: RoundState, context: ContextWindow) -> list[AgentEvent]:
        """The round's last text, and the warnings it gives rise to."""
        events: list[AgentEvent] = []
        if tail := reply.finish():
            events.append(TextDelta(text=tail))
        events.extend(self._warnings(reply, context))
        return events

    @staticmethod
    def _warnings(reply: RoundState, context: ContextWindow) -> list[WarningEvent]:
        """What the round gives rise to that the turn has not said yet: its context full, its answer cut short."""
        said = []
        for warning in (notices.context_full(reply.prompt_tokens, context), notices.cut_short(reply)):
            if warning is not None and warning.code not in reply.turn.warned:
                reply.turn.warned.add(warning.code)
                said.append(warning)
        return said

    def _options(self, num_ctx: int, num_predict: int) -> dict[str, Any]:
        """Ollama's options: the context, a bound on the answer (its default has none), and the temperature."""
        options: dict[str, Any] = {"num_ctx": num_ctx, "num_predict": num_predict}
        if self.request.temperature is not None:
            options["temperature"] = self.request.temperature
        return options
