"""The user's memory across workspaces: `memory_add`, `memory_search`, `memory_remove` (pinned names)."""

from __future__ import annotations

from typing import Any

from tools.catalogue import tool
from tools.registry import ToolContext

MAX_MEMORY_CHARS = 500


def _keeper(context: ToolContext) -> Any:
    if context.memory is None:
        raise ValueError("memory is not available here")
    return context.memory


@tool("memory", words=("remember", "always", "prefer", "name"), changes_state=True)
def memory_add(context: ToolContext, text: str) -> dict[str, Any]:
    """Remember something about the user for every workspace: their units, design codes, company standards,
    name. Use it only when the user says to remember it or states a lasting preference.

    Args:
        text: One short fact, in the user's words, such as "Works in SI units and designs to Eurocode 3".
    """
    cleaned = " ".join(text.split())
    if not cleaned:
        raise ValueError("text is empty; give the fact to remember")
    if len(cleaned) > MAX_MEMORY_CHARS:
        raise ValueError(f"a memory is at most {MAX_MEMORY_CHARS} characters; keep it to one fact")
    added: dict[str, Any] = _keeper(context).add(cleaned)
    return added


@tool("memory", words=("remember", "memory", "recall"))
def memory_search(context: ToolContext, query: str) -> dict[str, Any]:
    """Look up what is remembered about the user (with each memory's id).

    Args:
        query: What to look for, such as "design code" or "units".
    """
    found: dict[str, Any] = _keeper(context).search(query)
    return found


@tool("memory", words=("forget",), changes_state=True)
def memory_remove(context: ToolContext, memory_id: int) -> dict[str, Any]:
    """Forget one memory, by the id memory_search gave, when the user asks to.

    Args:
        memory_id: The memory's id.
    """
    removed: dict[str, Any] = _keeper(context).remove(memory_id)
    return removed
