"""Running one turn in a workspace and storing it, however it ends.

The turn's workspace is fixed before the model is asked, so an answer that
finishes after the user moved on still lands where the question was asked. The
turn is stored when the agent completes it, or, if the stream is cut off part
way (Stop, a click in the web page, Ctrl-C), with what had arrived, marked as stopped.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import replace

from app.agents import AgentCatalog, AgentProfile
from app.approvals import EditApprovals
from app.formatting import shortened
from app.memory import MemoryBook
from domain.events import AgentEvent, StopReason, TurnCompleted
from domain.records import TurnStatus
from engine.agent import AIAgent
from engine.turn_state import TurnState
from store import ChatHistoryDB

DEFAULT_WORKSPACE_NAME = "New workspace"
NAME_LENGTH = 64
RECENT_TURNS_IN_MEMORY = 50
_TURN_STATUS: dict[StopReason, TurnStatus] = {
    "end_turn": "complete",
    "max_tool_rounds": "complete",
    "stopped": "stopped",
    "error": "error",
}


def name_from_message(message: str) -> str:
    """A workspace name from its first message: the first line, at most 64 characters, a longer one cut at a
    word boundary and ended with "…"."""
    lines = message.strip().splitlines()
    first_line = " ".join(lines[0].split()) if lines else ""
    return shortened(first_line, NAME_LENGTH) or DEFAULT_WORKSPACE_NAME


class TurnRunner:
    """Asks the agent in one workspace at a time, with that workspace's context, and records the turn."""

    def __init__(
        self, store: ChatHistoryDB, agent: AIAgent, edits: EditApprovals, memory: MemoryBook, agents: AgentCatalog
    ) -> None:
        self.store = store
        self.agent = agent
        self.edits = edits
        self.memory = memory
        self.agents = agents
        self.model = agent.model  # the model chosen for the application; an agent file may name its own
        self._base = (agent.system_prompt, list(agent.tool_names), agent.select_tools)

    async def run(
        self, chat_id: int, question: str, regenerate: bool = False, asked_by: str = ""
    ) -> AsyncGenerator[AgentEvent, None]:
        """Stream the turn's events; the last, `TurnCompleted`, carries the stored turn's id.

        When `regenerate`, the workspace's last turn is marked superseded first: it
        stays in the record, but the model no longer sees it. `asked_by` is kept with
        the turn: the preparer of its calculations.
        """
        self._prepare(chat_id, regenerate, question)
        turn = TurnState()
        stored = False
        try:
            async with aclosing(self.agent.stream(question, turn)) as events:
                async for event in events:
                    if isinstance(event, TurnCompleted):
                        stored = True
                        event = event.model_copy(update={"turn_id": self.record(chat_id, question, event, asked_by)})
                    yield event
        finally:
            if not stored:  # cut off before the agent finished: keep what arrived
                self.record(chat_id, question, turn.completed(self.agent.model, "stopped"), asked_by)

    def _prepare(self, chat_id: int, regenerate: bool, question: str) -> None:
        """Load the workspace fresh from the store (another window may have added turns) into the agent."""
        self.store.check_writable()  # a history file gone from under the app is said before the model is asked
        chat = self.store.get_chat(chat_id)
        if chat is None:
            raise LookupError("That workspace no longer exists (it was deleted in another window); choose another.")
        if regenerate and (turns := self.store.get_turns(chat_id, limit=1)):
            self.store.supersede_turn(turns[-1].turn_id)
        self.agent.set_context(
            chat.context_summary,
            self.store.load_recent_history(chat_id, RECENT_TURNS_IN_MEMORY),
            workspace_key=chat_id,
        )
        self.agent.tool_context = replace(self.agent.tool_context, edits=self.edits.for_workspace(chat_id))
        self.agent.memory = self.memory.for_prompt(question)
        self._apply(self.agents.get(chat.agent))
        recent = self.store.get_turns(chat_id, limit=RECENT_TURNS_IN_MEMORY)
        self.agent.tools_in_use = {call.name for turn in recent for call in turn.tool_calls}

    def _apply(self, profile: AgentProfile) -> None:
        """The workspace's agent: its prompt after the application's, its tools (only they are sent and run),
        its model and temperature."""
        prompt, tools, select = self._base
        external = self.agent.tool_context.external
        tools = tools + (external.names() if external is not None else [])  # MCP servers start on first need
        self.agent.system_prompt = f"{prompt}\n\n{profile.prompt}" if profile.prompt else prompt
        self.agent.tool_names = tools if profile.tools is None else [name for name in tools if name in profile.tools]
        self.agent.select_tools = select and profile.tools is None
        self.agent.model = profile.model or self.model
        self.agent.temperature = profile.temperature

    def record(self, chat_id: int, question: str, completed: TurnCompleted, asked_by: str = "") -> int:
        """Store a finished (or stopped, or failed) turn; the first answered message names a new workspace.

        A turn that failed (Ollama down, an empty answer) names nothing: the
        workspace keeps its default name until a question is answered.
        """
        answered = completed.stop_reason != "error" and bool(completed.content.strip())
        chat = self.store.get_chat(chat_id) if answered else None
        if chat is not None and chat.chat_name == DEFAULT_WORKSPACE_NAME and not self.store.has_answered_turns(chat_id):
            self.store.rename_chat(chat_id, name_from_message(question))
        return self.store.add_to_history(
            chat_id,
            question,
            completed.content,
            tool_calls=completed.tool_calls,
            status=_TURN_STATUS[completed.stop_reason],
            model=completed.model,
            prompt_tokens=completed.usage.prompt_tokens,
            completion_tokens=completed.usage.completion_tokens,
            duration_ms=completed.duration_ms,
            error=completed.error,
            thinking=completed.thinking,
            asked_by=asked_by.strip() or None,
        )
