"""What the model knows besides the conversation, at the prompt: `/docs` and `/reindex` (the workspace folder's
documents) and `/memory` (what is remembered for every workspace)."""

from __future__ import annotations

from collections.abc import Callable

from app import DOCUMENT_TYPES_NAMED, Application
from app.presentation.formatting import shown_name
from faces.cli.terminal import printable


class KnowledgeCommands:
    """The documents' and the memory's commands, for `service`; `say` writes a line for the user."""

    def __init__(self, service: Application, say: Callable[[str], None]) -> None:
        self.service, self.say = service, say

    def commands(self) -> dict[str, Callable[[str], None]]:
        return {"/docs": self.docs, "/reindex": self.reindex, "/memory": self.memory}

    def docs(self, _: str) -> None:
        library = self.service.documents
        files, progress = library.files(), library.progress
        if progress.reading:
            self.say(f"Indexing: {progress.done} of {progress.total} files read so far.")
        elif progress.running and progress.current:
            self.say(f"Indexing: {shown_name(progress.current)}.")
        if not files:
            self.say(f"No documents indexed in {library.root}; put {DOCUMENT_TYPES_NAMED} files there.")
        for file in files:
            mark, what = ("✓", f"{file.passages} passages") if file.status == "indexed" else ("✗", "skipped")
            note = f" · {file.note}" if file.note else ""
            self.say(f"  {mark} {shown_name(file.path)} · {what}{note}")
        if library.embedding_problem:
            self.say(f"Search is by words only: {library.embedding_problem}.")
        if following := library.following():
            self.say(f"The folder is followed: {following}.")

    def memory(self, argument: str) -> None:
        action, _, rest = argument.partition(" ")
        book = self.service.memory
        if action == "add":
            self.say(f"Remembered (#{book.add(rest.strip())['memory_id']}) for every workspace.")
        elif action == "remove":
            if not rest.strip().isdigit():
                raise ValueError("Give the memory's number: /memory remove ID")
            book.delete(int(rest))
            self.say(f"Forgot memory #{rest.strip()}.")
        elif action:
            raise ValueError("Use /memory, /memory add TEXT or /memory remove ID.")
        else:
            memories = book.all()
            if not memories:
                self.say("Nothing remembered yet: /memory add TEXT, or tell the assistant what to remember.")
            for item in memories:
                self.say(printable(f"  #{item.memory_id}  {item.text}"))

    def reindex(self, _: str) -> None:
        self.service.documents.refresh()
        self.say("Reading new and changed documents in the background; /docs shows how far it got.")
