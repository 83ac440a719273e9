"""A conversation a program keeps itself (the OpenAI-compatible API): it sends the earlier turns with each
question, and names the model; the turn is run and stored in a workspace as any other."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.agent import TurnRequest


@dataclass(frozen=True)
class Conversation:
    """The model to ask, the earlier (question, answer) pairs the model sees instead of the workspace's recent
    turns, and the program's own instructions, added after the system prompt and the agent's."""

    model: str
    history: tuple[tuple[str, str], ...] = ()
    instructions: str = ""

    def applied(self, request: TurnRequest) -> TurnRequest:
        """The turn as this conversation asks it; the workspace's summary, the memory and the tools stay."""
        prompt = request.system_prompt
        if self.instructions.strip():
            prompt = f"{prompt}\n\n{self.instructions.strip()}"
        return replace(request, model=self.model, history=self.history, system_prompt=prompt)
