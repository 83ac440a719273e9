"""MCP tools: other programs' tools, from stdio MCP servers named in MCP_CONFIG, through the official `mcp` SDK.

    {"mcpServers": {"office": {"command": "python", "args": ["sections_server.py"], "env": {},
                               "autoApprove": ["lookup"]}}}

The servers themselves (`app.outside_tools.servers`) start the first time a turn needs the tool list, stop after
MCP_IDLE_SECONDS without a call and start again on the next one, and stop with the application; the web app's
tabs share one set. Their tools appear to the model as `NAME__tool`, with the server's own schema. A call to a
tool not in `autoApprove` is put to the user first (`ask`); with nobody to ask it is refused, with a sentence
saying how to allow it. Consent belongs to each service (a web tab, the CLI), never to the shared servers. A
server that does not start, hangs, crashes mid-call or answers garbage is one sentence, and the turn goes on
without it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.configuration.config_files import read_config
from app.outside_tools.servers import IDLE_SECONDS, SEPARATOR, McpConfig, McpPool, McpServers

Ask = Callable[[str, dict[str, Any]], bool]


def load_mcp(path: Path | None, idle_seconds: float = IDLE_SECONDS, pool: McpPool | None = None) -> McpHub | None:
    """The hub MCP_CONFIG describes, on the pool's servers if there is a pool (else on servers of its own);
    ValueError says in one sentence what is wrong with the file."""
    if path is None:
        return None
    config = read_config(path, McpConfig, "MCP_CONFIG")
    bad = [name for name in config.mcpServers if SEPARATOR in name or not name]
    if bad:
        raise ValueError(f"MCP_CONFIG {path}: server names may not contain '{SEPARATOR}': {', '.join(bad)}")
    if pool is None:
        return McpHub(McpServers(config, idle_seconds), owns_servers=True)
    return McpHub(pool.servers(config, idle_seconds), owns_servers=False)


class McpHub:
    """One service's view of the MCP servers: their tools, and the consent of this service's user."""

    def __init__(
        self, servers: McpServers, owns_servers: bool = True, ask: Ask | None = None, approved: set[str] | None = None
    ) -> None:
        self.servers = servers
        self.owns_servers = owns_servers
        self._ask = ask  # a turn's way to ask its user; None: refuse what needs consent
        self._approved = approved if approved is not None else set()  # allowed in this run (the web app's panel)

    def asking(self, ask: Ask | None) -> McpHub:
        """This hub for one turn, whose user is asked with `ask` (None: nobody can be asked); the servers and
        what the user allowed are shared."""
        return McpHub(self.servers, owns_servers=False, ask=ask, approved=self._approved)

    def allowed(self, name: str) -> bool:
        """Whether the user allowed `name` in this run."""
        return name in self._approved

    def allow(self, name: str, allowed: bool = True) -> None:
        """Allow `name` to run without asking in this run (or take that back)."""
        (self._approved.add if allowed else self._approved.discard)(name)

    @property
    def config(self) -> McpConfig:
        return self.servers.config

    @property
    def problems(self) -> list[str]:
        return self.servers.problems

    def names(self) -> list[str]:
        """`NAME__tool` for every tool of every server that started (starting them on the first call)."""
        return self.servers.names()

    def needs_consent(self, name: str) -> bool:
        return not self.servers.auto_approved(*self._split(name))

    def schema(self, name: str) -> dict[str, Any]:
        return self.servers.schema(*self._split(name))

    def call(self, name: str, arguments: dict[str, Any]) -> str:
        """The tool's text result; ValueError says in one sentence why there is none."""
        server, tool = self._split(name)
        if not self.servers.available(server):
            raise ValueError(f"the MCP server {server} is not running")
        if self.needs_consent(name) and name not in self._approved and not self._asked(name, arguments):
            raise PermissionError(
                f"{name} needs your approval, and nobody can be asked here; allow it in the web app's Outside "
                f'tools panel, or add "{tool}" to autoApprove of {server} in MCP_CONFIG to allow it without asking'
            )
        return self.servers.call(server, tool, arguments)

    def close(self) -> None:
        """Stop the servers at the application's end, if they are this hub's own (shared ones stop with the
        process, or when idle)."""
        if self.owns_servers:
            self.servers.close()

    def _asked(self, name: str, arguments: dict[str, Any]) -> bool:
        return self._ask is not None and self._ask(name, arguments)

    @staticmethod
    def _split(name: str) -> tuple[str, str]:
        server, _, tool = name.partition(SEPARATOR)
        if not tool:
            raise ValueError(f"{name} is not an MCP tool name (SERVER{SEPARATOR}tool)")
        return server, tool
