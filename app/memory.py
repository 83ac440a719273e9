"""What the user asked the assistant to remember, in every workspace: the memory tools' back end and the
memories that go into each turn's prompt."""

from __future__ import annotations

from typing import Any

from app.accounts.policy import ForbiddenError
from app.ports import MemoryRecords
from domain.records import Memory

ALL_IN_PROMPT = 20  # up to this many, every memory goes into the prompt; beyond, the relevant and the newest
RELEVANT_IN_PROMPT = 10
NEWEST_IN_PROMPT = 5


MEMORY_OFF = (
    "With accounts on, the memory is off (it would be shared by everyone); write what to remember in the question."
)


class MemoryBook:
    """The memory tools' `MemoryKeeper`, and the faces' list to read, edit and delete. The memory belongs to one
    person, so with accounts it is off: nothing recalled, nothing kept."""

    def __init__(self, store: MemoryRecords, off: bool = False) -> None:
        self._store = store
        self.off = off

    def _refuse_when_off(self) -> None:
        if self.off:
            raise ForbiddenError(MEMORY_OFF)

    def add(self, text: str) -> dict[str, Any]:
        self._refuse_when_off()
        memory_id = self._store.add_memory(text)
        return {"memory_id": memory_id, "text": text, "note": "Remembered for every workspace."}

    def search(self, query: str) -> dict[str, Any]:
        found = [] if self.off else self._store.search_memories(query, 10) or self._store.memories(10)
        return {"memories": [{"memory_id": m.memory_id, "text": m.text} for m in found]}

    def remove(self, memory_id: int) -> dict[str, Any]:
        self._refuse_when_off()
        if not self._store.remove_memory(memory_id):
            raise ValueError(f"there is no memory {memory_id}; memory_search lists them with their ids")
        return {"removed": memory_id}

    def all(self) -> list[Memory]:
        return [] if self.off else self._store.memories()

    def edit(self, memory_id: int, text: str) -> None:
        cleaned = " ".join(text.split())
        if not cleaned:
            raise ValueError("A memory cannot be empty; delete it instead.")
        self._refuse_when_off()
        if not self._store.update_memory(memory_id, cleaned):
            raise LookupError(f"There is no memory {memory_id}.")

    def delete(self, memory_id: int) -> None:
        self._refuse_when_off()
        if not self._store.remove_memory(memory_id):
            raise LookupError(f"There is no memory {memory_id}.")

    def for_prompt(self, question: str) -> list[str]:
        """Every memory when there are few; otherwise those that share words with the question, and the newest."""
        if self.off:
            return []
        everything = self._store.memories(ALL_IN_PROMPT + 1)
        if len(everything) <= ALL_IN_PROMPT:
            return [m.text for m in reversed(everything)]
        chosen = {m.memory_id: m for m in self._store.search_memories(question, RELEVANT_IN_PROMPT)}
        chosen.update({m.memory_id: m for m in everything[:NEWEST_IN_PROMPT]})
        return [chosen[i].text for i in sorted(chosen)]
