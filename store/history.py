"""The chat history as one object: every part of the store over the backend a target names (`ChatHistoryDB`),
and copying one into a new SQLite file."""

from __future__ import annotations

from pathlib import Path

from store.accounts import AccountStore
from store.audit import AuditStore
from store.chats import ChatStore
from store.copying import Progress, copy_history
from store.documents import DocumentStore
from store.file_edits import FileEditStore
from store.leases import LeaseStore
from store.memories import MemoryStore
from store.notifications import NotificationStore
from store.packages import PackageStore
from store.past_work import PastWorkStore
from store.postgres_connection import PostgresConnection
from store.postgres_url import is_postgres_url
from store.search import SearchStore
from store.sessions import SessionStore
from store.sign_in_failures import SignInFailureStore
from store.sqlite_connection import SqliteConnection, store_files
from store.summaries import SummaryStore
from store.webhooks import WebhookStore

__all__ = ["ChatHistoryDB", "PostgresHistoryDB", "SqliteHistoryDB", "copy_into_new_file"]


class ChatHistoryDB(
    ChatStore,
    SummaryStore,
    SearchStore,
    PastWorkStore,
    FileEditStore,
    DocumentStore,
    MemoryStore,
    PackageStore,
    LeaseStore,
    AccountStore,
    SessionStore,
    SignInFailureStore,
    AuditStore,
    WebhookStore,
    NotificationStore,
):
    """Workspaces ("chats"), their turns, digital-twin summaries, file edits, the document index and calculation
    packages. `ChatHistoryDB(target)` opens the backend `target` names."""

    def __new__(cls, target: str | Path = "chat_history.sqlite") -> ChatHistoryDB:
        if cls is ChatHistoryDB:
            chosen: type[ChatHistoryDB] = PostgresHistoryDB if is_postgres_url(str(target)) else SqliteHistoryDB
            return super().__new__(chosen)
        return super().__new__(cls)


class SqliteHistoryDB(SqliteConnection, ChatHistoryDB):
    """The chat history in one SQLite file: the embedded default."""


class PostgresHistoryDB(PostgresConnection, ChatHistoryDB):
    """The chat history in a PostgreSQL database shared by the office's processes (psycopg is imported only
    when one is opened)."""

    def backup(self, target: Path) -> None:
        """Copy every workspace, consistent at one moment, into a new SQLite file at `target` (for the whole
        database, `pg_dump` is the server's own backup)."""
        copy_into_new_file(self, target)


def copy_into_new_file(source: ChatHistoryDB, target: Path, progress: Progress | None = None) -> dict[str, int]:
    """Copy `source` into a new SQLite file at `target`; on failure the file is removed again."""
    if target.exists():
        raise FileExistsError(f"{target} already exists; choose a new file name for the copy")
    copy = SqliteHistoryDB(target)
    try:
        return copy_history(source, copy, progress)
    except BaseException:
        copy.close()
        for part in store_files(target):
            part.unlink(missing_ok=True)
        raise
    finally:
        copy.close()
