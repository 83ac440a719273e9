"""Putting the application together from its settings: the store, the agent, agent files, hooks and MCP
servers, checked before anything is created. The faces call `open_application` (or `start`, which reads the
settings too)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.accounts.user_turns import UserTurns
from app.accounts.users import OfficeSignOn
from app.agents import load_agents
from app.application import AccountSettings, Application
from app.configuration.settings import Settings, SettingsError, check_paths, configure_logging, load_settings
from app.webhooks import Deliverer, load_webhooks
from engine.agent import AIAgent
from engine.server_pool import ServerPools
from store import ChatHistoryDB
from tools import ToolContext
from tools.registry import ExternalTools, ToolHooksRunner

if TYPE_CHECKING:
    from app.outside_tools.servers import McpPool


def agent_from_settings(
    settings: Settings, context: ToolContext | None = None, servers: ServerPools | None = None
) -> AIAgent:
    """The agent the settings describe, its tools in `context` (the application adds the approvers), its Ollama
    servers from `servers` when the face shares them among its applications (the web app's tabs)."""
    pool = (servers or ServerPools()).get(settings.servers, settings.max_turns_per_server)
    return AIAgent(
        settings.model,
        settings.servers,
        settings.system_prompt,
        tool_context=context or ToolContext(workspace_root=settings.workspace_root),
        num_ctx=settings.num_ctx,
        num_predict=settings.num_predict,
        max_tool_rounds=settings.max_tool_rounds,
        request_timeout=settings.request_timeout,
        think=settings.think_option,
        select_tools=True,
        pool=pool,
    )


def open_application(
    settings: Settings, mcp_pool: McpPool | None = None, servers: ServerPools | None = None
) -> Application:
    """The store, the agent and the workspace folder the settings name, checked before any is created; the MCP
    servers from `mcp_pool` and the Ollama servers from `servers` when the face shares them among its services
    (the web app's tabs)."""
    check_paths(settings)
    store = ChatHistoryDB(settings.store_target)
    try:
        settings.workspace_root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        store.close()
        raise SettingsError(
            f"WORKSPACE_ROOT {settings.workspace_root} cannot be created ({error.strerror}); "
            "set WORKSPACE_ROOT to a folder you can write to."
        ) from None
    agents = load_agents(settings.agents_dir, history=settings.chat_history_db_path)
    try:
        hooks, external = outside_tools(settings, mcp_pool)
        webhooks = load_webhooks(settings.webhooks_config)
    except ValueError as error:
        store.close()
        raise SettingsError(str(error)) from None
    context = ToolContext(workspace_root=settings.workspace_root, hooks=hooks, external=external)
    return Application(
        store,
        agent_from_settings(settings, context, servers),
        settings.file_edits,
        settings.embed_model,
        agents=agents,
        exports_dir=settings.exports_folder,
        engineer=settings.engineer_name,
        summary_every_turns=settings.summary_every_turns,
        accounts=AccountSettings(
            settings.auth,
            UserTurns(settings.max_turns_per_user),
            session_hours=settings.session_hours,
            office=OfficeSignOn.of(settings.sso_allowed_domains, settings.sso_role_claim),
            most_workspaces=settings.max_workspaces_per_user,
        ),
        webhooks=Deliverer(store, webhooks) if webhooks else None,
    )


def outside_tools(settings: Settings, mcp_pool: McpPool | None) -> tuple[ToolHooksRunner | None, ExternalTools | None]:
    """The hooks and the MCP servers the settings name (their modules loaded only when a file is named);
    ValueError says in one sentence what is wrong with a file."""
    hooks: ToolHooksRunner | None = None
    external: ExternalTools | None = None
    if settings.hooks_config is not None:
        from app.outside_tools.hooks import load_hooks

        hooks = load_hooks(settings.hooks_config)
    if settings.mcp_config is not None:
        from app.outside_tools.hub import load_mcp

        external = load_mcp(settings.mcp_config, settings.mcp_idle_seconds, mcp_pool)
    return hooks, external


def start(
    env_file: Path | None,
    overrides: Mapping[str, Any],
    mcp_pool: McpPool | None = None,
    servers: ServerPools | None = None,
) -> Application:
    """Read the settings (`.env`, the environment, the face's flags), set up logging and open the service;
    SettingsError or HistoryError say in one sentence what stops it."""
    settings = load_settings(env_file=env_file, overrides=overrides)
    configure_logging(settings)
    return open_application(settings, mcp_pool, servers)
