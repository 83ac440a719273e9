"""The application service: everything a face can do, in one place, over one store and one agent.

The CLI, the web app (and any other face) call only this: workspaces (create,
rename, delete, switch, search), turns (ask, stop, regenerate), digital-twin
summaries, exports and backups, file-edit approvals and the model in use. They
render what it returns and never reach the store or the model themselves.

One service serves one user's view (a browser tab, a terminal): it remembers
which workspace is current. Leaving a workspace summarises it only if it has
turns its summary does not cover (the previous summary plus those turns, so
the input stays bounded), and in the background: a switch never waits for the
model, and a question asked meanwhile goes to the workspace it was asked in.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Literal

from app.agents import AgentCatalog, load_agents
from app.approvals import EditApprovals, FileEditMode
from app.documents import DocumentLibrary
from app.exports import report_pieces, workspace_pieces
from app.mcp_tools import McpHub
from app.memory import MemoryBook
from app.packages import PackageDesk, PackagePdf, PackageStatus
from app.summaries import SummaryWriter, SwitchOutcome
from app.turns import DEFAULT_WORKSPACE_NAME, TurnRunner
from domain.events import AgentEvent
from domain.packages import IssuedMatch, ProjectDetails, Signer, SignoffStep
from domain.records import Chat, SearchHit, Turn
from engine.agent import AIAgent
from engine.embeddings import Embedder
from engine.failures import CallSite
from engine.ollama_server import ServerStatus, server_status
from store import ChatHistoryDB, HistoryError
from tools import edits_files, tool_specs
from tools.atomic_files import write_atomically

__all__ = ["ServerStatus", "SwitchOutcome", "WorkspaceService"]

logger = logging.getLogger(__name__)

TURNS_PER_SUMMARY = 100
STATUS_TIMEOUT_SECONDS = 3.0
CLOSE_WAIT_SECONDS = 5.0


class WorkspaceService:
    """One user's workspaces, turns, summaries, exports and file-edit approvals."""

    def __init__(
        self,
        store: ChatHistoryDB,
        agent: AIAgent,
        file_edits: FileEditMode = "confirm",
        embed_model: str = "",
        documents: DocumentLibrary | None = None,
        can_ask: bool = True,
        agents: AgentCatalog | None = None,
        exports_dir: Path | None = None,
        engineer: str = "",
    ) -> None:
        self._store = store
        self.exports_dir = exports_dir if exports_dir is not None else store.path.parent / "exports"
        self._agent = agent
        self.current_id: int | None = None
        self.engineer = engineer.strip()  # ENGINEER_NAME: who asks (the preparer) and who signs, until accounts
        if documents is None:
            embedder = Embedder(agent.server, embed_model) if embed_model else None
            documents = DocumentLibrary(store, agent.tool_context.workspace_root, embedder)
        self.documents = documents
        self.memory = MemoryBook(store)
        agent.tool_context = replace(
            agent.tool_context, protected=store.files(), edits=None, documents=documents, memory=self.memory
        )
        self.edits = EditApprovals(store, agent.tool_context, file_edits, can_ask)
        if file_edits == "off":
            agent.tool_names = [name for name in agent.tool_names if not edits_files(name)]
        self.agents = agents if agents is not None else load_agents()
        self._turns = TurnRunner(store, agent, self.edits, self.memory, self.agents)
        self._summaries = SummaryWriter(self.refresh_summary, agent.aclose)
        self._packages = PackageDesk(store)

    def sibling(self, can_ask: bool = True) -> WorkspaceService:
        """Another service on the same store and document index, with an agent of its own, so that turns in
        different workspaces can run at once (the protocol server keeps one per workspace in use). With
        `can_ask` False there is nobody to approve a file edit, so under FILE_EDITS=confirm edits are refused."""
        twin = self._agent.sibling()
        return WorkspaceService(
            self._store,
            twin,
            self.edits.mode,
            documents=self.documents,
            can_ask=can_ask,
            agents=self.agents,
            exports_dir=self.exports_dir,
            engineer=self.engineer,
        )

    def leave(self, chat_id: int) -> bool:
        """The user is done with `chat_id` for now: refresh its digital twin in the background if it has new turns."""
        chat = self._store.get_chat(chat_id)
        if chat is None or not self.needs_summary(chat_id) or self._summaries.is_pending(chat_id):
            return False
        self._summaries.submit(chat)
        return True

    async def aclose(self) -> None:
        """Close the running event loop's connection to Ollama."""
        await self._agent.aclose()

    def close(self) -> None:
        """Close the store; a summary still being written is given up (call `wait_for_summaries` first to keep it)."""
        if self.mcp is not None:
            self.mcp.close()
        self._summaries.skip()
        self._summaries.wait(CLOSE_WAIT_SECONDS)
        self._store.close()

    # Workspaces -------------------------------------------------------------------

    @property
    def current(self) -> Chat | None:
        return self._store.get_chat(self.current_id) if self.current_id is not None else None

    def workspaces(self, limit: int | None = None) -> list[Chat]:
        """Workspaces, the most recently active first."""
        return self._store.recent_chats(limit)

    def count_workspaces(self) -> int:
        return len(self._store.list_chats())

    def search(self, text: str) -> list[SearchHit]:
        """Workspaces whose name or messages contain `text`, most recently active first."""
        return self._store.search_chats(text)

    def get(self, chat_id: int) -> Chat | None:
        return self._store.get_chat(chat_id)

    def find(self, name_or_id: str) -> Chat:
        """A workspace by id or exact name; LookupError says how to see the others."""
        if not name_or_id.strip():
            raise ValueError("Give a workspace name or id.")
        chat = self._store.find_chat(name_or_id)
        if chat is None:
            raise LookupError(f"There is no workspace called {name_or_id.strip()!r}.")
        return chat

    def open(self, chat_id: int) -> Chat:
        """Make `chat_id` the current workspace (no summary is written)."""
        chat = self._store.get_chat(chat_id)
        if chat is None:
            raise LookupError(f"There is no workspace with id {chat_id}.")
        self.current_id = chat_id
        return chat

    def open_latest(self) -> Chat | None:
        """Open the most recently active workspace, if there is one."""
        latest = self._store.recent_chats(1)
        if not latest:
            self.current_id = None
            return None
        return self.open(latest[0].chat_id)

    def open_or_create(self, name_or_id: str) -> Chat:
        """Open the named (or numbered) workspace, creating a named one that does not exist yet."""
        chat = self._store.find_chat(name_or_id)
        if chat is not None:
            return self.open(chat.chat_id)
        if name_or_id.strip().isdigit():
            raise LookupError(f"There is no workspace with id {name_or_id.strip()}.")
        return self.create(name_or_id)

    def create(self, name: str = DEFAULT_WORKSPACE_NAME) -> Chat:
        """Create a workspace and make it current (without summarising the one left)."""
        return self.open(self._store.create_chat(name.strip() or DEFAULT_WORKSPACE_NAME))

    async def start_new(self, name: str = DEFAULT_WORKSPACE_NAME) -> tuple[Chat, SwitchOutcome]:
        """Switch to a new workspace (refreshing the digital twin of the one left).

        A new workspace with the default name reuses an empty one, so that "New
        workspace" clicked twice does not leave a pile of empty workspaces.
        """
        cleaned = name.strip() or DEFAULT_WORKSPACE_NAME
        empty = self._store.find_empty_chat(cleaned) if cleaned == DEFAULT_WORKSPACE_NAME else None
        chat_id = empty.chat_id if empty is not None else self._store.create_chat(cleaned)
        outcome = await self.switch(chat_id)
        return self.open(chat_id), outcome

    async def switch(self, target_id: int) -> SwitchOutcome:
        """Open `target_id` now; the digital twin of the workspace left is refreshed in the background."""
        if self._store.get_chat(target_id) is None:
            raise LookupError(f"There is no workspace with id {target_id}.")
        leaving = self.current
        self.open(target_id)
        if leaving is None or leaving.chat_id == target_id or not self.needs_summary(leaving.chat_id):
            return SwitchOutcome(left=leaving)
        self._summaries.submit(leaving)
        return SwitchOutcome(leaving, pending=True)

    def ensure_current(self) -> Chat:
        """The current workspace, creating one when there is none (the first message names it)."""
        chat = self.current
        return chat if chat is not None else self.create()

    def rename(self, chat_id: int, name: str) -> str:
        """Rename a workspace; returns the name it now has."""
        cleaned = " ".join(name.split())
        if not cleaned:
            raise ValueError("Give the new name.")
        self._store.rename_chat(chat_id, cleaned)
        return cleaned

    def delete(self, chat_id: int) -> Chat | None:
        """Delete a workspace and its turns; if it was current, the latest one left becomes current."""
        self._store.delete_chat(chat_id)
        if chat_id == self.current_id:
            return self.open_latest()
        return self.current

    def clear(self, chat_id: int) -> None:
        """Delete a workspace's turns (its summary stays)."""
        self._store.clear_history(chat_id)

    def count_turns(self, chat_id: int) -> int:
        """How many turns the workspace has (a kept count: one row read, whatever the history's length)."""
        return self._store.count_turns(chat_id)

    def turns(self, chat_id: int, limit: int | None = None, before_turn_id: int | None = None) -> list[Turn]:
        """A workspace's turns with their tool calls, oldest first (the newest `limit`)."""
        return self._store.get_turns(chat_id, limit=limit, before_turn_id=before_turn_id)

    # Turns ------------------------------------------------------------------------

    def ask(
        self, question: str, chat_id: int | None = None, regenerate: bool = False
    ) -> AsyncGenerator[AgentEvent, None]:
        """Run one turn in `chat_id` (default: the current workspace, created if none) and store it.

        The events stream as they come; the turn is stored however it ends, with ENGINEER_NAME as who asked.
        """
        target = chat_id if chat_id is not None else self.ensure_current().chat_id
        return self._turns.run(target, question, regenerate, asked_by=self.engineer)

    def stop(self) -> None:
        """Stop the reply in progress (safe from a signal handler or another thread)."""
        self._agent.stop()

    def last_question(self, chat_id: int) -> str | None:
        """The workspace's last question, for "Regenerate"."""
        turns = self._store.get_turns(chat_id, limit=1)
        return turns[-1].user if turns else None

    # Digital twin -----------------------------------------------------------------

    def needs_summary(self, chat_id: int | None = None) -> bool:
        """Whether leaving the workspace would call the model to refresh its summary."""
        target = self.current_id if chat_id is None else chat_id
        if target is None or self._store.count_unsummarised_turns(target) == 0:
            return False
        try:
            self._store.check_writable()  # a history file gone from under the app could not keep the summary
        except HistoryError:
            return False
        return True

    async def refresh_summary(self, chat_id: int) -> bool:
        """Summarise the turns the summary does not cover yet; False when there were none.

        Raises `AgentError` when the model cannot summarise; the old summary stays.
        """
        chat = self._store.get_chat(chat_id)
        turns, pending = self._store.turns_since_summary(chat_id, TURNS_PER_SUMMARY)
        if chat is None or not pending:
            return False
        pairs = [(turn.user, turn.assistant) for turn in turns if turn.status != "superseded"]
        summary = await self._agent.summarize_history(pairs, previous_summary=chat.context_summary)
        self._store.set_context_summary(chat_id, summary, through_turn_id=turns[-1].turn_id)
        return True

    def summaries_pending(self) -> list[Chat]:
        """The workspaces whose summaries are being written in the background, or wait to be."""
        return self._summaries.pending()

    def summary_pending(self, chat_id: int) -> bool:
        return self._summaries.is_pending(chat_id)

    def finished_summaries(self) -> list[SwitchOutcome]:
        """The background summaries written (or failed) since the last call, each reported once."""
        return self._summaries.finished()

    def wait_for_summaries(self, timeout: float | None = None) -> bool:
        """Block until the background summaries are written; False if `timeout` ran out first."""
        return self._summaries.wait(timeout)

    def skip_summaries(self) -> list[Chat]:
        """Give up the background summaries (they are written the next time those workspaces are left)."""
        return self._summaries.skip()

    def set_summary(self, chat_id: int, text: str | None) -> None:
        """Replace the summary with the user's own text (None or blank clears it)."""
        self._store.set_context_summary(chat_id, text.strip() if text and text.strip() else None)

    # Documents --------------------------------------------------------------------

    def export_markdown(self, chat_id: int) -> str:
        """The whole workspace as Markdown: its summary, then every turn with its tool calls.

        Joined in memory; `write_export` writes a workspace of any length in constant memory.
        """
        return "".join(self.export_pieces(chat_id))

    def calculation_report(self, chat_id: int) -> str:
        """Every calculation of the workspace, in order, as Markdown (joined in memory; see `write_report`)."""
        return "".join(self.report_pieces(chat_id))

    def write_report(self, chat_id: int, path: Path) -> Path:
        """Write the calculation report to `path`, a batch of turns at a time (never over the chat history's files).

        The file appears complete or not at all: it is written beside `path` and then put in its place.
        """
        self._refuse_store_file(path, "report")
        write_atomically(path, self.report_pieces(chat_id))
        return path

    def write_export(self, chat_id: int, path: Path) -> Path:
        """Write the whole workspace as Markdown to `path`, as `write_report` writes the report."""
        self._refuse_store_file(path, "export")
        write_atomically(path, self.export_pieces(chat_id))
        return path

    def export_path(self, chat_id: int, kind: Literal["calculations", "workspace"]) -> Path:
        """Where a report (`calculations`) or an export (`workspace`) goes without a file name: EXPORTS_DIR,
        made if missing, as `calculations-<id>.md` or `workspace-<id>.md` (the full path, to tell the user)."""
        self.exports_dir.mkdir(parents=True, exist_ok=True)
        return (self.exports_dir / f"{kind}-{chat_id}.md").absolute()

    def export_pieces(self, chat_id: int) -> Iterator[str]:
        """The Markdown export in pieces, read from the store a batch of turns at a time."""
        return workspace_pieces(self._chat(chat_id), self._store.iter_turns(chat_id))

    def report_pieces(self, chat_id: int) -> Iterator[str]:
        """The calculation report in pieces, read from the store a batch of turns at a time."""
        return report_pieces(self._chat(chat_id), self._store.iter_turns(chat_id), self._store.turn_models(chat_id))

    def has_earlier_turns(self, chat_id: int, before_turn_id: int) -> bool:
        """Whether the workspace has turns older than `before_turn_id` (one index lookup)."""
        return self._store.has_turns_before(chat_id, before_turn_id)

    def _refuse_store_file(self, path: Path, what: str) -> None:
        if self._store.owns(path):
            raise PermissionError(f"{path} is a file of the chat history itself; choose another file for the {what}")

    # Calculation packages (app/packages) ----------------------------------------------------------

    def signer(self) -> Signer:
        """Who signs from this face: ENGINEER_NAME (a face with accounts passes the signed-in user instead)."""
        return Signer(name=self.engineer)

    def package_status(self, chat_id: int, who: Signer) -> PackageStatus:
        """The package's current revision, its signed revisions, and the sign-off steps `who` may take now."""
        return self._packages.status(chat_id, who)

    def package_pdf(self, chat_id: int, revision: str | None = None) -> PackagePdf:
        """The current revision as PDF (an approved one as frozen), or issued `revision` (such as "B") as issued."""
        return self._packages.pdf(chat_id, revision)

    def write_package(self, chat_id: int, path: Path, revision: str | None = None) -> PackagePdf:
        """Write `package_pdf` to `path` (complete or not at all; never over the chat history's files)."""
        self._refuse_store_file(path, "package")
        package = self._packages.pdf(chat_id, revision)
        write_atomically(path, package.data)
        return package

    def sign_off(self, chat_id: int, step: SignoffStep, who: Signer, note: str = "") -> str:
        """Check or approve the current revision as `who`; `SignoffError` says in a sentence why not."""
        return self._packages.sign_off(chat_id, step, who, note)

    def project_details(self, chat_id: int, details: ProjectDetails | None = None) -> ProjectDetails:
        """The project details on the workspace's cover sheet; with `details`, store those first."""
        return self._packages.details(chat_id) if details is None else self._packages.set_details(chat_id, details)

    def verify_package(self, data: bytes) -> IssuedMatch | None:
        """The issued revision a PDF's bytes are exactly, if any."""
        return self._packages.verify(data)

    def backup(self, path: Path) -> Path:
        """Copy every workspace into a new SQLite file (SQLite's online backup; writing may go on)."""
        self._store.backup(path)
        return path

    def _chat(self, chat_id: int) -> Chat:
        chat = self._store.get_chat(chat_id)
        if chat is None:
            raise LookupError(f"There is no workspace with id {chat_id}.")
        return chat

    # The model --------------------------------------------------------------------

    @property
    def model(self) -> str:
        return self._agent.model

    @model.setter
    def model(self, name: str) -> None:
        self._agent.model = self._turns.model = name.strip() or self._agent.model

    # Agents -----------------------------------------------------------------------------

    @property
    def mcp(self) -> McpHub | None:
        """The MCP servers' tools, if MCP_CONFIG names any (a face sets `mcp.ask` when it can ask the user)."""
        external = self._agent.tool_context.external
        return external if isinstance(external, McpHub) else None

    def agent_of(self, chat_id: int) -> str:
        """The name of the agent the workspace works with."""
        chat = self._store.get_chat(chat_id)
        return self.agents.get(chat.agent if chat else None).name

    def set_agent(self, chat_id: int, name: str) -> str:
        """Let the workspace work with agent `name` from its next turn on; LookupError names the agents."""
        if name not in self.agents.profiles:
            raise LookupError(f"There is no agent {name!r}; the agents are: {', '.join(sorted(self.agents.profiles))}.")
        self._store.set_chat_agent(chat_id, name)
        return name

    @property
    def endpoint(self) -> str:
        return self._agent.server

    async def list_models(self) -> list[str]:
        """Names of the models pulled on the server; raises `AgentError` when it cannot tell."""
        return await self._agent.list_models()

    async def server_status(self) -> ServerStatus:
        """The server's version and models, or the sentence that says why it cannot be reached."""
        return await server_status(CallSite(self._agent.server, self._agent.model, STATUS_TIMEOUT_SECONDS))

    def tools(self) -> list[tuple[str, str]]:
        """(name, description) of each tool the model is offered."""
        return [(name, tool_specs[name].description) for name in self._agent.tool_names]
