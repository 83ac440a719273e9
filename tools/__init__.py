"""The tools the model may call, one module per domain, and the one way to run them.

`tool_registry` keeps the first version's contract: name -> {"function",
"input_schema", "description"}. Schemas and validators are derived from each
function's signature and docstring (see `tools.registry`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cache
from typing import Any

from tools import (
    beams,
    connections,
    continuous_beam,
    conversions,
    documents,
    files,
    loads,
    maths,
    memory,
    quantities,
    steel,
    symbolic,
)
from tools.registry import ToolContext, ToolOutcome, ToolSpec, build_spec, cap_output, invoke, parse_arguments

__all__ = ["ToolContext", "ToolOutcome", "is_file_edit", "run_tool", "tool_registry", "tool_specs", "ollama_tools"]

_DOMAINS: list[Sequence[Callable[..., Any]]] = [
    domain.TOOLS
    for domain in (
        maths,
        conversions,
        symbolic,
        beams,
        steel,
        connections,
        continuous_beam,
        quantities,
        loads,
        files,
        documents,
        memory,
    )  # fmt: skip
]

tool_specs: dict[str, ToolSpec] = {spec.name: spec for spec in (build_spec(f) for d in _DOMAINS for f in d)}

tool_registry: dict[str, dict[str, Any]] = {
    name: {"function": spec.function, "input_schema": spec.input_schema, "description": spec.description}
    for name, spec in tool_specs.items()
}


def is_file_edit(name: str) -> bool:
    """Whether `name` is the tool that proposes file edits (not offered when FILE_EDITS=off)."""
    return name == "edit_file"


def ollama_tools(names: list[str] | None = None) -> list[dict[str, Any]]:
    """The tools in the shape Ollama's `/api/chat` expects (defaults are in the descriptions:
    Ollama's tool schema has no `default`). Built once per set of names; treat it as read-only."""
    return _ollama_tools(tuple(tool_specs if names is None else names))


@cache
def _ollama_tools(names: tuple[str, ...]) -> list[dict[str, Any]]:
    chosen = {name: tool_specs[name] for name in names}
    return [
        {
            "type": "function",
            "function": {"name": name, "description": spec.description, "parameters": _without_defaults(spec)},
        }
        for name, spec in chosen.items()
    ]


def _without_defaults(spec: ToolSpec) -> dict[str, Any]:
    schema = spec.input_schema
    properties = {key: {k: v for k, v in prop.items() if k != "default"} for key, prop in schema["properties"].items()}
    return {**schema, "properties": properties}


def run_tool(
    name: str,
    arguments: Mapping[str, Any] | str | None,
    context: ToolContext,
    enabled: Collection[str] | None = None,
) -> ToolOutcome:
    """Run a tool by name with the model's arguments; unknown names and bad arguments become text."""
    spec = tool_specs.get(name)
    if spec is None and context.external is not None and "__" in name and (enabled is None or name in enabled):
        return _run_external(name, arguments, context)
    if spec is None or (enabled is not None and name not in enabled):
        known = ", ".join(sorted(tool_specs if enabled is None else enabled))
        message = f"Error: there is no tool named {name!r}. Available tools: {known}."
        return ToolOutcome(message, error=message)
    return _with_hooks(name, arguments, context, lambda: invoke(spec, arguments, context))


def _with_hooks(
    name: str, arguments: Mapping[str, Any] | str | None, context: ToolContext, run: Callable[[], ToolOutcome]
) -> ToolOutcome:
    if context.hooks is None:
        return run()
    given = dict(arguments) if isinstance(arguments, Mapping) else {"raw": arguments}
    refusal = context.hooks.before(name, given)
    if refusal is not None:
        message = f"Error: blocked by a hook: {refusal}"
        return ToolOutcome(message, error=message)
    outcome = run()
    context.hooks.after(name, given, outcome.output, outcome.error)
    return outcome


def _run_external(name: str, arguments: Mapping[str, Any] | str | None, context: ToolContext) -> ToolOutcome:
    """A tool of an MCP server: its arguments as given (its server checks them), its text as the result."""
    assert context.external is not None

    def run() -> ToolOutcome:
        assert context.external is not None
        try:
            given = parse_arguments(arguments)
            return ToolOutcome(cap_output(context.external.call(name, given)))
        except (ValueError, OSError, LookupError) as error:
            message = f"Error: {name} failed: {error}"
            return ToolOutcome(message, error=message)

    return _with_hooks(name, arguments, context, run)
