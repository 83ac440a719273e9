"""Which tools to describe to the model for one question: the fixed prompt of a small model's context is mostly
tool schemas, so the default agent sends only those the question calls for.

A tool is scored by the question's words against its name (weight 3), the engineers' words its module declares for
it (3, `tools.catalogue`) and its description (1). The tools the workspace has already used are always sent, and so
are those their module declares always offered; the rest are the best scorers, up to MAX_OFFERED. Selecting is
only about what is described: every tool of the agent may still run if the model asks for it by name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

from ollama import Tool

from tools import ollama_tools, tool_specs
from tools.registry import ExternalTools

MAX_OFFERED = 8
ALWAYS = frozenset(name for name, spec in tool_specs.items() if spec.always_offered)
_WORD = re.compile(r"[a-z0-9#]+")
_DESIGNATION = re.compile(r"\b(?:W|HSS|IPE|HE[ABM]?|UB|UC|HP|MC|C|L|S)\s?\d+(?:\s?[xX×]\s?[\d./]+)?", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_QUIET = frozenset(
    "a an and are as at be by can do does for from how i in is it me my of on or our please the this to us we what "
    "when where which with you your give show tell find get use using".split()
)


def _stems(text: str) -> set[str]:
    return {word[:6] for word in _WORD.findall(text.lower()) if word not in _QUIET}


@cache
def _profile(name: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    spec = tool_specs.get(name)
    description, words = (spec.description, spec.words) if spec is not None else ("", ())
    named = frozenset(_stems(name.replace("_", " ")))
    cued = frozenset(word[:6] for word in words)
    return named, cued, frozenset(_stems(description)) - named - cued


class _Selection(NamedTuple):
    """What choosing among one set of tools needs, made once per set (an agent's is the same every turn), so that a
    question's choice is a few lookups, not three set intersections a tool."""

    weights: dict[str, dict[str, int]]  # each stem's weight for each tool it scores for
    order: dict[str, int]  # each tool's place in the set
    fixed: frozenset[str]  # the set's tools described whatever the question: always offered, or an MCP server's


@lru_cache(maxsize=32)
def _selection(allowed: tuple[str, ...]) -> _Selection:
    """The weights of a stem: 3 for a tool whose name or cues it is a stem of, 1 for one whose description."""
    weights: dict[str, dict[str, int]] = {}
    for name in allowed:
        named, cued, described = _profile(name)
        for stems, weight in ((named, 3), (cued, 3), (described, 1)):
            for stem in stems:
                tools = weights.setdefault(stem, {})
                tools[name] = tools.get(name, 0) + weight
    order = {name: place for place, name in enumerate(allowed)}
    fixed = frozenset(name for name in allowed if name in ALWAYS or "__" in name)  # MCP: the office's own
    return _Selection(weights, order, fixed)


def _names_a_section(question: str) -> bool:
    """Whether `question` names a steel section ("W18x50", "IPE 300"). A designation has a number, and most
    questions have none: a digit is looked for first, in a tenth of the designation's time."""
    return _DIGIT.search(question) is not None and _DESIGNATION.search(question) is not None


def offered_tools(question: str, allowed: Sequence[str], used: Collection[str] = ()) -> list[str]:
    """The tools to describe for `question`, in the agent's own order."""
    if len(allowed) <= MAX_OFFERED:
        return list(allowed)
    weights, order, fixed = _selection(allowed if isinstance(allowed, tuple) else tuple(allowed))
    words = _stems(question)
    if _names_a_section(question):
        words.add("sectio")
    chosen = set(fixed)
    chosen.update(name for name in used if name in order)
    scores: dict[str, int] = {}
    for word in words:
        for name, weight in weights.get(word, {}).items():
            if name not in chosen:
                scores[name] = scores.get(name, 0) + weight
    for name in sorted(scores, key=lambda name: (-scores[name], order[name])):  # ties: the agent's order
        if len(chosen) >= MAX_OFFERED or scores[name] < 2:
            break
        chosen.add(name)
    return sorted(chosen, key=order.__getitem__)


def schemas(offered: Sequence[str], external: ExternalTools | None) -> list[Tool | dict[str, Any]]:
    """The described tools' schemas: the registry's, as the client's `Tool` models, made once a tool (given a dict,
    the client validates it into one at every request: 80 µs a request for six tools), and an MCP server's own for
    `SERVER__tool`. Treat them as read-only."""
    built_in: list[Tool | dict[str, Any]] = list(_built_in(tuple(offered))[0])
    extra = [external.schema(n) for n in offered if n not in tool_specs] if external is not None else []
    return built_in + extra


def schemas_chars(offered: Sequence[str], external: ExternalTools | None) -> int:
    """The schemas' size in characters: the registry's measured once per set of names (cached)."""
    built_in = _built_in(tuple(offered))[1]
    if external is None or all(name in tool_specs for name in offered):
        return built_in
    return built_in + len(json.dumps([external.schema(n) for n in offered if n not in tool_specs]))


@lru_cache(maxsize=64)
def _built_in(offered: tuple[str, ...]) -> tuple[tuple[Tool, ...], int]:
    """The registry's schemas among `offered` and their JSON size, made once per set of names (an agent that
    describes every tool asks for the same set every turn)."""
    names = [name for name in offered if name in tool_specs]
    return tuple(_registry_tool(name) for name in names), len(json.dumps(ollama_tools(names), ensure_ascii=False))


@cache
def _registry_tool(name: str) -> Tool:
    return Tool.model_validate(ollama_tools([name])[0])


@dataclass(frozen=True)
class ToolOffer:
    """A turn's tools, decided once: those that may run, those described to the model, their schemas and size."""

    allowed: tuple[str, ...] = ()
    described: tuple[str, ...] = ()
    schemas: tuple[Tool | dict[str, Any], ...] = ()
    chars: int = 0  # the schemas' JSON size, for the context budget
    used: frozenset[str] = frozenset()  # the workspace's tools so far, always described
    selected: bool = False  # described: the question's tools, not all that may run


def offer_tools(
    question: str,
    allowed: Sequence[str],
    *,
    used: Collection[str] = (),
    select: bool = True,
    external: ExternalTools | None = None,
) -> ToolOffer:
    """The turn's tools: every allowed one may run; with `select`, only those `question` calls for are described."""
    described = offered_tools(question, allowed, used) if select else list(allowed)
    return ToolOffer(
        allowed=tuple(allowed),
        described=tuple(described),
        schemas=tuple(schemas(described, external)),
        chars=schemas_chars(described, external),
        used=frozenset(used),
        selected=select,
    )
