"""The tools the model may call, one module per domain, the catalogue that lists each once, and the one way to
run them.

Each tool's module declares what it is (`tools.catalogue.tool`: its kind and the words engineers use for it);
`tools.listing.CATALOGUE` lists every tool once, in the order the model is shown them. Schemas and validators are
derived from each function's signature and docstring (see `tools.registry`), and kept between runs
(`tools.spec_cache`), so that importing this package imports no tool: a tool's module is imported when it first
runs. Code outside `tools` asks the catalogue about a tool by its kind (`tool_kind`, `is_calculation`,
`edits_files`), never by its name. `tool_registry` keeps the first version's contract: name -> {"function",
"input_schema", "description"}.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from tools.catalogue import ToolKind
from tools.registry import (
    ToolContext,
    ToolDefinitionError,
    ToolOutcome,
    ToolSpec,
    build_spec,
    cap_output,
    invoke,
    parse_arguments,
)
from tools.spec_cache import specs, specs_of

if TYPE_CHECKING:
    from tools.listing import CATALOGUE

__all__ = [
    "CATALOGUE",
    "ToolContext",
    "ToolDefinitionError",
    "ToolKind",
    "ToolOutcome",
    "build_spec",
    "edits_files",
    "is_calculation",
    "ollama_tools",
    "run_tool",
    "specs_of",
    "tool_kind",
    "tool_registry",
    "tool_specs",
]

tool_specs: dict[str, ToolSpec] = specs()


def __getattr__(name: str) -> Any:
    """`CATALOGUE` (every tool's function) and `tool_registry` (the first version's contract) import every tool,
    so they are made when first asked for."""
    if name == "CATALOGUE":
        from tools.listing import CATALOGUE

        return CATALOGUE
    if name == "tool_registry":
        return {
            name: {"function": spec.function, "input_schema": spec.input_schema, "description": spec.description}
            for name, spec in tool_specs.items()
        }
    raise AttributeError(f"module 'tools' has no attribute {name!r}")


def tool_kind(name: str) -> ToolKind | None:
    """What kind of tool `name` is; None for a tool that is not ours (an MCP server's, or one no longer here)."""
    spec = tool_specs.get(name)
    return None if spec is None else spec.kind


def is_calculation(name: str) -> bool:
    """Whether a call of `name` is a calculation the report and the package list: a calculation tool, or one
    that is not ours, whose result they list as it came (file, document and memory tools are left out)."""
    return tool_kind(name) in (None, "calculation")


def edits_files(name: str) -> bool:
    """Whether `name` is a tool that changes files in the workspace folder (what FILE_EDITS=off takes away)."""
    spec = tool_specs.get(name)
    return spec is not None and spec.kind == "file" and not spec.pure


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
    """Run a tool by name with the model's arguments; unknown names and bad arguments become text, and so does a
    call the user who asked may no longer make."""
    if context.authority is not None and (refusal := context.authority()) is not None:
        message = f"Error: {name} was not run: {refusal}"
        return ToolOutcome(message, error=message)
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
