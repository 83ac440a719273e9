"""AIAgent: one local Ollama model with tools, the orchestrator of every turn (the `engine` package).

Other programs use it from here, as the product's first version did:

    from agent import AIAgent
    agent = AIAgent("qwen3:4b", "http://localhost:11434", "You are an engineering assistant.")
    async for chunk in agent.chat("What is the square root of 144?"):
        print(chunk, end="")
"""

from domain.events import AgentError, AgentEvent
from engine.agent import AIAgent

__all__ = ["AIAgent", "AgentError", "AgentEvent"]
