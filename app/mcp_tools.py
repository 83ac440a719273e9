"""MCP tools: other programs' tools, from stdio MCP servers named in MCP_CONFIG, through the official `mcp` SDK.

    {"mcpServers": {"office": {"command": "python", "args": ["sections_server.py"], "env": {},
                               "autoApprove": ["lookup"]}}}

Servers start the first time a turn needs the tool list, on a thread with an event loop of its own, and stop
with the application. Their tools appear to the model as `NAME__tool`, with the server's own schema. A call
to a tool not in `autoApprove` is put to the user first (`ask`); with nobody to ask it is refused, with a
sentence saying how to allow it. A server that does not start, hangs, crashes mid-call or answers garbage is
one sentence, and the turn goes on without it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.config_files import read_config

logger = logging.getLogger(__name__)
START_SECONDS = 30.0
CALL_SECONDS = 60.0
SEPARATOR = "__"
Ask = Callable[[str, dict[str, Any]], bool]


class ServerConfig(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    command: str = Field(min_length=1)
    args: list[str] = []
    env: dict[str, str] = {}
    auto_approve: list[str] = Field(default=[], alias="autoApprove")


class McpConfig(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    mcpServers: dict[str, ServerConfig]  # noqa: N815 - the name every MCP client's config file uses


def load_mcp(path: Path | None) -> McpHub | None:
    """The hub MCP_CONFIG describes; ValueError says in one sentence what is wrong with the file."""
    if path is None:
        return None
    config = read_config(path, McpConfig, "MCP_CONFIG")
    bad = [name for name in config.mcpServers if SEPARATOR in name or not name]
    if bad:
        raise ValueError(f"MCP_CONFIG {path}: server names may not contain '{SEPARATOR}': {', '.join(bad)}")
    return McpHub(config)


@dataclass
class _Server:
    name: str
    config: ServerConfig
    requests: asyncio.Queue[tuple[str, dict[str, Any], Future[str]] | None] = field(default_factory=asyncio.Queue)
    tools: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool name -> Ollama function schema
    alive: bool = False


class McpHub:
    """The configured servers, each served by one task on the hub's loop (the SDK's client lives in one task)."""

    def __init__(self, config: McpConfig) -> None:
        self.config = config
        self.problems: list[str] = []
        self.ask: Ask | None = None  # set by a face that can ask the user; None: refuse what needs consent
        self.approved: set[str] = set()  # `SERVER__tool`s the user allowed in this run (the web app's panel)
        self._servers: dict[str, _Server] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started = threading.Event()
        self._lock = threading.Lock()

    # Tools ----------------------------------------------------------------------------------

    def names(self) -> list[str]:
        """`NAME__tool` for every tool of every server that started (starting them on the first call)."""
        self._start()
        return [f"{s.name}{SEPARATOR}{tool}" for s in self._servers.values() if s.alive for tool in s.tools]

    def needs_consent(self, name: str) -> bool:
        server, tool = self._split(name)
        return tool not in self._servers[server].config.auto_approve

    def schema(self, name: str) -> dict[str, Any]:
        server, tool = self._split(name)
        return self._servers[server].tools[tool]

    def call(self, name: str, arguments: dict[str, Any]) -> str:
        """The tool's text result; ValueError says in one sentence why there is none."""
        server_name, tool = self._split(name)
        server = self._servers.get(server_name)
        if server is None or not server.alive:
            raise ValueError(f"the MCP server {server_name} is not running")
        if self.needs_consent(name) and name not in self.approved and not self._allowed(name, arguments):
            raise PermissionError(
                f"{name} needs your approval, and nobody can be asked here; allow it in the web app's Outside "
                f'tools panel, or add "{tool}" to autoApprove of {server_name} in MCP_CONFIG to allow it without asking'
            )
        assert self._loop is not None
        answer: Future[str] = Future()
        self._loop.call_soon_threadsafe(server.requests.put_nowait, (tool, arguments, answer))
        try:
            return answer.result(timeout=CALL_SECONDS)
        except TimeoutError:
            raise ValueError(f"the MCP server {server_name} did not answer within {CALL_SECONDS:g} s") from None

    def _allowed(self, name: str, arguments: dict[str, Any]) -> bool:
        if self.ask is None:
            return False
        return self.ask(name, arguments)

    def _split(self, name: str) -> tuple[str, str]:
        server, _, tool = name.partition(SEPARATOR)
        if not tool:
            raise ValueError(f"{name} is not an MCP tool name (SERVER{SEPARATOR}tool)")
        return server, tool

    # Lifecycle -------------------------------------------------------------------------------

    def _start(self) -> None:
        with self._lock:
            if self._loop is not None:
                return
            self._loop = asyncio.new_event_loop()
            threading.Thread(target=self._loop.run_forever, name="mcp-servers", daemon=True).start()
        ready = [
            asyncio.run_coroutine_threadsafe(self._open(name, config), self._loop)
            for name, config in self.config.mcpServers.items()
        ]
        for future in ready:
            try:
                future.result(timeout=START_SECONDS + 5)
            except Exception as error:  # noqa: BLE001 - a server that does not start is one sentence
                self.problems.append(str(error))

    async def _open(self, name: str, config: ServerConfig) -> None:
        server = self._servers[name] = _Server(name, config)
        started: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().create_task(self._serve(server, started))
        try:
            await asyncio.wait_for(started, START_SECONDS)
        except TimeoutError:
            raise ValueError(f"the MCP server {name} did not start within {START_SECONDS:g} s") from None

    async def _serve(self, server: _Server, started: asyncio.Future[None]) -> None:
        from mcp import Client, StdioServerParameters

        parameters = StdioServerParameters(
            command=server.config.command, args=server.config.args, env={**os.environ, **server.config.env}
        )
        try:
            async with Client(parameters) as client:
                listed = await client.list_tools()
                server.tools = {tool.name: _ollama_schema(server.name, tool) for tool in listed.tools}
                server.alive = True
                started.set_result(None)
                while (request := await server.requests.get()) is not None:
                    tool, arguments, answer = request
                    try:
                        answer.set_result(await _call(client, server.name, tool, arguments))
                    except ValueError as refused:  # the tool's own error: the server goes on
                        answer.set_exception(refused)
                    except Exception as error:  # noqa: BLE001 - the connection broke: the server is gone
                        answer.set_exception(ValueError(f"the MCP server {server.name} stopped during the call"))
                        raise error
        except Exception as error:  # noqa: BLE001 - start failures, crashes and garbage end here
            server.alive = False
            reason = f"the MCP server {server.name} stopped ({type(error).__name__}: {str(error)[:200]})"
            if not started.done():
                started.set_exception(ValueError(f"the MCP server {server.name} did not start ({error})"))
            self._fail_waiting(server, reason)
            logger.warning("%s", reason)

    @staticmethod
    def _fail_waiting(server: _Server, reason: str) -> None:
        while not server.requests.empty():
            item = server.requests.get_nowait()
            if item is not None:
                item[2].set_exception(ValueError(reason))

    def close(self) -> None:
        """Stop every server (at the application's end)."""
        if self._loop is None:
            return
        for server in self._servers.values():
            self._loop.call_soon_threadsafe(server.requests.put_nowait, None)


async def _call(client: Any, server: str, tool: str, arguments: dict[str, Any]) -> str:
    """Call one tool; a server error or a crash is turned into an exception the caller reports."""
    result = await client.call_tool(tool, arguments)
    texts = [getattr(block, "text", None) or json.dumps(block.model_dump(mode="json")) for block in result.content]
    text = "\n".join(texts) if texts else json.dumps(result.structured_content or {})
    if result.is_error:
        raise ValueError(f"{server}{SEPARATOR}{tool} failed: {text[:500]}")
    return text


def _ollama_schema(server: str, tool: Any) -> dict[str, Any]:
    schema = getattr(tool, "input_schema", None) or getattr(tool, "inputSchema", None) or {"type": "object"}
    description = (tool.description or f"{tool.name} from the MCP server {server}").strip()
    return {
        "type": "function",
        "function": {"name": f"{server}{SEPARATOR}{tool.name}", "description": description, "parameters": schema},
    }
