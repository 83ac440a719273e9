"""Outside tools: the MCP servers' tools, and which of them the user of this view allows without being asked."""

from __future__ import annotations

from app.outside_tools.hub import McpHub


class OutsideTools:
    """The tools of the servers in MCP_CONFIG (none without it), and this view's consent to run them."""

    def __init__(self, hub: McpHub | None) -> None:
        self._hub = hub

    @property
    def configured(self) -> bool:
        """Whether MCP_CONFIG names any server."""
        return self._hub is not None

    @property
    def problems(self) -> list[str]:
        """A sentence for each server that did not start or answer."""
        return self._hub.problems if self._hub is not None else []

    def names(self) -> list[str]:
        """`SERVER__tool` for each tool of each server that started (starting them on the first call)."""
        return self._hub.names() if self._hub is not None else []

    def needs_consent(self, name: str) -> bool:
        """Whether `name` asks the user before it runs (it is not in its server's autoApprove)."""
        return self._hub is not None and self._hub.needs_consent(name)

    def allowed(self, name: str) -> bool:
        """Whether the user allowed `name` to run without asking, in this run of the app."""
        return self._hub is not None and self._hub.allowed(name)

    def allow(self, name: str, allowed: bool = True) -> None:
        """Let `name` run without asking (or take that back), for this view, until the app stops."""
        if self._hub is not None:
            self._hub.allow(name, allowed)

    def close(self) -> None:
        """Stop the servers if they are this view's own (shared ones stop when idle, or with the process)."""
        if self._hub is not None:
            self._hub.close()
