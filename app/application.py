"""The application: the one entry every face receives, made of one part per concern.

The CLI, the web app and the protocol server call only this: `workspaces` (the view's open
workspace, and every workspace's life), `turns` (ask, stop, read), `summaries` (the digital
twins), `documents` (the workspace folder's index), `memory`, `approvals` (file edits),
`reports` (exports, the calculation report, backups), `packages` (calculation packages),
`models`, `agents` and `outside_tools` (MCP). Each part reaches the store through the narrow
interface of `app.ports` it needs. The faces render what the parts return and never reach the
store or the model themselves; nothing here is configured by a face assigning to it.

One application serves one user's view (a browser tab, a terminal), as the open workspace is
the view's own; `sibling` makes another on the same store, agent and document index. With
AUTH=accounts, `for_user` opens the application for one signed-in user, fixed for its life: every part
asks that user's access policy (`app.accounts.policy`) at the top of each use case, reads the lists and searches the
store filters for the user, and records what it does in the audit trail, in the same transaction as the
change. Without a user (AUTH=none, or the commands run on the server itself) nothing is checked or recorded,
as for one person; the server's own account commands are recorded as the server's owner.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from app.accounts.audit_trail import SERVER_OWNER, AuditTrail
from app.accounts.policy import MOST_WORKSPACES, Access
from app.accounts.throttle import SignInThrottle
from app.accounts.user_turns import UserTurns
from app.accounts.users import OfficeSignOn
from app.agents import AgentCatalog, Agents, load_agents
from app.approvals import EditApprovals, FileEditMode
from app.documents.library import DocumentLibrary
from app.documents.user_documents import Documents
from app.memory import MemoryBook
from app.models import Models
from app.ports import Store
from app.together.live import Live
from app.together.notifications import Notifications
from app.turns.turns import Turns
from app.webhooks import Deliverer, Webhooks
from app.workspaces.past_work import PastWork
from app.workspaces.summaries import Summaries
from app.workspaces.summary_writer import SummaryWriter
from app.workspaces.workspaces import Workspaces
from domain.accounts import User
from engine.agent import AIAgent
from engine.embeddings import Embedder
from tools import edits_files, tool_kind

if TYPE_CHECKING:  # the parts a turn does not use are made when first asked for (see `Application`)
    from app.accounts.sharing import Sharing
    from app.accounts.users import Accounts
    from app.outside_tools.consent import OutsideTools
    from app.packages.desk import SignoffRecord
    from app.packages.packages import Packages
    from app.reports.reports import Reports

__all__ = ["Application"]

logger = logging.getLogger(__name__)

CLOSE_WAIT_SECONDS = 5.0


@dataclass(frozen=True)
class AccountSettings:
    """What accounts share among a process's applications: the mode (AUTH), each user's running turns
    (MAX_TURNS_PER_USER), the failed sign-ins and how long a browser stays signed in (SESSION_HOURS)."""

    mode: str = "none"  # "none" or "accounts"
    user_turns: UserTurns = field(default_factory=UserTurns)
    throttle: SignInThrottle = field(default_factory=SignInThrottle)
    session_hours: float = 12.0
    office: OfficeSignOn = field(default_factory=OfficeSignOn)  # who single sign-on makes a user of
    most_workspaces: int = MOST_WORKSPACES  # MAX_WORKSPACES_PER_USER

    @property
    def on(self) -> bool:
        return self.mode == "accounts"


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
        accounts: AccountSettings | None = None,
        user: User | None = None,
        webhooks: Deliverer | None = None,
        standing: Callable[[], object] | None = None,
        summary_every_turns: int = 10,
        summary_writer: SummaryWriter | None = None,
    ) -> None:
        self._store = store
        self._summary_every = summary_every_turns
        self._agent = agent
        self._engineer = engineer
        self._accounts = accounts if accounts is not None else AccountSettings()
        self._user = user
        self._deliverer = webhooks
        self._standing = standing  # what opened this view for its user, asked again at each request
        written = AuditTrail(store, user.name if user is not None else SERVER_OWNER)
        self.access = Access(store, user, written, self._accounts.most_workspaces)
        self.audit = AuditTrail(store, written.actor, self.access.admin)  # read by admins only
        self.webhooks = Webhooks(store, webhooks, user, self.access)
        self.notifications = Notifications(store, self.access)
        self.live = Live(store, self.access)
        used = written if user is not None else AuditTrail(store, SERVER_OWNER, kept=False)  # what the parts record
        self._used = used
        context = agent.settings.tool_context
        if documents is None:
            embedder = Embedder(agent.pool, embed_model) if embed_model else None
            documents = DocumentLibrary(store, context.workspace_root, embedder)
        self._library = documents
        self.documents = Documents(documents, self.access, used)
        self.memory = MemoryBook(store, off=user is not None)
        context = replace(context, protected=store.files(), edits=None, documents=documents, memory=self.memory)
        self.approvals = EditApprovals(store, context, file_edits, can_ask, self.access, used, self.notifications)
        catalog = agents if agents is not None else load_agents()
        tool_names = [
            name
            for name in agent.settings.tool_names
            if (file_edits != "off" or not edits_files(name)) and (user is None or tool_kind(name) != "memory")
        ]
        self.agents = Agents(catalog, store, tool_names, self.access, used)
        self.models = Models(agent)
        self._owns_writer = summary_writer is None  # siblings share the first one's, which ends it when it closes
        self._summary_writer = summary_writer if summary_writer is not None else SummaryWriter(agent.aclose)
        self.summaries = Summaries(
            store, agent, self.models, self.access, used, self._summary_writer, summary_every_turns
        )
        self.workspaces = Workspaces(store, self.summaries, self.access, used)
        asked_by = user.name if user is not None else engineer
        user_turns = self._accounts.user_turns if user is not None else None
        self.past_work = PastWork(store, self.access, documents.embedder)  # the user's other workspaces
        self.turns = Turns(
            store, agent, context, tool_names, self.approvals, self.memory, catalog, self.models, self.workspaces,
            self.access, used, user_turns, asked_by=asked_by, webhooks=self.webhooks, past_work=self.past_work,
            summaries=self.summaries,
        )  # fmt: skip
        self._exports = exports_dir if exports_dir is not None else _beside_history(store) / "exports"
        self._asked_by = asked_by
        self._hub = context.external

    # The parts a turn does not use, made (and their modules imported) when first asked for, so that a command pays
    # only for what it uses: `--once` never loads the packages' typesetting, `verify` never the accounts' hashing.

    @cached_property
    def accounts(self) -> Accounts:
        from app.accounts.users import Accounts

        settings = self._accounts
        return Accounts(
            self._store, self.access, self.audit, settings.throttle, settings.session_hours, office=settings.office
        )

    @cached_property
    def sharing(self) -> Sharing:
        from app.accounts.sharing import Sharing

        return Sharing(self._store, self.access, self.audit, self.webhooks, self.notifications)

    @cached_property
    def reports(self) -> Reports:
        from app.reports.reports import Reports

        return Reports(self._store, self._exports, self.access, self._used)

    @cached_property
    def packages(self) -> Packages:
        from app.packages import PackageDesk
        from app.packages.packages import Packages

        desk = PackageDesk(self._store, self._signed_off)
        return Packages(desk, self.reports, self._asked_by, self.access, self._used)

    @cached_property
    def outside_tools(self) -> OutsideTools:
        from app.outside_tools.consent import OutsideTools
        from app.outside_tools.hub import McpHub

        return OutsideTools(self._hub if isinstance(self._hub, McpHub) else None)

    def _signed_off(self, record: SignoffRecord) -> None:
        """`PackageDesk.audit`: each sign-off step into the audit trail (with accounts), a notification for those it
        concerns, and to the webhooks, in the sign-off's own transaction."""
        self.webhooks.signed_off(record)
        if not self._accounts.on:
            return
        issued = f", issued with SHA-256 {record.sha256}" if record.sha256 else ""
        detail = f"revision {record.letter} {record.step} by {record.who.name}{issued}"
        self.audit.record(f"package {record.step}", record.chat_id, detail)
        self.notifications.signed_off(record.chat_id, record.letter, record.step, record.who.name)

    @property
    def user(self) -> User | None:
        """Who this application acts for, fixed when it was opened (None: one person, or the server's owner)."""
        return self._user

    @property
    def accounts_on(self) -> bool:
        """Whether AUTH=accounts: the faces then open the application for a signed-in user (`for_user`)."""
        return self._accounts.on

    def for_user(self, user: User, can_ask: bool = True, standing: Callable[[], object] | None = None) -> Application:
        """The application for one signed-in user (`accounts.sign_in…` gives the `User`), on the same store,
        agent, agents and document index, with a view of its own; the user is fixed for its life. `standing`
        raises SignInError once what signed the user in no longer stands (a terminal's key and session)."""
        return self._opened(can_ask, user, standing)

    def stands(self) -> None:
        """Asked by a long-lived view (a terminal's prompt) at each request: SignInError, with its sentence, once
        the user was removed, their key revoked, or their password or role changed since the view opened."""
        if self._standing is not None:
            self._standing()
        elif self._user is not None:
            self.access.role  # noqa: B018 - a removed user raises SignInError

    def sibling(self, can_ask: bool = True) -> Application:
        """Another view on the same store, agent, agents and document index, with its own open workspace and the
        same user, so that turns in different workspaces can run at once (the protocol server keeps one per
        workspace in use). With `can_ask` False there is nobody to approve a file edit, so under
        FILE_EDITS=confirm edits are refused."""
        return self._opened(can_ask, self.user, self._standing)

    def _opened(self, can_ask: bool, user: User | None, standing: Callable[[], object] | None = None) -> Application:
        return Application(
            self._store,
            self._agent,
            self.approvals.mode,
            documents=self._library,
            can_ask=can_ask,
            agents=self.agents.catalog,
            exports_dir=self._exports,
            engineer=self._engineer,
            accounts=self._accounts,
            user=user,
            webhooks=self._deliverer,
            standing=standing,
            summary_every_turns=self._summary_every,
            summary_writer=self._summary_writer,
        )

    async def aclose(self) -> None:
        """Close the running event loop's connection to Ollama."""
        await self._agent.aclose()

    def close(self) -> None:
        """Close the store; a summary still being written is given up (call `summaries.wait` first to keep it)."""
        if "outside_tools" in self.__dict__:  # made: its servers may be running
            self.outside_tools.close()
        self.documents.close()
        self.summaries.skip()
        self.summaries.wait(CLOSE_WAIT_SECONDS)
        if self._owns_writer:
            self._summary_writer.close(CLOSE_WAIT_SECONDS)
        self.webhooks.close()  # a command that exits at once tries its deliveries first
        self._store.close()
