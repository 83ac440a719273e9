"""The chat history: every workspace, turn, tool call, summary and file edit, in one SQLite file.

This package owns all SQL in the product, and nothing else opens the database
file. `ChatHistoryDB` keeps the first version's methods (`create_chat`,
`list_chats`, `rename_chat`, `delete_chat`, `load_history`, `add_to_history`,
`clear_history`, `set_context_summary`, `get_context_summary`) with their
meaning, and adds what the application needs.
"""

from __future__ import annotations

from store.base import BUSY_TIMEOUT_SECONDS, HistoryError, is_store_file, store_files
from store.chats import ChatStore
from store.documents import DocumentStore
from store.file_edits import FileEditStore
from store.memories import MemoryStore
from store.packages import PackageStore
from store.search import SearchStore
from store.summaries import SummaryStore

__all__ = ["BUSY_TIMEOUT_SECONDS", "ChatHistoryDB", "HistoryError", "is_store_file", "store_files"]


class ChatHistoryDB(ChatStore, SummaryStore, SearchStore, FileEditStore, DocumentStore, MemoryStore, PackageStore):
    """Workspaces ("chats"), their turns, digital-twin summaries, file edits, the document index and calculation
    packages, in SQLite."""
