"""The tool registry: schemas and validators derived from plain typed functions.

A tool is a function with type hints and a Google-style docstring that
documents every argument. `register` reads both, builds a pydantic model that
validates (and coerces) the model's arguments, and a JSON schema for Ollama.
A parameter annotated `ToolContext` is supplied by the caller, not the model.
"""

from __future__ import annotations

import inspect
import json
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any, Protocol, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from domain.calculations import CalcResult
from tools.catalogue import Declaration, ToolKind, declaration

MAX_OUTPUT_CHARS = 8_000

logger = logging.getLogger(__name__)


class FileEditHandler(Protocol):
    """Where the file edits the model asks for go: the approver, the only one that may let an edit be written."""

    def submit(self, context: ToolContext, name: str, before: bytes | None, after: bytes) -> str:
        """Handle the change of workspace file `name` from `before` (None: a new file) to `after`; say what happened."""
        ...


class DocumentSearcher(Protocol):
    """The document index the application keeps (`app.documents.library.DocumentLibrary`)."""

    def search(self, query: str, top_k: int) -> dict[str, Any]:
        """{"passages": [{"file", "page"?, "location", "text", "score"}, …]}, best first, and maybe a "note"."""
        ...


class PastWorkSearcher(Protocol):
    """The search of the user's other workspaces the application keeps (`app.workspaces.past_work.PastWorkSearch`)."""

    def search(self, query: str, top_k: int) -> dict[str, Any]:
        """{"results": [{"workspace", "date", "question", "excerpt", "calculations"}, …]} best first, or
        {"results": [], "message": …}."""
        ...


class MemoryKeeper(Protocol):
    """The user's memory the application keeps (`app.memory.MemoryBook`)."""

    def add(self, text: str) -> dict[str, Any]: ...

    def search(self, query: str) -> dict[str, Any]: ...

    def remove(self, memory_id: int) -> dict[str, Any]: ...


class ToolHooksRunner(Protocol):
    """The user's pre- and post-tool hooks (`app.outside_tools.hooks.ToolHooks`)."""

    def before(self, tool: str, arguments: dict[str, Any]) -> str | None: ...

    def after(self, tool: str, arguments: dict[str, Any], output: str, error: str | None) -> None: ...


class ExternalTools(Protocol):
    """Tools of other programs (`app.outside_tools.hub.McpHub`): named `SERVER__tool`, with their own schemas."""

    def names(self) -> list[str]: ...

    def schema(self, name: str) -> dict[str, Any]: ...

    def call(self, name: str, arguments: dict[str, Any]) -> str: ...


@dataclass(frozen=True)
class ToolContext:
    """What tools may need from the application; never chosen by the model.

    `edits` is the approver of file edits; without one, `edit_file` refuses:
    no tool writes a file on its own. `protected` names files, by their real paths, inside or outside
    the workspace that no tool may open (the chat history's own files).
    """

    workspace_root: Path = field(default_factory=lambda: Path("workspace"))
    edits: FileEditHandler | None = None
    protected: tuple[Path, ...] = ()
    documents: DocumentSearcher | None = None
    past_work: PastWorkSearcher | None = None  # seen from the turn's workspace, which it leaves out
    memory: MemoryKeeper | None = None
    hooks: ToolHooksRunner | None = None
    external: ExternalTools | None = None
    # Asked before each call: None to run it, or why the user who asked may no longer (a role lowered mid-turn).
    authority: Callable[[], str | None] | None = None


class ToolDefinitionError(TypeError):
    """A function cannot be registered as a tool (a programming error)."""


@dataclass(frozen=True)
class ToolSpec:
    """Everything the registry derived from one function, and what its module declared about it.

    `pure` tools give the same result for the same arguments within a turn, so a
    repeated call can reuse the first result; a tool that changes files is not pure.
    A spec read back from `tools.spec_cache` holds its description and schema only: its
    function and validator are loaded from `module` when it first runs.
    """

    name: str
    description: str
    input_schema: dict[str, Any]
    context_parameter: str | None
    pure: bool = True
    kind: ToolKind = "calculation"
    words: tuple[str, ...] = ()  # engineers' words for it that its name and description do not say
    always_offered: bool = False
    module: str = ""  # where the function is defined
    loaded: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)  # its function and validator

    @property
    def function(self) -> Callable[..., Any]:
        function: Callable[..., Any] = self._loaded()["function"]
        return function

    @property
    def arguments_model(self) -> type[BaseModel]:
        model: type[BaseModel] = self._loaded()["model"]
        return model

    def _loaded(self) -> dict[str, Any]:
        if not self.loaded:  # read from the cache: its module is imported, its validator built as ever
            built = build_spec(getattr(import_module(self.module), self.name), self.name)
            self.loaded.update(built.loaded)
        return self.loaded


