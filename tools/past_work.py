"""`search_past_work`: the questions, answers and calculation results of the user's other workspaces."""

from __future__ import annotations

from typing import Any

from tools.catalogue import tool
from tools.registry import ToolContext


@tool(
    "history",
    words=("last", "time", "did", "previous", "previously", "earlier", "before", "job", "jobs", "workspaces"),
)
def search_past_work(context: ToolContext, query: str, top_k: int = 5) -> dict[str, Any]:
    """Search the user's earlier work in their other workspaces (other jobs) for past questions, answers and
    calculation results, by words and by meaning. Use it whenever asked what was used "last time", "on the
    Riverside job" or "before", or to search past work; cite each result's workspace by name.

    Args:
        query: What to look for, in plain words, such as "transfer beam Riverside".
        top_k: How many results to return (1 to 10).
    """
    if context.past_work is None:
        raise ValueError("the search of past work is not available here")
    if not query.strip():
        raise ValueError("query is empty; say what to look for")
    return context.past_work.search(query.strip(), top_k)
