"""The model servers and the model in use: which model answers, which are pulled, whether the servers are there."""

from __future__ import annotations

from engine.agent import AIAgent
from engine.ollama_server import ServerStatus

STATUS_TIMEOUT_SECONDS = 3.0


class Models:
    """The model this view asks (an agent file may name its own for its workspaces), and the servers' models."""

    def __init__(self, agent: AIAgent) -> None:
        self._agent = agent
        self._current = agent.model

    @property
    def current(self) -> str:
        """The model chosen for this view: the setting's, or the one picked since."""
        return self._current

    @property
    def endpoint(self) -> str:
        """The Ollama server, or the servers separated by commas (ENDPOINT)."""
        return self._agent.server

    def use(self, name: str) -> str:
        """Ask `name` from the next turn on (a blank name keeps the current one); returns the model in use."""
        self._current = name.strip() or self._current
        return self._current

    async def available(self) -> list[str]:
        """Names of the chat models pulled on the servers that answer (all of them together); raises `AgentError`
        when it cannot tell."""
        return await self._agent.list_models()

    async def status(self) -> ServerStatus:
        """The servers' versions and models and those that do not answer, or the sentence that says why none can
        be reached."""
        return await self._agent.server_status(STATUS_TIMEOUT_SECONDS, self._current)
