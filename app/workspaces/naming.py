"""A workspace named by id or by name, never mistaken for another: when the text is one workspace's id and another's
name (workspace 15, and bob's workspace called "15"), or the name of several, nothing is chosen for the user."""

from __future__ import annotations

from typing import Literal

from app.presentation.formatting import shown_name
from domain.records import Workspace

By = Literal["id", "name"]


class AmbiguousWorkspaceError(LookupError):
    """`text` names more than one workspace the user may see; the face says how to name one."""

    def __init__(self, text: str, found: list[Workspace]) -> None:
        self.text = text
        self.found = found
        super().__init__(self.sentence("by its id", "by its name"))

    def sentence(self, by_id: str, by_name: str) -> str:
        listed = ", ".join(f"#{chat.chat_id} {shown_name(chat.chat_name)!r}" for chat in self.found[:5])
        more = f" and {len(self.found) - 5} more" if len(self.found) > 5 else ""
        return (
            f"{shown_name(self.text)!r} could be any of {len(self.found)} workspaces ({listed}{more}); "
            f"say which {by_id} or {by_name}."
        )


def the_one(text: str, found: list[Workspace], by: By | None) -> Workspace | None:
    """The one workspace `text` names among `found` (the store's matches, the id's first), None for none;
    AmbiguousWorkspaceError when it names several and `by` does not settle which."""
    if by == "id" or (by is None and len(found) == 1):
        return found[0] if found else None
    named = [chat for chat in found if chat.chat_name.casefold() == text.strip().casefold()]
    if by == "name" and len(named) <= 1:
        return named[0] if named else None
    if len(found) > 1:
        raise AmbiguousWorkspaceError(text.strip(), found)
    return None
