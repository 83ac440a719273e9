"""The store's workspaces ("chats"): create, list, find, rename, delete."""

from __future__ import annotations

from domain.accounts import EVERYONE, WorkspaceAccess, effective_grant
from domain.records import Workspace
from store.base import StoreBase
from store.sql import NO_LIMIT, timestamp
from store.visibility import ACCESS_TO, theirs, visible_to

_CHAT_COLUMNS = (
    "chat_id, chat_name, created_at, last_active_at, context_summary, context_updated_at, summary_turn_id, agent"
)
_QUALIFIED = ", ".join(f"chats.{column.strip()}" for column in _CHAT_COLUMNS.split(","))


class ChatStore(StoreBase):
    """Workspaces, most recently active first."""

    def create_chat(self, chat_name: str, owner: int | None = None) -> int:
        """A new workspace, owned by user `owner` (None: nobody, as without accounts), in one transaction."""
        with self._write() as db:
            now = timestamp()
            row = db.execute(
                f"""INSERT INTO chats (chat_name, created_at, last_active_at, activity_seq)
                   VALUES (:name, :now, :now, {self._dialect.next_activity()}) RETURNING chat_id""",  # noqa: S608
                {"name": chat_name, "now": now},
            ).fetchone()
            if owner is not None:
                db.execute("INSERT INTO workspace_owners (chat_id, user_id) VALUES (?, ?)", (int(row[0]), owner))
        return int(row[0])

    def list_chats(self, viewer: int | None = None) -> list[tuple[int, str, str]]:
        """(chat_id, chat_name, created_at) of the workspaces user `viewer` may see (None: all), the most recently
        active first."""
        seen, parameters = visible_to(viewer)
        with self._query() as db:
            rows = db.execute(
                f"""SELECT chat_id, chat_name, created_at FROM chats WHERE {seen}
                    ORDER BY activity_seq DESC, chat_id DESC""",  # noqa: S608 - the policy's fixed condition
                parameters,
            ).fetchall()
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def count_chats(self, viewer: int | None = None) -> int:
        """How many workspaces user `viewer` may see (None: all)."""
        seen, parameters = visible_to(viewer)
        with self._query() as db:
            row = db.execute(f"SELECT COUNT(*) FROM chats WHERE {seen}", parameters).fetchone()  # noqa: S608
        return int(row[0])

    def recent_chats(self, limit: int | None = None, viewer: int | None = None) -> list[Workspace]:
        """Whole records of the workspaces user `viewer` may see (None: all), the most recently active first."""
        seen, parameters = visible_to(viewer)
        with self._query() as db:
            rows = db.execute(
                f"""SELECT {_CHAT_COLUMNS} FROM chats WHERE {seen}
                    ORDER BY activity_seq DESC, chat_id DESC LIMIT :limit""",  # noqa: S608 - fixed columns, condition
                {**parameters, "limit": NO_LIMIT if limit is None else limit},
            ).fetchall()
        return [Workspace.model_validate(dict(row)) for row in rows]

    def workspace_access(self, chat_id: int, viewer: int) -> WorkspaceAccess:
        """Workspace `chat_id` (None if there is none) as user `viewer` may use it: their role now and their grant,
        in one statement."""
        with self._query() as db:
            statement = ACCESS_TO.format(columns=_QUALIFIED)
            row = dict(db.execute(statement, {"chat": chat_id, "viewer": viewer, "everyone": EVERYONE}).fetchone())
        role, shared = row.pop("viewer_role"), row.pop("shared")
        owned = row.pop("owned") is not None
        workspace = Workspace.model_validate(row) if row["chat_id"] is not None else None
        grant = effective_grant(role, owned, shared) if workspace is not None else None
        return WorkspaceAccess(workspace=workspace, role=role, grant=grant)

    def get_chat(self, chat_id: int) -> Workspace | None:
        with self._query() as db:
            row = db.execute(
                f"SELECT {_CHAT_COLUMNS} FROM chats WHERE chat_id = ?",  # noqa: S608 - fixed column list
                (chat_id,),
            ).fetchone()
        return Workspace.model_validate(dict(row)) if row is not None else None

    def find_chat(self, name_or_id: str, viewer: int | None = None) -> Workspace | None:
        """A workspace user `viewer` may see (None: any) by its id, or else by its exact name (ignoring case)."""
        found = self.find_chats(name_or_id, viewer)
        return found[0] if found else None

    def find_chats(self, name_or_id: str, viewer: int | None = None, by: str | None = None) -> list[Workspace]:
        """The workspaces user `viewer` may see (None: any) whose id (`by="id"`), exact name ignoring case
        (`by="name"`) or either (None) is `name_or_id`: the id's first, then the names' most recently active first;
        at most 10."""
        text = name_or_id.strip()
        number = int(text) if text.isdigit() and len(text) < 19 and by != "name" else -1
        name = text if by != "id" else None
        seen, parameters = visible_to(viewer)
        with self._query() as db:
            rows = db.execute(
                f"""SELECT {_CHAT_COLUMNS} FROM chats
                    WHERE (chat_id = :id OR lower(chat_name) = lower(:name)) AND {seen}
                    ORDER BY chat_id = :id DESC, activity_seq DESC LIMIT 10""",  # noqa: S608 - fixed condition
                {**parameters, "id": number, "name": name},
            ).fetchall()
        return [Workspace.model_validate(dict(row)) for row in rows]

    def chats_named(self, name: str, viewer: int | None = None, limit: int = 20) -> list[Workspace]:
        """The workspaces user `viewer` owns or that are shared with them (None: all) named exactly `name` (case and
        spaces too): those they own first, then the most recently active."""
        seen, parameters = theirs(viewer)
        with self._query() as db:
            rows = db.execute(
                f"""SELECT {_CHAT_COLUMNS} FROM chats WHERE chat_name = :name AND {seen}
                    ORDER BY EXISTS (SELECT 1 FROM workspace_owners AS mine
                                     WHERE mine.chat_id = chats.chat_id AND mine.user_id = :mine) DESC,
                             activity_seq DESC LIMIT :limit""",  # noqa: S608 - fixed columns and condition
                {**parameters, "name": name, "mine": -1 if viewer is None else viewer, "limit": limit},
            ).fetchall()
        return [Workspace.model_validate(dict(row)) for row in rows]

    def set_chat_agent(self, chat_id: int, agent: str | None) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET agent = ? WHERE chat_id = ?", (agent, chat_id))

    def rename_chat(self, chat_id: int, new_name: str) -> None:
        with self._write() as db:
            db.execute("UPDATE chats SET chat_name = ? WHERE chat_id = ?", (new_name, chat_id))

    def delete_chat(self, chat_id: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM chats WHERE chat_id = ?", (chat_id,))

    def find_empty_chat(self, chat_name: str, owner: int | None = None) -> Workspace | None:
        """The most recent workspace called `chat_name` with no turns, no summary, no file edits and no project
        (owned by user `owner`; None: whoever owns it)."""
        owned = "" if owner is None else "AND chat_id IN (SELECT chat_id FROM workspace_owners WHERE user_id = :owner)"
        with self._query() as db:
            row = db.execute(
                f"""SELECT {_CHAT_COLUMNS} FROM chats
                   WHERE chat_name = :name AND context_summary IS NULL {owned}
                     AND NOT EXISTS (SELECT 1 FROM history WHERE history.chat_id = chats.chat_id)
                     AND NOT EXISTS (SELECT 1 FROM file_edits WHERE file_edits.chat_id = chats.chat_id)
                     AND NOT EXISTS (SELECT 1 FROM project_details WHERE project_details.chat_id = chats.chat_id)
                   ORDER BY activity_seq DESC LIMIT 1""",  # noqa: S608 - fixed columns and condition
                {"name": chat_name, "owner": owner},
            ).fetchone()
        return Workspace.model_validate(dict(row)) if row is not None else None
