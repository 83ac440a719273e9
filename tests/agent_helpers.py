"""Helpers for driving AIAgent in tests: make one against the fake, run a turn, pick events, wait for what it does."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from agent import AIAgent
from domain.events import ToolCallFinished, TurnCompleted
from domain.records import ToolCall
from fakes.ollama import FakeOllama


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Until `condition` holds, looked at every 10 ms on the running loop; AssertionError after `seconds` (a wait
    that never ends fails the test instead of hanging it)."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    if not condition():
        raise AssertionError(f"not within {seconds:g} s")


def make_agent(fake: FakeOllama, model: str = "qwen3:4b", **options: Any) -> AIAgent:
    return AIAgent(model, fake.url, "You are an engineering assistant.", **options)


async def run(agent: AIAgent, text: str) -> list[Any]:
    return [event async for event in agent.stream(agent.request(text))]


async def chat(agent: AIAgent, text: str) -> list[str]:
    """The first version's way: the answer's chunks, the turn remembered by the agent."""
    return [chunk async for chunk in agent.chat(text)]


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def calls(events: list[Any]) -> list[ToolCall]:
    """The tool calls the turn ran, with their results, in order."""
    return [event.call for event in of_type(events, ToolCallFinished)]


def completed(events: list[Any]) -> TurnCompleted:
    assert isinstance(events[-1], TurnCompleted), "every turn must end with TurnCompleted"
    assert len(of_type(events, TurnCompleted)) == 1
    return events[-1]


def tool_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in request["messages"] if m["role"] == "tool"]