_ARGS_HEADER = re.compile(r"^(Args|Arguments|Parameters):\s*$")
_ARG_LINE = re.compile(r"^\s*\*{0,2}(\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into its summary and per-argument text."""
    lines = inspect.cleandoc(doc).splitlines()
    header = next((i for i, line in enumerate(lines) if _ARGS_HEADER.match(line)), None)
    summary_lines = lines if header is None else lines[:header]
    summary = " ".join(" ".join(summary_lines).split())
    arguments: dict[str, str] = {}
    if header is None:
        return summary, arguments
    current: str | None = None
    arg_indent: int | None = None
    for line in lines[header + 1 :]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            break
        arg_indent = indent if arg_indent is None else arg_indent
        match = _ARG_LINE.match(line)
        if indent == arg_indent and match:
            current = match.group(1)
            arguments[current] = match.group(3).strip()
        elif current:
            arguments[current] = f"{arguments[current]} {line.strip()}".strip()
    return summary, arguments


def _ollama_property(schema: dict[str, Any]) -> dict[str, Any]:
    """Flatten one pydantic property schema into the subset Ollama's tool schema keeps."""
    options = [option for option in schema.get("anyOf", [schema]) if option.get("type") != "null"]
    merged = dict(options[0]) if len(options) == 1 else {"type": [o.get("type") for o in options]}
    out: dict[str, Any] = {"type": merged.get("type", "string")}
    for key in ("enum", "items"):
        if key in merged:
            out[key] = merged[key]
    description = schema.get("description", "")
    if "default" in schema and schema["default"] is not None:
        description = f"{description} Default: {json.dumps(schema['default'])}."
    out["description"] = description.strip()
    if "default" in schema:
        out["default"] = schema["default"]
    return out


def _context_parameter(function: Callable[..., Any], hints: Mapping[str, Any]) -> str | None:
    names = [name for name, hint in hints.items() if hint is ToolContext]
    if len(names) > 1:
        raise ToolDefinitionError(f"{function.__name__} takes more than one ToolContext")
    return names[0] if names else None


def build_spec(function: Callable[..., Any], name: str | None = None) -> ToolSpec:
    """Derive a tool's validator and schema from its signature and docstring, with what its module declared
    (`tools.catalogue.tool`; an undeclared function is a calculation)."""
    tool_name = name or function.__name__
    if not function.__doc__:
        raise ToolDefinitionError(f"tool {tool_name} has no docstring")
    description, documented = parse_docstring(function.__doc__)
    hints = get_type_hints(function)
    context_name = _context_parameter(function, hints)
    fields: dict[str, Any] = {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name == context_name:
            continue
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            raise ToolDefinitionError(f"tool {tool_name} may not take *args or **kwargs")
        if parameter.name not in hints:
            raise ToolDefinitionError(f"argument {parameter.name!r} of {tool_name} has no type hint")
        if not documented.get(parameter.name):
            raise ToolDefinitionError(f"argument {parameter.name!r} of {tool_name} is not documented")
        default = ... if parameter.default is parameter.empty else parameter.default
        fields[parameter.name] = (hints[parameter.name], Field(default, description=documented[parameter.name]))
    config = ConfigDict(extra="forbid", coerce_numbers_to_str=True, allow_inf_nan=False)
    model = create_model(f"{tool_name}_arguments", __config__=config, **fields)
    raw_schema = model.model_json_schema()
    input_schema = {
        "type": "object",
        "properties": {key: _ollama_property(value) for key, value in raw_schema.get("properties", {}).items()},
        "required": list(raw_schema.get("required", [])),
    }
    declared = declaration(function) or Declaration("calculation")
    return ToolSpec(
        tool_name,
        description,
        input_schema,
        context_name,
        pure=not declared.changes_state,
        kind=declared.kind,
        words=declared.words,
        always_offered=declared.always_offered,
        module=function.__module__,
        loaded={"function": function, "model": model},
    )


@dataclass(frozen=True)
class ToolOutcome:
    """The text the model sees, and whether it reports a failure.

    `crashed` marks an exception the tool did not mean to raise (a bug), as
    opposed to a refusal it explains, such as a division by zero.
    """

    output: str
    error: str | None = None
    crashed: bool = False
    calculation: CalcResult | None = None  # a calculation's full result (precision, diagram) for the record


def _describe_validation_error(spec: ToolSpec, error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        if item["type"] == "extra_forbidden":
            problems.append(f"{where}: not an argument of this tool")
        elif item["type"] == "missing":
            problems.append(f"{where}: required but missing")
        else:
            problems.append(f"{where}: {item['msg']} (got {item.get('input')!r:.60})")
    return f"Invalid arguments for {spec.name}: {'; '.join(problems)}. Expected {signature_text(spec)}."


def signature_text(spec: ToolSpec) -> str:
    """A compact, model-readable signature such as `sqrt(x: number)`."""
    parts = []
    for key, prop in spec.input_schema["properties"].items():
        kind = "|".join(map(str, prop["enum"])) if "enum" in prop else prop["type"]
        optional = "" if key in spec.input_schema["required"] else "?"
        parts.append(f"{key}{optional}: {kind}")
    return f"{spec.name}({', '.join(parts)})"


def parse_arguments(arguments: Mapping[str, Any] | str | None) -> dict[str, Any]:
    """Accept the argument shapes small models really send: a dict, a JSON string, or nothing."""
    if arguments is None or arguments == "":
        return {}
    if isinstance(arguments, str):
        decoded = json.loads(arguments)
        if not isinstance(decoded, dict):
            raise ValueError("arguments must be a JSON object")
        return decoded
    return dict(arguments)


def arguments_for_display(arguments: Mapping[str, Any] | str | None) -> dict[str, Any]:
    """The model's arguments as a dict for showing and storing, whatever shape they came in."""
    try:
        return parse_arguments(arguments)
    except ValueError:
        return {"_unparsed": arguments}


def validated_arguments(spec: ToolSpec, arguments: Mapping[str, Any] | str | None) -> dict[str, Any] | None:
    """The arguments after validation and coercion (so `"144"` and `144` compare equal), or None."""
    try:
        return spec.arguments_model.model_validate(parse_arguments(arguments)).model_dump()
    except ValueError:
        return None


def format_output(result: Any) -> str:
    """Tool results as text: strings as they are, everything else as compact JSON."""
    if isinstance(result, str):
        return result
    if isinstance(result, CalcResult):
        return json.dumps(result.for_model(), ensure_ascii=False, separators=(",", ":"))
    if isinstance(result, BaseModel):
        return result.model_dump_json()
    try:
        return json.dumps(result, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(result)


def cap_output(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    """Cut very long output, saying so, so the model knows it saw only a part."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[output cut: showing the first {limit:,} of {len(text):,} characters]"


def invoke(spec: ToolSpec, arguments: Mapping[str, Any] | str | None, context: ToolContext) -> ToolOutcome:
    """Validate the model's arguments and run the tool; every failure becomes text for the model."""
    try:
        validated = spec.arguments_model.model_validate(parse_arguments(arguments))
    except ValidationError as error:
        return _failure(_describe_validation_error(spec, error))
    except ValueError as error:
        return _failure(f"Invalid arguments for {spec.name}: {error}. Expected {signature_text(spec)}.")
    kwargs = {name: getattr(validated, name) for name in type(validated).model_fields}
    if spec.context_parameter:
        kwargs[spec.context_parameter] = context
    try:
        result = spec.function(**kwargs)
    except (ValueError, ArithmeticError, OSError, LookupError) as error:
        return _failure(f"{spec.name} failed: {error}")
    except Exception as error:  # noqa: BLE001 - a tool bug must not end the turn
        logger.exception("tool %s crashed", spec.name)
        return _failure(f"{spec.name} crashed ({type(error).__name__}: {error})", crashed=True)
    calculation = result if isinstance(result, CalcResult) else None
    return ToolOutcome(cap_output(format_output(result)), calculation=calculation)


def _failure(message: str, crashed: bool = False) -> ToolOutcome:
    text = f"Error: {cap_output(message, 2_000)}"
    return ToolOutcome(text, error=text, crashed=crashed)
