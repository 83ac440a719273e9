"""The model server and the model in use: which model answers, which are pulled, whether the server is there."""

from __future__ import annotations

from engine.agent import AIAgent
from engine.failures import CallSite
from engine.ollama_server import ServerStatus, server_status

STATUS_TIMEOUT_SECONDS = 3.0


class Models:
    """The model this view asks (an agent file may name its own for its workspaces), and the server's models."""

    def __init__(self, agent: AIAgent) -> None:
        self._agent = agent
        self._current = agent.model

    @property
    def current(self) -> str:
        """The model chosen for this view: the setting's, or the one picked since."""
        return self._current

    @property
    def endpoint(self) -> str:
        return self._agent.server

    def use(self, name: str) -> str:
        """Ask `name` from the next turn on (a blank name keeps the current one); returns the model in use."""
        self._current = name.strip() or self._current
        return self._current

    async def available(self) -> list[str]:
        """Names of the chat models pulled on the server; raises `AgentError` when it cannot tell."""
        return await self._agent.list_models()

    async def status(self) -> ServerStatus:
        """The server's version and models, or the sentence that says why it cannot be reached."""
        return await server_status(CallSite(self._agent.server, self._current, STATUS_TIMEOUT_SECONDS))
