"""The application: the one entry every face receives, made of one part per concern.

The CLI, the web app and the protocol server call only this: `workspaces` (the view's open
workspace, and every workspace's life), `turns` (ask, stop, read), `summaries` (the digital
twins), `documents` (the workspace folder's index), `memory`, `approvals` (file edits),
`reports` (exports, the calculation report, backups), `packages` (calculation packages),
`models`, `agents` and `outside_tools` (MCP). Each part reaches the store through the narrow
interface of `app.ports` it needs. The faces render what the parts return and never reach the
store or the model themselves; nothing here is configured by a face assigning to it.

One application serves one user's view (a browser tab, a terminal), as the open workspace is
the view's own; `sibling` makes another on the same store, agent and document index.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

from app.agents import AgentCatalog, Agents, load_agents
from app.approvals import EditApprovals, FileEditMode
from app.documents import DocumentLibrary
from app.mcp_tools import McpHub
from app.memory import MemoryBook
from app.models import Models
from app.outside_tools import OutsideTools
from app.packages import PackageDesk
from app.ports import Store
from app.reports import Packages, Reports
from app.summaries import Summaries
from app.turns import Turns
from app.workspaces import Workspaces
from engine.agent import AIAgent
from engine.embeddings import Embedder
from tools import edits_files

__all__ = ["Application"]

logger = logging.getLogger(__name__)

CLOSE_WAIT_SECONDS = 5.0


def _beside_history(store: Store) -> Path:
    """The history file's folder, or the current folder for a history on a database server."""
    files = store.files()
    return files[0].parent if files else Path()


class Application:
    """One user's view of the application: its parts, over one store and one agent."""

    def __init__(
        self,
        store: Store,
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
        self._agent = agent
        self._engineer = engineer
        context = agent.settings.tool_context
        if documents is None:
            embedder = Embedder(agent.pool, embed_model) if embed_model else None
            documents = DocumentLibrary(store, context.workspace_root, embedder)
        self.documents = documents
        self.memory = MemoryBook(store)
        context = replace(context, protected=store.files(), edits=None, documents=documents, memory=self.memory)
        self.approvals = EditApprovals(store, context, file_edits, can_ask)
        catalog = agents if agents is not None else load_agents()
        tool_names = [name for name in agent.settings.tool_names if file_edits != "off" or not edits_files(name)]
        self.agents = Agents(catalog, store, tool_names)
        self.models = Models(agent)
        self.summaries = Summaries(store, agent, self.models)
        self.workspaces = Workspaces(store, self.summaries)
        self.turns = Turns(
            store,
            agent,
            context,
            tool_names,
            self.approvals,
            self.memory,
            catalog,
            self.models,
            self.workspaces,
            asked_by=engineer,
        )
        self.reports = Reports(store, exports_dir if exports_dir is not None else _beside_history(store) / "exports")
        self.packages = Packages(PackageDesk(store), self.reports, engineer)
        hub = context.external
        self.outside_tools = OutsideTools(hub if isinstance(hub, McpHub) else None)

    def sibling(self, can_ask: bool = True) -> Application:
        """Another view on the same store, agent, agents and document index, with its own open workspace, so that
        turns in different workspaces can run at once (the protocol server keeps one per workspace in use). With
        `can_ask` False there is nobody to approve a file edit, so under FILE_EDITS=confirm edits are refused."""
        return Application(
            self._store,
            self._agent,
            self.approvals.mode,
            documents=self.documents,
            can_ask=can_ask,
            agents=self.agents.catalog,
            exports_dir=self.reports.exports_dir,
            engineer=self._engineer,
        )

    async def aclose(self) -> None:
        """Close the running event loop's connection to Ollama."""
        await self._agent.aclose()

    def close(self) -> None:
        """Close the store; a summary still being written is given up (call `summaries.wait` first to keep it)."""
        self.outside_tools.close()
        self.documents.close()
        self.summaries.skip()
        self.summaries.wait(CLOSE_WAIT_SECONDS)
        self._store.close()
