"""The schema's changes after SQLite's 14 migrations and PostgreSQL's 2, each declared once and made the same on
both backends: SQLite's migration 15 is PostgreSQL's 3, and so on.

A change names the tables, columns and indexes of `store.tables` it brings (their definitions are there), and may
carry statements of its own for what the declaration does not say (a row to start from, data to move).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from store.ddl import Backend, add_column, create_index, create_table
from store.sql import Database
from store.tables import BY_NAME, Index


@dataclass(frozen=True)
class Change:
    why: str
    tables: tuple[str, ...] = ()  # new tables, made as declared with their indexes
    columns: tuple[tuple[str, str], ...] = ()  # (table, column): new columns of tables made earlier
    indexes: tuple[tuple[str, str], ...] = ()  # (table, index): new indexes of tables made earlier
    then: tuple[str, ...] = ()  # statements that both backends run after the declared ones
    first: tuple[str, ...] = ()  # statements that both backends run before them (rows a new unique index refuses)

    def statements(self, backend: Backend) -> list[str]:
        made = [statement for name in self.tables for statement in create_table(BY_NAME[name], backend)]
        made += [add_column(BY_NAME[table], BY_NAME[table].column(column), backend) for table, column in self.columns]
        made += [create_index(BY_NAME[table], _index(table, index)) for table, index in self.indexes]
        return [*self.first, *made, *self.then]


def _index(table: str, name: str) -> Index:
    return next(index for index in BY_NAME[table].indexes if index.name == name)


# Each backend runs these in order after its frozen history; append, never edit one that has shipped.
CHANGES: tuple[Change, ...] = (
    Change(
        "A file edit keeps who asked the question that proposed it: only they decide it (an editor no longer approves "
        "an edit another user's question proposed).",
        columns=(("file_edits", "proposed_by"),),
    ),
    Change(
        "A signed-in browser keeps a session that outlives a reload and a restarted web process, and that a "
        "sign-out, a password or role change or a removal ends (only the SHA-256 of its secret is kept).",
        tables=("sign_in_sessions",),
    ),
    Change(
        "Failed sign-ins are counted in the store, per user name and address and per address for names that are "
        "nobody's, so that every process slows the same guesser, and the audit trail records them a minute at a "
        "time instead of one record a request.",
        tables=("sign_in_failures",),
    ),
    Change(
        "A running turn keeps the Ollama server it runs on, so that every process of an office sees the others' "
        "turns on each server and sends its next one where fewest run.",
        columns=(("running_turns", "server"),),
    ),
    Change(
        'A user has a display name, which packages and the audit trail show ("Prepared by Ann Smith"), and the '
        "time of their last sign-in, which admins see.",
        columns=(("users", "display_name"), ("users", "last_sign_in_at")),
    ),
    Change(
        "Webhooks: each event for each receiver kept from before its first attempt, so that a delivery outlives its "
        "process and one answered 2xx is never sent again",
        tables=("webhook_deliveries",),
    ),
    Change(
        "The audit trail keeps the last record a check found intact, so that the admins' page checks only the "
        "records after it (and that record's hash again) instead of the whole chain at every look.",
        columns=(("audit_head", "checked_id"), ("audit_head", "checked_hash")),
    ),
    Change(
        "The pictures asked with a question (cleaned, with their SHA-256), and each turn's embedding for the search "
        "of past work across workspaces",
        tables=("turn_images", "turn_embeddings"),
    ),
    Change(
        "One turn at a time in a workspace, whichever process asks: a question asked while another is answered there "
        "waits for it, so that two turns never interleave in the workspace's history. A second turn a process of "
        "an earlier version left running in a workspace loses only its guard against that process's end.",
        indexes=(("running_turns", "running_turns_one_per_workspace"),),
        first=("DELETE FROM running_turns WHERE id NOT IN (SELECT MIN(id) FROM running_turns GROUP BY chat_id)",),
    ),
    Change(
        "Notifications for the people a change concerns (a package revision checked or approved, a workspace shared "
        "with them, a file edit waiting for their approval), kept until they dismiss them, so that none is lost "
        "with a closed tab.",
        tables=("notifications",),
    ),
)


def migrations(backend: Backend) -> list[Callable[[Database], None]]:
    """One migration per change, for `backend`'s list."""
    return [_migration(change, backend) for change in CHANGES]


def _migration(change: Change, backend: Backend) -> Callable[[Database], None]:
    def migrate(db: Database) -> None:
        for statement in change.statements(backend):
            db.execute(statement)

    migrate.__doc__ = change.why
    migrate.__name__ = f"change_{CHANGES.index(change) + 1}"
    return migrate
