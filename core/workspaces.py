"""What both faces do with workspaces: open, create, switch (refreshing the digital twin), record turns.

The CLI and the web app call these so that neither repeats the other's rules:
a workspace opened loads its summary and recent turns into the agent; leaving a
workspace summarises it only if it has turns its summary does not cover (the
previous summary plus those turns, so the input stays bounded); the first
message of a new workspace names it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from agent import AIAgent
from core.events import AgentError, StopReason, TurnCompleted
from core.file_edits import FileEditGate, FileEditMode
from core.records import Chat, TurnStatus
from core.settings import Settings, SettingsError, check_paths
from history import ChatHistoryDB

logger = logging.getLogger(__name__)

DEFAULT_WORKSPACE_NAME = "New workspace"
NAME_LENGTH = 64
RECENT_TURNS_IN_MEMORY = 50
TURNS_PER_SUMMARY = 100
_TURN_STATUS: dict[StopReason, TurnStatus] = {
    "end_turn": "complete",
    "max_tool_rounds": "complete",
    "stopped": "stopped",
    "error": "error",
}


@dataclass(frozen=True)
class SwitchOutcome:
    """What happened to the digital twin of the workspace that was left."""

    summarised: bool = False
    error: AgentError | None = None


def name_from_message(message: str) -> str:
    """A workspace name from its first message: the first line, at most 64 characters."""
    first_line = " ".join(message.strip().split())
    return first_line[:NAME_LENGTH] or DEFAULT_WORKSPACE_NAME


class Workspaces:
    """The current workspace of one user, over one store and one agent."""

    def __init__(self, db: ChatHistoryDB, agent: AIAgent, file_edits: FileEditMode = "confirm") -> None:
        self.db = db
        self.agent = agent
        self.current_id: int | None = None
        self.edits = FileEditGate(db, agent.tool_context.workspace_root, file_edits)
        agent.tool_context = replace(agent.tool_context, edits=self.edits)
        if file_edits == "off":
            agent.tool_names = [name for name in agent.tool_names if name != "edit_file"]

    @classmethod
    def from_settings(cls, settings: Settings) -> Workspaces:
        """The store, the agent and the workspace folder the settings name, checked before any is created."""
        check_paths(settings)
        db = ChatHistoryDB(settings.chat_history_db_path)
        try:
            settings.workspace_root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            db.close()
            raise SettingsError(
                f"WORKSPACE_ROOT {settings.workspace_root} cannot be created ({error.strerror}); "
                "set WORKSPACE_ROOT to a folder you can write to."
            ) from None
        return cls(db, AIAgent.from_settings(settings), settings.file_edits)

    @property
    def current(self) -> Chat | None:
        return self.db.get_chat(self.current_id) if self.current_id is not None else None

    def open(self, chat_id: int) -> Chat:
        """Make `chat_id` current and load its summary and recent turns into the agent."""
        chat = self.db.get_chat(chat_id)
        if chat is None:
            raise LookupError(f"There is no workspace with id {chat_id}.")
        self.agent.set_context(chat.context_summary, self.db.load_recent_history(chat_id, RECENT_TURNS_IN_MEMORY))
        self.current_id = self.edits.chat_id = chat_id
        return chat

    def open_latest(self) -> Chat | None:
        """Open the most recently active workspace, if there is one."""
        chats = self.db.list_chats()
        return self.open(chats[0][0]) if chats else None

    def create(self, name: str = DEFAULT_WORKSPACE_NAME) -> Chat:
        """Create a workspace and make it current (without summarising the one left)."""
        return self.open(self.db.create_chat(name.strip() or DEFAULT_WORKSPACE_NAME))

    async def start_new(self, name: str = DEFAULT_WORKSPACE_NAME) -> tuple[Chat, SwitchOutcome]:
        """Create a workspace and switch to it (refreshing the digital twin of the one left)."""
        chat_id = self.db.create_chat(name.strip() or DEFAULT_WORKSPACE_NAME)
        outcome = await self.switch(chat_id)  # switch opens it
        chat = self.current
        assert chat is not None
        return chat, outcome

    def needs_summary(self, chat_id: int | None = None) -> bool:
        """Whether leaving the workspace would call the model to refresh its summary."""
        target = self.current_id if chat_id is None else chat_id
        return target is not None and self.db.count_unsummarised_turns(target) > 0

    def begin_turn(self, regenerating: bool = False) -> int:
        """The workspace a new message goes to (created if there is none), its context fresh from the store.

        Reloading lets two windows on one workspace, or the CLI and the web app,
        each see the other's turns. When `regenerating`, the last turn is marked
        superseded: it stays in the record but the model no longer sees it.
        """
        chat_id = self.ensure_current()
        if regenerating and (turns := self.db.get_turns(chat_id, limit=1)):
            self.db.supersede_turn(turns[-1].turn_id)
        return self.open(chat_id).chat_id

    def last_question(self) -> str | None:
        """The current workspace's last question, for "Regenerate"."""
        if self.current_id is None:
            return None
        turns = self.db.get_turns(self.current_id, limit=1)
        return turns[-1].user if turns else None

    def ensure_current(self) -> int:
        """The current workspace's id, creating one when there is none (the first message makes it)."""
        if self.current_id is None or self.db.get_chat(self.current_id) is None:
            self.create()
        assert self.current_id is not None
        return self.current_id

    async def refresh_summary(self, chat_id: int) -> bool:
        """Summarise the turns the summary does not cover yet; False when there were none.

        Raises `AgentError` when the model cannot summarise; the old summary stays.
        """
        chat = self.db.get_chat(chat_id)
        turns, pending = self.db.turns_since_summary(chat_id, TURNS_PER_SUMMARY)
        if chat is None or not pending:
            return False
        pairs = [(turn.user, turn.assistant) for turn in turns if turn.status != "superseded"]
        summary = await self.agent.summarize_history(pairs, previous_summary=chat.context_summary)
        self.db.set_context_summary(chat_id, summary, through_turn_id=turns[-1].turn_id)
        return True

    async def switch(self, target_id: int) -> SwitchOutcome:
        """Leave the current workspace (refreshing its digital twin if needed), then open `target_id`."""
        if self.db.get_chat(target_id) is None:
            raise LookupError(f"There is no workspace with id {target_id}.")
        outcome = SwitchOutcome()
        if self.current_id is not None and self.current_id != target_id:
            try:
                outcome = SwitchOutcome(summarised=await self.refresh_summary(self.current_id))
            except AgentError as error:
                logger.warning("summary of workspace %s not refreshed: %s", self.current_id, error.message)
                outcome = SwitchOutcome(error=error)
        self.open(target_id)
        return outcome

    def delete(self, chat_id: int) -> None:
        """Delete a workspace; if it was current, none is current afterwards."""
        self.db.delete_chat(chat_id)
        if chat_id == self.current_id:
            self.current_id = self.edits.chat_id = None
            self.agent.set_context(None, [])

    def clear(self) -> None:
        """Delete the current workspace's turns (its summary stays)."""
        if self.current_id is not None:
            self.db.clear_history(self.current_id)
            self.agent.set_context(self.agent.context_summary, [])

    def record_turn(self, user_input: str, completed: TurnCompleted, chat_id: int | None = None) -> int:
        """Store a finished (or stopped, or failed) turn; the first message names a new workspace.

        Give the `chat_id` that `begin_turn` returned, so a turn finished after a switch still lands
        in the workspace it was asked in.
        """
        chat_id = chat_id if chat_id is not None else self.ensure_current()
        chat = self.db.get_chat(chat_id)
        if chat is not None and chat.chat_name == DEFAULT_WORKSPACE_NAME and self.db.count_turns(chat_id) == 0:
            self.db.rename_chat(chat_id, name_from_message(user_input))
        status = _TURN_STATUS[completed.stop_reason]
        return self.db.add_to_history(
            chat_id,
            user_input,
            completed.content,
            tool_calls=completed.tool_calls,
            status=status,
            model=completed.model,
            prompt_tokens=completed.usage.prompt_tokens,
            completion_tokens=completed.usage.completion_tokens,
            duration_ms=completed.duration_ms,
            error=completed.error,
            thinking=completed.thinking,
        )
