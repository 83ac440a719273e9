"""The MCP servers MCP_CONFIG names, as processes: one set per application process, shared by its services.

Each server is served by one task on a thread with an event loop of its own (the SDK's client lives in one
task). The servers start the first time their tools are listed; a server with no call for MCP_IDLE_SECONDS is
stopped, and started again by the next call to one of its tools; all stop with the application (`close`, and
at the latest when the interpreter exits). Stopping follows the SDK: the server's standard input is closed, and
after a grace period its whole process group is killed, so a server that hangs, ignores SIGTERM or started
processes of its own leaves nothing running. `McpPool` hands the web app's tabs one `McpServers` per config.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import os
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

logger = logging.getLogger(__name__)
START_SECONDS = 30.0
CALL_SECONDS = 60.0
CLOSE_SECONDS = 15.0  # the SDK's own bounds: 0.5 s to flush, 2 s to exit, 2 s after SIGTERM, 2 s after SIGKILL
IDLE_SECONDS = 300.0
SEPARATOR = "__"
Call = tuple[str, dict[str, Any], Future[str]]


class ServerConfig(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    command: str = Field(min_length=1)
    args: list[str] = []
    env: dict[str, str] = {}
    auto_approve: list[str] = Field(default=[], alias="autoApprove")


class McpConfig(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    mcpServers: dict[str, ServerConfig]  # noqa: N815 - the name every MCP client's config file uses


class _StoppedIdleError(ValueError):
    """The server was stopped for being idle as a call reached it."""


@dataclass
class _Server:
    name: str
    config: ServerConfig
    tools: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool name -> Ollama function schema
    requests: asyncio.Queue[Call | None] = field(default_factory=asyncio.Queue)
    alive: bool = False
    idle: bool = False  # stopped for want of calls: the next call starts it again
    calls: int = 0  # in flight
    last_used: float = field(default_factory=time.monotonic)
    task: asyncio.Task[None] | None = None
    stop_scope: Any = None  # the anyio CancelScope around the SDK's client, once it runs


class McpServers:
    """The configured servers of one application process; every method may be called from any thread."""

    def __init__(self, config: McpConfig, idle_seconds: float = IDLE_SECONDS) -> None:
        self.config = config
        self.idle_seconds = idle_seconds
        self.problems: list[str] = []
        self._servers: dict[str, _Server] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()  # starting and stopping
        self._closed = False
        self._watching: Future[None] | None = None  # the task stopping idle servers

    # Tools -------------------------------------------------------------------------------------

    def names(self) -> list[str]:
        """`NAME__tool` for every tool of every server that started (starting them all on the first call);
        a server stopped for being idle keeps its tools listed."""
        self._start_all()
        return [
            f"{s.name}{SEPARATOR}{tool}" for s in list(self._servers.values()) if s.alive or s.idle for tool in s.tools
        ]

    def auto_approved(self, server: str, tool: str) -> bool:
        return tool in self._servers[server].config.auto_approve

    def schema(self, server: str, tool: str) -> dict[str, Any]:
        return self._servers[server].tools[tool]

    def call(self, server_name: str, tool: str, arguments: dict[str, Any]) -> str:
        """The tool's text result; ValueError says in one sentence why there is none."""
        try:
            return self._call_once(server_name, tool, arguments)
        except _StoppedIdleError:  # it was stopped for being idle just as the call came: start it again
            return self._call_once(server_name, tool, arguments)

    def _call_once(self, server_name: str, tool: str, arguments: dict[str, Any]) -> str:
        server, loop = self._running(server_name), self._loop
        if loop is None:
            raise ValueError(f"the MCP server {server_name} is not running")
        answer: Future[str] = Future()
        loop.call_soon_threadsafe(self._submit, server, (tool, arguments, answer))
        try:
            return answer.result(timeout=CALL_SECONDS)
        except TimeoutError:
            raise ValueError(f"the MCP server {server_name} did not answer within {CALL_SECONDS:g} s") from None

    def available(self, name: str) -> bool:
        """Whether the server runs, or was stopped for being idle and will start again when called."""
        server = self._servers.get(name)
        return server is not None and (server.alive or server.idle)

    # Lifecycle ----------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop every server and wait for it (the SDK kills its process group after a grace period)."""
        with self._lock:
            loop, self._loop, self._closed = self._loop, None, True
        if loop is None:
            return
        atexit.unregister(self.close)
        if self._watching is not None:
            self._watching.cancel()
        stopping = asyncio.run_coroutine_threadsafe(self._stop_all(), loop)
        try:
            stopping.result(timeout=CLOSE_SECONDS)
        except Exception as error:  # noqa: BLE001 - stopping goes on for the others; say what was left
            logger.warning("MCP servers did not all stop within %g s: %s", CLOSE_SECONDS, error)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(CLOSE_SECONDS)

    def _start_all(self) -> None:
        with self._lock:
            if self._loop is not None or self._closed:
                return
            self._loop = loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=loop.run_forever, name="mcp-servers", daemon=True)
            self._thread.start()
            atexit.register(self.close)  # the web app has no end of its own to call it from
            opening = [
                (name, asyncio.run_coroutine_threadsafe(self._open(name, config), loop))
                for name, config in self.config.mcpServers.items()
            ]
            for name, future in opening:
                self._wait_started(name, future)
            self._watching = asyncio.run_coroutine_threadsafe(self._stop_the_idle(), loop)

    def _running(self, name: str) -> _Server:
        """The server, started again if it was stopped for being idle."""
        server = self._servers.get(name)
        if server is not None and server.idle and not server.alive:
            with self._lock:
                server = self._servers[name]
                if server.idle and not server.alive and self._loop is not None:
                    again = self._open(name, server.config, server.tools)
                    self._wait_started(name, asyncio.run_coroutine_threadsafe(again, self._loop))
                    server = self._servers[name]
        if server is None or not server.alive:
            raise ValueError(f"the MCP server {name} is not running")
        return server

    def _wait_started(self, name: str, future: Future[None]) -> None:
        try:
            future.result(timeout=START_SECONDS + 5)
        except Exception as error:  # noqa: BLE001 - a server that does not start is one sentence
            self.problems.append(str(error) or f"the MCP server {name} did not start")

    # On the servers' loop ------------------------------------------------------------------------

    async def _open(self, name: str, config: ServerConfig, tools: dict[str, dict[str, Any]] | None = None) -> None:
        server = self._servers[name] = _Server(name, config, dict(tools or {}))
        started: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        server.task = asyncio.get_running_loop().create_task(self._serve(server, started))
        try:
            await asyncio.wait_for(asyncio.shield(started), START_SECONDS)
        except TimeoutError:
            self._stop(server)  # it hangs before answering: its process is stopped, not left behind
            raise ValueError(f"the MCP server {name} did not start within {START_SECONDS:g} s") from None

    async def _serve(self, server: _Server, started: asyncio.Future[None]) -> None:
        import anyio
        from mcp import Client, StdioServerParameters

        parameters = StdioServerParameters(
            command=server.config.command, args=server.config.args, env={**os.environ, **server.config.env}
        )
        try:
            with anyio.CancelScope() as scope:  # cancelled by _stop: the SDK's shielded shutdown still runs
                server.stop_scope = scope
                async with Client(parameters) as client:
                    listed = await client.list_tools()
                    server.tools = {tool.name: _ollama_schema(server.name, tool) for tool in listed.tools}
                    server.alive, server.last_used = True, time.monotonic()
                    started.set_result(None)
                    await self._answer(client, server)
        except Exception as error:  # noqa: BLE001 - start failures, crashes and garbage end here
            reason = f"the MCP server {server.name} stopped ({type(error).__name__}: {str(error)[:200]})"
            if not started.done():
                started.set_exception(ValueError(f"the MCP server {server.name} did not start ({error})"))
            self._fail_waiting(server, reason)
            logger.warning("%s", reason)
        finally:
            server.alive = False
            self._fail_waiting(server, f"the MCP server {server.name} was stopped")

    async def _answer(self, client: Any, server: _Server) -> None:
        while (request := await server.requests.get()) is not None:
            tool, arguments, answer = request
            try:
                answer.set_result(await _call(client, server.name, tool, arguments))
            except ValueError as refused:  # the tool's own error: the server goes on
                answer.set_exception(refused)
            except Exception as error:  # noqa: BLE001 - the connection broke: the server is gone
                answer.set_exception(ValueError(f"the MCP server {server.name} stopped during the call"))
                raise error
            finally:
                server.calls, server.last_used = server.calls - 1, time.monotonic()

    def _submit(self, server: _Server, call: Call) -> None:
        if not server.alive:
            reason = f"the MCP server {server.name} was stopped"
            call[2].set_exception(_StoppedIdleError(reason) if server.idle else ValueError(reason))
            return
        server.calls, server.last_used = server.calls + 1, time.monotonic()
        server.requests.put_nowait(call)

    async def _stop_the_idle(self) -> None:
        while True:
            await asyncio.sleep(max(0.1, min(5.0, self.idle_seconds / 4)))
            now = time.monotonic()
            for server in list(self._servers.values()):
                if server.alive and server.calls == 0 and now - server.last_used >= self.idle_seconds:
                    server.idle, server.alive = True, False  # a call from now on starts it again
                    server.requests.put_nowait(None)

    async def _stop_all(self) -> None:
        tasks = [server.task for server in self._servers.values() if server.task is not None]
        for server in list(self._servers.values()):
            self._stop(server)
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_SECONDS - 1)

    @staticmethod
    def _stop(server: _Server) -> None:
        if server.stop_scope is not None:
            server.stop_scope.cancel()
        elif server.task is not None:
            server.task.cancel()

    @staticmethod
    def _fail_waiting(server: _Server, reason: str) -> None:
        while not server.requests.empty():
            item = server.requests.get_nowait()
            if item is not None and not item[2].done():
                item[2].set_exception(ValueError(reason))


class McpPool:
    """One `McpServers` per MCP config for a whole process (the web app keeps one pool for all its tabs)."""

    def __init__(self) -> None:
        self._servers: dict[str, McpServers] = {}
        self._lock = threading.Lock()

    def servers(self, config: McpConfig, idle_seconds: float) -> McpServers:
        key = json.dumps([config.model_dump(mode="json"), idle_seconds], sort_keys=True)
        with self._lock:
            if key not in self._servers:
                self._servers[key] = McpServers(config, idle_seconds)
            return self._servers[key]

    def close(self) -> None:
        with self._lock:
            shared = list(self._servers.values())
        for servers in shared:
            servers.close()


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
