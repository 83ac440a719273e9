"""Running one turn in a workspace and storing it, however it ends.

The turn's workspace is fixed before the model is asked, so an answer that
finishes after the user moved on still lands where the question was asked. The
question is stored as it is asked, as a running turn of this process's store; the
turn is finished when the agent completes it, or, if the stream is cut off part
way (Stop, a click in the web page, Ctrl-C), with what had arrived, marked as
stopped. A process killed mid-answer leaves the running turn behind, and whoever
notices stores it as stopped (`store.leases`).

With accounts, the question is asked only where the user may change (checked once, at the top), at most
MAX_TURNS_PER_USER of one user's turns run at once, and the question and each tool call go into the audit
trail in the same transaction as the turn itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable, Sequence
from contextlib import aclosing
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from app.accounts.audit_trail import AuditTrail, tool_call_detail
from app.accounts.policy import Access
from app.accounts.user_turns import UserTurns
from app.agents import AgentCatalog, AgentProfile
from app.approvals import EditApprovals
from app.memory import MemoryBook
from app.models import Models
from app.ports import TurnRecords
from app.workspaces import DEFAULT_WORKSPACE_NAME, Workspaces, name_from_message
from domain.events import AgentEvent, StopReason, TurnCompleted
from domain.records import FinishedTurn, Turn, TurnStatus, Workspace

if TYPE_CHECKING:
    from app.outside_tools.hub import McpHub
from engine.agent import AIAgent, StopSignal, TurnRequest
from engine.tool_selection import ToolOffer, offer_tools
from engine.turn_state import TurnState
from tools import ToolContext

Consent = Callable[[str, dict[str, Any]], bool]  # (tool, arguments) -> may it run?

RECENT_TURNS_IN_MEMORY = 50
_TURN_STATUS: dict[StopReason, TurnStatus] = {
    "end_turn": "complete",
    "max_tool_rounds": "complete",
    "stopped": "stopped",
    "error": "error",
}


class Turns:
    """Questions asked in a workspace and their answers: run with that workspace's context, stored however they
    end, and read back. One view (a tab, a terminal) runs one turn at a time; `stop` ends it."""

    def __init__(
        self,
        store: TurnRecords,
        agent: AIAgent,
        context: ToolContext,
        tool_names: Sequence[str],
        approvals: EditApprovals,
        memory: MemoryBook,
        agents: AgentCatalog,
        models: Models,
        workspaces: Workspaces,
        access: Access,
        audit: AuditTrail,
        user_turns: UserTurns | None = None,
        asked_by: str = "",
    ) -> None:
        self._store = store
        self._access = access
        self._audit = audit
        self._user_turns = user_turns  # each user's fair share of turns (None: one person, nothing to share)
        self._workspaces = workspaces  # the view's open workspace, where a question without one is asked
        self._agent = agent
        self._context = context  # the tools' context every turn starts from
        self._approvals = approvals
        self._memory = memory
        self._agents = agents
        self._models = models
        self._asked_by = asked_by.strip()  # who asks in this view: the preparer of its calculations
        self._tools = list(tool_names)  # the built-in tools a turn may offer (an agent profile may narrow them)
        self._running: StopSignal | None = None

    def ask(
        self, question: str, chat_id: int | None = None, regenerate: bool = False, consent: Consent | None = None
    ) -> AsyncGenerator[AgentEvent, None]:
        """Run one turn in `chat_id` (default: the open workspace, made if there is none) and store it; the events
        stream as they come, and the last, `TurnCompleted`, carries the stored turn's id. The turn is stored
        however it ends, in the workspace it was asked in even if the user has moved on.

        When `regenerate`, the workspace's last turn is marked superseded first: it stays in the record, but the
        model no longer sees it. `consent` asks the user before an outside tool runs (None: nobody can be asked).
        """
        target = chat_id if chat_id is not None else self._workspaces.ensure_current().chat_id
        chat = self._access.change(target, "ask")
        return self._in_line(self._run(chat, self._request(chat, question, regenerate, consent)))

    def stop(self) -> None:
        """Stop the turn in progress (safe from a signal handler or another thread)."""
        if self._running is not None:
            self._running.stop()

    def of(self, chat_id: int, limit: int | None = None, before_turn_id: int | None = None) -> list[Turn]:
        """A workspace's turns with their tool calls, oldest first (the newest `limit`, before `before_turn_id`);
        none of a workspace the user may not see."""
        if not self._access.sees(chat_id):
            return []
        return self._store.get_turns(chat_id, limit=limit, before_turn_id=before_turn_id)

    def count(self, chat_id: int) -> int:
        return self._store.count_turns(chat_id) if self._access.sees(chat_id) else 0

    def has_earlier(self, chat_id: int, before_turn_id: int) -> bool:
        """Whether the workspace has turns older than `before_turn_id` (one index lookup)."""
        return self._access.sees(chat_id) and self._store.has_turns_before(chat_id, before_turn_id)

    def last_question(self, chat_id: int) -> str | None:
        """The workspace's last question, for "Regenerate"."""
        turns = self.of(chat_id, limit=1)
        return turns[-1].user if turns else None

    # Running ---------------------------------------------------------------------------------

    async def _in_line(self, events: AsyncGenerator[AgentEvent, None]) -> AsyncGenerator[AgentEvent, None]:
        """The turn, once the user has a free place of their fair share (told by `WaitingForServer` meanwhile)."""
        if self._user_turns is None:
            async with aclosing(events):
                async for event in events:
                    yield event
            return
        user = self._audit.actor
        try:
            async for waiting in self._user_turns.waits(user):
                yield waiting
        except BaseException:
            await events.aclose()
            raise
        try:
            async with aclosing(events):
                async for event in events:
                    yield event
        finally:
            self._user_turns.release(user)

    async def _run(self, chat: Workspace, request: TurnRequest) -> AsyncGenerator[AgentEvent, None]:
        """The turn, stored as it starts and as it ends. Both writes run on a worker thread: a commit waits for the
        disk (or the database server), and the event loop meanwhile streams the other turns it serves."""
        self._running = request.stop
        chat_id = chat.chat_id
        running = await asyncio.to_thread(self._begin, chat, request.question, request.model)
        if self._agent.pool.several:  # where it runs, for the other processes choosing among the servers
            request = replace(request, on_server=partial(self._store.set_running_server, running))
        turn = TurnState()
        stored = False
        try:
            async with aclosing(self._agent.stream(request, turn)) as events:
                async for event in events:
                    if isinstance(event, TurnCompleted):
                        stored = True
                        turn_id = await asyncio.to_thread(self.record, chat_id, request.question, event, running)
                        event = event.model_copy(update={"turn_id": turn_id})
                    yield event
        finally:
            if not stored:  # cut off before the agent finished: keep what arrived
                self.record(chat_id, request.question, turn.completed(request.model, "stopped"), running)

    def _begin(self, chat: Workspace, question: str, model: str) -> int:
        """The question stored as a running turn, and its audit record, in one transaction."""
        with self._store.unit_of_work():
            running = self._store.begin_turn(chat.chat_id, question, model, self._asked_by or None)
            self._audit.record("ask", chat.chat_id, question, chat.chat_name)
        return running

    def _request(self, chat: Workspace, question: str, regenerate: bool, consent: Consent | None) -> TurnRequest:
        """The turn as the workspace stands now in the store (another window may have added turns): its summary,
        recent turns and agent, the user's memory, the tools and their approvers."""
        self._store.check_writable()  # a history file gone from under the app is said before the model is asked
        chat_id = chat.chat_id
        if regenerate and (turns := self._store.get_turns(chat_id, limit=1)):
            self._store.supersede_turn(turns[-1].turn_id)
        recent = self._store.get_turns(chat_id, limit=RECENT_TURNS_IN_MEMORY)
        profile = self._agents.get(chat.agent)
        external = _asking(self._context.external, consent)
        context = replace(self._context, edits=self._approvals.for_workspace(chat_id), external=external)
        settings = self._agent.settings
        return TurnRequest(
            question=question,
            model=profile.model or self._models.current,
            system_prompt=f"{settings.system_prompt}\n\n{profile.prompt}" if profile.prompt else settings.system_prompt,
            summary=chat.context_summary,
            history=tuple(self._store.load_recent_history(chat_id, RECENT_TURNS_IN_MEMORY)),
            memory=tuple(self._memory.for_prompt(question)),
            tools=self._offer(question, profile, recent, external),
            tool_context=context,
            temperature=profile.temperature,
            think=settings.think,
            workspace_key=chat_id,
            busy_elsewhere=tuple(self._store.busy_servers().items()) if self._agent.pool.several else (),
        )

    def _offer(self, question: str, profile: AgentProfile, recent: list[Turn], external: McpHub | None) -> ToolOffer:
        """The workspace's agent's tools (only they are sent and run; MCP servers start on first need): the
        question's described when the agent has them all, or all of the agent's own."""
        tools = self._tools + (external.names() if external is not None else [])
        allowed = tools if profile.tools is None else [name for name in tools if name in profile.tools]
        used = {call.name for turn in recent for call in turn.tool_calls}
        select = self._agent.settings.select_tools and profile.tools is None
        return offer_tools(question, allowed, used=used, select=select, external=external)

    def record(self, chat_id: int, question: str, completed: TurnCompleted, running_id: int | None = None) -> int:
        """Store a finished (or stopped, or failed) turn, finishing the running turn `running_id` stored when it
        was asked; the first answered message names a new workspace.

        A turn that failed (Ollama down, an empty answer) names nothing: the
        workspace keeps its default name until a question is answered.
        """
        with self._store.unit_of_work():
            self._named(chat_id, question, completed)
            turn_id = self._stored(chat_id, question, completed, running_id)
            for call in completed.tool_calls:
                self._audit.record("tool call", chat_id, tool_call_detail(call))
        return turn_id

    def _named(self, chat_id: int, question: str, completed: TurnCompleted) -> None:
        """The first answered message names a workspace that still has the default name."""
        answered = completed.stop_reason != "error" and bool(completed.content.strip())
        chat = self._store.get_chat(chat_id) if answered else None
        if (
            chat is not None
            and chat.chat_name == DEFAULT_WORKSPACE_NAME
            and not self._store.has_answered_turns(chat_id)
        ):
            self._store.rename_chat(chat_id, name_from_message(question))

    def _stored(self, chat_id: int, question: str, completed: TurnCompleted, running_id: int | None) -> int:
        return self._store.store_turn(
            FinishedTurn(
                chat_id=chat_id,
                user=question,
                assistant=completed.content,
                tool_calls=tuple(completed.tool_calls),
                status=_TURN_STATUS[completed.stop_reason],
                model=completed.model,
                prompt_tokens=completed.usage.prompt_tokens,
                completion_tokens=completed.usage.completion_tokens,
                duration_ms=completed.duration_ms,
                error=completed.error,
                thinking=completed.thinking,
                asked_by=self._asked_by or None,
                running_id=running_id,
            )
        )


def _asking(external: object, consent: Consent | None) -> McpHub | None:
    """The MCP servers' tools as this turn's consent lets the model use them (none when no server is set up: their
    module is not even loaded)."""
    if external is None:
        return None
    from app.outside_tools.hub import McpHub

    return external.asking(consent) if isinstance(external, McpHub) else None
