"""The default agent describes only the tools a question calls for (and those the workspace already used);
any tool of the agent still runs when the model asks for it by name."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from agent import AIAgent
from app.application import Application
from engine.tool_selection import _DESIGNATION, ALWAYS, MAX_OFFERED, _profile, _stems, offered_tools
from fakes.ollama import FakeOllama, Reply
from history import ChatHistoryDB
from tools import ollama_tools, tool_specs

ALL = list(tool_specs)


def offered(body: dict[str, Any]) -> list[str]:
    return [tool["function"]["name"] for tool in body.get("tools") or []]


def test_questions_bring_their_tools() -> None:
    steel = offered_tools("Is a W18x50 OK for 35 ft with 0.45 kip/ft dead and 0.75 kip/ft live?", ALL)
    assert {"steel_beam_check", "section_properties"} <= set(steel) and "read_file" not in steel
    spec = offered_tools("What lap length does the spec require for #5 bars?", ALL)
    assert "search_documents" in spec
    assert {"memory_add"} <= set(offered_tools("Remember that I design to Eurocode 3", ALL))
    assert {"continuous_beam"} <= set(offered_tools("Support moment of a two-span continuous beam?", ALL))
    assert offered_tools("Hi", ALL) == ["evaluate_quantity"]
    assert "convert_units" in offered_tools("Convert 50 ksi to MPa", ALL)
    assert all(len(offered_tools(q, ALL)) <= MAX_OFFERED for q in ("beam moment shear span deflection load", "x"))


async def test_the_request_carries_the_selection_and_a_used_tool_stays(fake_ollama: FakeOllama, isolated: Path) -> None:
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system", select_tools=True)
    spaces = Application(ChatHistoryDB(isolated / "chat_history.sqlite"), agent)
    chat = spaces.workspaces.create("Level 2").chat_id
    fake_ollama.script(
        Reply.tool_calls(
            ("column_buckling", {"length": "4 m", "elastic_modulus": "200 GPa", "moment_of_inertia": "2770 cm**4"})
        ),
        Reply.text("Pcr = 359 kN."),
        Reply.tool_calls(("sqrt", {"x": 144})),  # not described this turn, but the agent's own: it runs
        Reply.text("12."),
    )
    async for _ in spaces.turns.ask("Buckling load of a 4 m pinned column, I = 2770 cm4?", chat):
        pass
    first = offered(fake_ollama.chat_requests[0])
    assert "column_buckling" in first and "read_file" not in first and len(first) <= MAX_OFFERED
    events = [e async for e in spaces.turns.ask("And what is the square root of 144?", chat)]
    second = offered(fake_ollama.chat_requests[2])
    assert "column_buckling" in second, "a tool the workspace used is always described"
    assert any(getattr(e, "call", None) and e.call.name == "sqrt" and not e.call.error for e in events)


async def test_a_bare_agent_describes_every_tool_unless_they_would_crowd_out_the_conversation(
    fake_ollama: FakeOllama,
) -> None:
    question = "Moment of a 6 m simply supported beam under 12 kN/m?"
    fake_ollama.script(Reply.text("54 kN·m."), Reply.text("54 kN·m."))
    roomy = AIAgent("qwen3:4b", fake_ollama.url, "system", num_ctx=32_768)
    async for _ in roomy.stream(roomy.request(question)):
        pass
    assert offered(fake_ollama.chat_requests[0]) == ALL
    tight = AIAgent("qwen3:4b", fake_ollama.url, "system", num_ctx=6144)  # every schema: over 5,000 tokens
    async for _ in tight.stream(tight.request(question)):
        pass
    described = offered(fake_ollama.chat_requests[1])
    assert "beam_analysis" in described and "read_file" not in described and len(described) <= MAX_OFFERED


def plainly_offered(question: str, allowed: list[str], used: set[str]) -> list[str]:
    """The selection as the module's docstring states it, tool by tool: 3 for each of the question's stems in the
    tool's name or its cues, 1 in its description; the best scorers (2 or more, ties in the agent's order) after
    the used, always-offered and MCP tools, up to MAX_OFFERED."""
    if len(allowed) <= MAX_OFFERED:
        return allowed
    words = _stems(question) | ({"sectio"} if _DESIGNATION.search(question) else set())
    chosen = {name for name in allowed if name in used or name in ALWAYS or "__" in name}
    scores = {}
    for name in (name for name in allowed if name not in chosen):
        named, cued, described = _profile(name)
        scores[name] = 3 * len(words & named) + 3 * len(words & cued) + len(words & described)
    for name in sorted(scores, key=lambda name: -scores[name]):
        if len(chosen) >= MAX_OFFERED or scores[name] < 2:
            break
        chosen.add(name)
    return [name for name in allowed if name in chosen]


def test_the_selection_is_its_stated_rule_for_any_question_and_set_of_tools() -> None:
    rng = random.Random(39)
    texts = [
        name.replace("_", " ") + " " + spec.description + " " + " ".join(spec.words)
        for name, spec in tool_specs.items()
    ]
    vocabulary = sorted({word for text in texts for word in text.lower().split()})
    for trial in range(3_000):
        question = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(0, 12))) + " W18x50" * (trial % 7 == 0)
        allowed = (
            ALL if trial % 3 else rng.sample(ALL, rng.randint(5, len(ALL))) + ["office__drawings"] * (trial % 5 == 0)
        )
        used = set(rng.sample(ALL, rng.randint(0, 3)))
        assert offered_tools(question, allowed, used) == plainly_offered(question, allowed, used), question


async def test_every_tool_reaches_ollama_as_the_registry_describes_it(fake_ollama: FakeOllama) -> None:
    """The tools go to the client as its own models, made once a tool: the body sent is the registry's schemas."""
    fake_ollama.script(Reply.text("Noted."))
    agent = AIAgent("qwen3:4b", fake_ollama.url, "system", num_ctx=32_768)  # room for every schema
    async for _ in agent.stream(agent.request("Which tools are there?")):
        pass
    assert fake_ollama.chat_requests[-1]["tools"] == ollama_tools(list(tool_specs))
