"""Running one turn in a workspace and storing it, however it ends.

The turn's workspace is fixed before the model is asked, so an answer that
finishes after the user moved on still lands where the question was asked. One
turn runs in a workspace at a time, whichever process asks (`app.turns.workspace_line`). The
question is stored as it is asked, as a running turn of this process's store; the
turn is finished when the agent completes it, or, if the stream is cut off part
way (Stop, a click in the web page, Ctrl-C), with what had arrived, marked as
stopped. A process killed mid-answer leaves the running turn behind, and whoever
notices stores it as stopped (`store.leases`).

Pictures asked with a question arrive cleaned (`app.turns.images`); they are sent only to a model that can see
them, and otherwise refused with one sentence before anything is stored or sent. They are stored with the turn,
and read back one at a time by those who may read its workspace.

With accounts, the question is asked only where the user may change (checked once, at the top), at most
MAX_TURNS_PER_USER of one user's turns run at once, and the question, each picture's SHA-256 and each tool call
go into the audit trail in the same transaction as the turn itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable, Sequence
from contextlib import aclosing, suppress
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from app.accounts.audit_trail import AuditTrail
from app.accounts.policy import Access
from app.accounts.user_turns import UserTurns
from app.agents import AgentCatalog, AgentProfile
from app.approvals import EditApprovals
from app.memory import MemoryBook
from app.models import Models
from app.ports import TurnRecords
from app.turns.conversation import Conversation
from app.turns.images import ImageRefusedError, check_count
from app.turns.recording import TurnRecorder, written_to_the_end
from app.turns.workspace_line import STOPPED_WAITING, WorkspaceLine
from app.webhooks import Webhooks
from app.workspaces.past_work import PastWork
from app.workspaces.summaries import Summaries
from app.workspaces.workspaces import Workspaces
from domain.events import AgentError, AgentEvent, TurnCompleted
from domain.records import CleanImage, Turn, Workspace
from engine.agent import AIAgent, StopSignal, TurnRequest
from engine.notices import images_unsupported
from engine.tool_selection import ToolOffer, offer_tools
from engine.turn_state import TurnState
from store import HistoryError
from tools import ToolContext

if TYPE_CHECKING:
    from app.outside_tools.hub import McpHub

Consent = Callable[[str, dict[str, Any]], bool]  # (tool, arguments) -> may it run?

RECENT_TURNS_IN_MEMORY = 50


@dataclass(frozen=True)
class _Asked:
    """A question as it was asked: its workspace, the turn it replaces (Regenerate), the user's consent for outside
    tools, the workspace's agent and model, its pictures, a program's own conversation, and its Stop."""

    chat: Workspace
    question: str
    replaced: int | None
    consent: Consent | None
    profile: AgentProfile
    model: str
    images: tuple[CleanImage, ...] = ()
    conversation: Conversation | None = None
    stop: StopSignal = field(default_factory=StopSignal)


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
        webhooks: Webhooks | None = None,
        past_work: PastWork | None = None,
        summaries: Summaries | None = None,
    ) -> None:
        self._store = store
        self._recorder = TurnRecorder(store, audit, webhooks, asked_by)  # told of each turn stored, in its transaction
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
        self._past_work = past_work  # the user's other workspaces, searched from the turn's
        self._summaries = summaries  # refreshed every SUMMARY_EVERY_TURNS turns of a workspace that stays open

    def ask(
        self,
        question: str,
        chat_id: int | None = None,
        regenerate: bool = False,
        consent: Consent | None = None,
        conversation: Conversation | None = None,
        images: Sequence[CleanImage] = (),
    ) -> AsyncGenerator[AgentEvent, None]:
        """Run one turn in `chat_id` (default: the open workspace, made if there is none) and store it; the events
        stream as they come, and the last, `TurnCompleted`, carries the stored turn's id. The turn is stored
        however it ends, in the workspace it was asked in even if the user has moved on.

        One turn at a time in a workspace: while another is answered there (in any process), this one waits for it, told
        by `WaitingForServer`. When `regenerate`, the workspace's last turn as it is now is marked superseded when the
        turn begins: it stays in the record, but the model no longer sees it (its pictures are asked again, unless
        others are given). `consent` asks the user before an outside tool runs (None: nobody can be asked).
        `conversation`: a program's own (its model, earlier turns and instructions) instead of the workspace's.
        `images`, cleaned by `app.turns.images`, go with the question to a model that can see them; for one that cannot,
        ImageRefusedError comes before any event and nothing is stored or sent.
        """
        check_count(len(images))
        target = chat_id if chat_id is not None else self._workspaces.ensure_current().chat_id
        chat = self._access.change(target, "ask")
        self._store.check_writable()  # a history file gone from under the app is said before the model is asked
        last = self._store.get_turns(chat.chat_id, limit=1) if regenerate else []
        pictures = tuple(images) or (self._pictures_of(last[-1]) if last else ())
        profile = self._agents.get(chat.agent)
        model = conversation.model if conversation else profile.model or self._models.current
        replaced = last[-1].turn_id if last else None
        asked = _Asked(chat, question, replaced, consent, profile, model, pictures, conversation)
        return self._in_line(self._run(asked))

    async def check_images(self, chat_id: int | None = None) -> None:
        """ImageRefusedError, naming the model, when the model a question in `chat_id` (None: a new workspace)
        goes to cannot see pictures; the faces ask before a turn starts. A server that cannot tell is the turn's
        to say."""
        chat = self._access.visible(chat_id) if chat_id is not None else None
        model = self._model_of(chat)
        try:
            sees = await self._agent.sees_images(model)
        except AgentError:
            return
        if not sees:
            raise ImageRefusedError(images_unsupported(model).message)

    def image(self, chat_id: int, image_id: int) -> bytes:
        """The bytes of a picture asked in workspace `chat_id`, for whoever may read it (LookupError otherwise)."""
        self._access.read(chat_id, "read a picture of")
        data = self._store.turn_image(chat_id, image_id)
        if data is None:
            raise LookupError(f"There is no picture {image_id} in this workspace.")
        return data

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

    async def _run(self, asked: _Asked) -> AsyncGenerator[AgentEvent, None]:
        """The turn, once no other runs in its workspace (told by `WaitingForServer` meanwhile); the turn
        Regenerate replaces is marked superseded once it begins."""
        if asked.images:
            await self.check_images(asked.chat.chat_id)  # nothing is stored or sent for a model that cannot see them
        self._running = asked.stop
        line = WorkspaceLine(
            partial(self._begin, asked), partial(self._store.running_turn, asked.chat.chat_id), asked.stop,
            self._asked_by,
        )  # fmt: skip
        try:
            async with aclosing(line.waits()) as waits:
                async for waiting in waits:
                    yield waiting
        except GeneratorExit:  # the face closed the events as the wait ended: the question stored is kept
            self._keep_stopped(asked, line.running_id)
            raise
        except asyncio.CancelledError as error:
            self._keep_stopped(asked, line.running_id)  # cut off as its question was stored
            if not asked.stop.was_this(error):
                raise
            unasked = STOPPED_WAITING if line.running_id is None else None
            yield TurnCompleted(content="", stop_reason="stopped", model=asked.model, error=unasked)
            return
        assert line.running_id is not None
        async with aclosing(self._answer(asked, line.running_id)) as events:
            async for event in events:
                yield event

    def _keep_stopped(self, asked: _Asked, running_id: int | None) -> None:
        """A turn ended before it was asked whose question was stored (`running_id`): kept, as stopped."""
        if running_id is not None:
            stopped = TurnCompleted(content="", stop_reason="stopped", model=asked.model)
            self._recorder.kept(asked.chat.chat_id, asked.question, stopped, running_id, asked.images)

    def _begin(self, asked: _Asked) -> int | None:
        """The question stored as the workspace's running turn, with its audit records (the question, each
        picture's SHA-256) and the answer a Regenerate replaces marked so; None while another runs."""
        chat = asked.chat
        with self._store.unit_of_work():
            running = self._store.begin_turn(chat.chat_id, asked.question, asked.model, self._asked_by or None)
            if running is not None:
                if asked.replaced is not None:  # Regenerate: the answer it replaces, with the question stored
                    self._store.supersede_turn(asked.replaced)
                self._audit.record("ask", chat.chat_id, asked.question, chat.chat_name)
                for number, image in enumerate(asked.images, 1):
                    detail = (
                        f"picture {number}: {image.width} × {image.height} {image.media_type}, sha256 {image.sha256}"
                    )
                    self._audit.record("picture", chat.chat_id, detail, chat.chat_name)
        return running

    async def _answer(self, asked: _Asked, running: int) -> AsyncGenerator[AgentEvent, None]:
        """The begun turn (`running`), asked of the agent and stored however it ends."""
        chat_id, question, images = asked.chat.chat_id, asked.question, asked.images
        turn = TurnState()
        ended: TurnCompleted | None = None
        stored: list[int] = []  # the turn's id, once it is stored
        try:
            request = await asyncio.to_thread(self._request, asked)  # the store's reads off the event loop
            if self._agent.pool.several:  # where it runs, for the other processes choosing among the servers
                request = replace(request, on_server=partial(self._store.set_running_server, running))
            async with aclosing(self._agent.stream(request, turn)) as events:
                async for event in events:
                    if isinstance(event, TurnCompleted):
                        ended = event
                        store = partial(self._stored, chat_id, question, event, running, images)
                        turn_id = await written_to_the_end(store, stored.append)
                        event = event.model_copy(update={"turn_id": turn_id})
                    yield event
        finally:
            if not stored:  # cut off before the agent finished, or the store was away: keep what arrived
                completed = ended or turn.completed(asked.model, "stopped")
                self._recorder.kept(chat_id, question, completed, running, images)

    def _stored(
        self, chat_id: int, question: str, completed: TurnCompleted, running: int, images: tuple[CleanImage, ...]
    ) -> int:
        """The finished turn stored; then, before its last event goes out, its workspace's summary queued if it is
        due (written in the background: no turn waits for it; one the store cannot queue now is queued later)."""
        turn_id = self._recorder.record(chat_id, question, completed, running, images)
        if self._summaries is not None:
            with suppress(HistoryError):
                self._summaries.after_turn(chat_id)
        return turn_id

    def _model_of(self, chat: Workspace | None) -> str:
        """The model a question in `chat` goes to: its agent's own, or the one in use."""
        profile = self._agents.get(chat.agent if chat is not None else None)
        return profile.model or self._models.current

    def _request(self, asked: _Asked) -> TurnRequest:
        """The turn as the workspace stands now in the store (the answer before it may have just been stored): its
        summary, recent turns and agent, the user's memory, the tools and their approvers, its pictures; as a
        program's own conversation asks it, if it has one."""
        chat_id, question, profile = asked.chat.chat_id, asked.question, asked.profile
        used = self._store.tools_used_recently(chat_id, RECENT_TURNS_IN_MEMORY)
        external = _asking(self._context.external, asked.consent)
        context = replace(
            self._context,
            edits=self._approvals.for_workspace(chat_id),
            external=external,
            authority=partial(self._access.still, chat_id, "run a tool in") if self._access.checks else None,
            past_work=self._past_work.seen_from(chat_id) if self._past_work is not None else None,
        )
        settings = self._agent.settings
        request = TurnRequest(
            question=question,
            model=asked.model,
            system_prompt=f"{settings.system_prompt}\n\n{profile.prompt}" if profile.prompt else settings.system_prompt,
            summary=asked.chat.context_summary,
            history=tuple(self._store.load_recent_history(chat_id, RECENT_TURNS_IN_MEMORY)),
            memory=tuple(self._memory.for_prompt(question)),
            tools=self._offer(question, profile, used, external),
            tool_context=context,
            temperature=profile.temperature,
            think=settings.think,
            workspace_key=chat_id,
            busy_elsewhere=tuple(self._store.busy_servers().items()) if self._agent.pool.several else (),
            images=tuple(image.data for image in asked.images),
            stop=asked.stop,
        )
        return asked.conversation.applied(request) if asked.conversation else request

    def _pictures_of(self, turn: Turn) -> tuple[CleanImage, ...]:
        """A stored turn's pictures, to be asked again."""
        found = [(image, self._store.turn_image(turn.chat_id, image.image_id)) for image in turn.images]
        return tuple(
            CleanImage(data=data, **image.model_dump(exclude={"image_id"})) for image, data in found if data is not None
        )

    def _offer(self, question: str, profile: AgentProfile, used: set[str], external: McpHub | None) -> ToolOffer:
        """The workspace's agent's tools (only they are sent and run; MCP servers start on first need): the
        question's described when the agent has them all, or all of the agent's own."""
        tools = self._tools + (external.names() if external is not None else [])
        allowed = tools if profile.tools is None else [name for name in tools if name in profile.tools]
        select = self._agent.settings.select_tools and profile.tools is None
        return offer_tools(question, allowed, used=used, select=select, external=external)

    def record(
        self,
        chat_id: int,
        question: str,
        completed: TurnCompleted,
        running_id: int | None = None,
        images: tuple[CleanImage, ...] = (),
    ) -> int:
        """Store a finished (or stopped, or failed) turn with its pictures (`TurnRecorder.record`)."""
        return self._recorder.record(chat_id, question, completed, running_id, images)


def _asking(external: object, consent: Consent | None) -> McpHub | None:
    """The MCP servers' tools as this turn's consent lets the model use them (none when no server is set up: their
    module is not even loaded)."""
    if external is None:
        return None
    from app.outside_tools.hub import McpHub

    return external.asking(consent) if isinstance(external, McpHub) else None
