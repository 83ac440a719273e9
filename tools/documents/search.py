"""`search_documents`: the passages of the workspace's documents that answer a question, with where they are."""

from __future__ import annotations

from typing import Any

from tools.catalogue import tool
from tools.registry import ToolContext

MAX_TOP_K = 10
OUTPUT_BUDGET = 7_000  # characters of passage text in one answer, so the JSON is never cut


@tool("documents", words=("spec", "specification", "drawing", "drawings", "memo", "report", "document", "project"))
def search_documents(context: ToolContext, query: str, top_k: int = 5) -> dict[str, Any]:
    """Search the project's own documents (specs, memos, reports, load schedules) for passages, with file and page.
    Use it for questions about "the spec", "the drawings", "the memo" or "our project"; cite file and page.

    Args:
        query: What to look for, in plain words, such as "lap splice length for #5 bars".
        top_k: How many passages to return (1 to 10).
    """
    if context.documents is None:
        raise ValueError("the document index is not available here")
    if not query.strip():
        raise ValueError("query is empty; say what to look for")
    found = context.documents.search(query, max(1, min(top_k, MAX_TOP_K)))
    passages = found.get("passages", [])
    if passages:
        room = max(300, OUTPUT_BUDGET // len(passages))
        for passage in passages:
            if len(passage["text"]) > room:
                passage["text"] = passage["text"][:room].rstrip() + " …"
    return found
