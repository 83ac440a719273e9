"""The store's workspaces ("chats"): create, list, find, rename, delete."""

from __future__ import annotations

from domain.records import Workspace
from store.base import StoreBase
from store.sql import NO_LIMIT, timestamp

_CHAT_COLUMNS = (
    "chat_id, chat_name, created_at, last_active_at, context_summary, context_updated_at, summary_turn_id, agent"
)


class ChatStore(StoreBase):
    """Workspaces, most recently active first."""

    def create_chat(self, chat_name: str) -> int:
        with self._write() as db:
            now = timestamp()
            row = db.execute(
                f"""INSERT INTO chats (chat_name, created_at, last_active_at, activity_seq)
                   VALUES (:name, :now, :now, {self._dialect.next_activity()}) RETURNING chat_id""",  # noqa: S608
                {"name": chat_name, "now": now},
            ).fetchone()
        return int(row[0])

    def list_chats(self) -> list[tuple[int, str, str]]:
        """(chat_id, chat_name, created_at), the most recently active first."""
        with self._query() as db:
            rows = db.execute(
                "SELECT chat_id, chat_name, created_at FROM chats ORDER BY activity_seq DESC, chat_id DESC"
            ).fetchall()
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def recent_chats(self, limit: int | None = None) -> list[Workspace]:
        """Whole workspace records, the most recently active first."""
        with self._query() as db:
            rows = db.execute(
                f"SELECT {_CHAT_COLUMNS} FROM chats ORDER BY activity_seq DESC, chat_id DESC LIMIT ?",  # noqa: S608
                (NO_LIMIT if limit is None else limit,),
            ).fetchall()
        return [Workspace.model_validate(dict(row)) for row in rows]

    def get_chat(self, chat_id: int) -> Workspace | None:
        with self._query() as db:
            row = db.execute(
                f"SELECT {_CHAT_COLUMNS} FROM chats WHERE chat_id = ?",  # noqa: S608 - fixed column list
                (chat_id,),
            ).fetchone()
        return Workspace.model_validate(dict(row)) if row is not None else None

    def find_chat(self, name_or_id: str) -> Workspace | None:
        """A workspace by its id, or else by its exact name (ignoring case)."""
        text = name_or_id.strip()
        if text.isdigit() and (chat := self.get_chat(int(text))) is not None:
            return chat
        with self._query() as db:
            row = db.execute(
                "SELECT chat_id FROM chats WHERE lower(chat_name) = lower(?) ORDER BY activity_seq DESC LIMIT 1",
                (text,),
            ).fetchone()
        return self.get_chat(int(row[0])) if row else None

    def set_chat_agent(self, chat_id: int, agent: str | None) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET agent = ? WHERE chat_id = ?", (agent, chat_id))

    def rename_chat(self, chat_id: int, new_name: str) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET chat_name = ? WHERE chat_id = ?", (new_name, chat_id))

    def delete_chat(self, chat_id: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM chats WHERE chat_id = ?", (chat_id,))

    def find_empty_chat(self, chat_name: str) -> Workspace | None:
        """The most recent workspace called `chat_name` with no turns, no summary, no file edits and no project."""
        with self._query() as db:
            row = db.execute(
                """SELECT chat_id FROM chats
                   WHERE chat_name = ? AND context_summary IS NULL
                     AND NOT EXISTS (SELECT 1 FROM history WHERE history.chat_id = chats.chat_id)
                     AND NOT EXISTS (SELECT 1 FROM file_edits WHERE file_edits.chat_id = chats.chat_id)
                     AND NOT EXISTS (SELECT 1 FROM project_details WHERE project_details.chat_id = chats.chat_id)
                   ORDER BY activity_seq DESC LIMIT 1""",
                (chat_name,),
            ).fetchone()
        return self.get_chat(int(row[0])) if row else None
