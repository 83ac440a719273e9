"""Who may see which workspace, as SQL: the access policy's rule of reading (`domain.accounts.effective_grant`),
written once for every query that lists, searches or finds workspaces, and for the one statement that tells the
application what a user may do in a workspace.

A user sees the workspaces they own and those shared with them or with everyone; an admin sees all of them; a
user removed sees none. Lists filter with it in the query (before they order, limit or rank), so one user's many
workspaces cost another user nothing, and nothing they may not see is ever read.
"""

from __future__ import annotations

from typing import Any

# The ids of the workspaces user :viewer may see. The admin's branch is a condition on no row of `chats`, which
# both backends evaluate once: for everyone else it reads nothing, and the other branches use their indexes. A user
# removed owns nothing and has no shares left, and the office's shares to everyone are not theirs either.
VISIBLE_CHAT_IDS = """SELECT chat_id FROM workspace_owners WHERE user_id = :viewer
    UNION SELECT chat_id FROM shares WHERE user_id = :viewer
    UNION SELECT chat_id FROM shares WHERE user_id = :everyone AND EXISTS (SELECT 1 FROM users WHERE id = :viewer)
    UNION SELECT chat_id FROM chats WHERE (SELECT role FROM users WHERE id = :viewer) = 'admin'"""

# One workspace as one user may use it, in one statement: the workspace (if it exists), the user's role now,
# whether they own it and the most it is shared with them.
ACCESS_TO = """SELECT {columns},
        (SELECT role FROM users WHERE id = :viewer) AS viewer_role,
        (SELECT 1 FROM workspace_owners WHERE chat_id = :chat AND user_id = :viewer) AS owned,
        (SELECT MIN(role) FROM shares WHERE chat_id = :chat AND user_id IN (:viewer, :everyone)) AS shared
    FROM (SELECT 1 AS here) AS one LEFT JOIN chats ON chats.chat_id = :chat"""  # "editor" < "viewer": MIN, the most


def visible_to(viewer: int | None, column: str = "chats.chat_id") -> tuple[str, dict[str, Any]]:
    """A condition keeping the workspaces `viewer` may see (every one for None: no account is checked), and its
    parameters, to put in a query's WHERE."""
    if viewer is None:
        return "1 = 1", {}
    from domain.accounts import EVERYONE  # the records' module, loaded only where accounts are checked

    return f"{column} IN ({VISIBLE_CHAT_IDS})", {"viewer": viewer, "everyone": EVERYONE}


# The workspaces that are user :viewer's own or shared with them (or with everyone): what they see without an
# admin's reach over every workspace, where a program's named workspace is looked for.
THEIRS = """SELECT chat_id FROM workspace_owners WHERE user_id = :viewer
    UNION SELECT chat_id FROM shares WHERE user_id = :viewer
    UNION SELECT chat_id FROM shares WHERE user_id = :everyone AND EXISTS (SELECT 1 FROM users WHERE id = :viewer)"""


def theirs(viewer: int | None, column: str = "chats.chat_id") -> tuple[str, dict[str, Any]]:
    """A condition keeping the workspaces `viewer` owns or that are shared with them or with everyone (every one
    for None), and its parameters."""
    if viewer is None:
        return "1 = 1", {}
    from domain.accounts import EVERYONE  # the records' module, loaded only where accounts are checked

    return f"{column} IN ({THEIRS})", {"viewer": viewer, "everyone": EVERYONE}
