"""Reading the pieces of a tool call that a model wrote as text, without evaluating anything.

JSON is read by `json` (also when the model HTML-escaped its quotes, `{&#34;a&#34;: 10}`,
or wrote a Python-style dict, `{'a': 10}`); Python-style calls, `divide(a=10, b=4)`,
are read by `ast.parse` and an allowlist of literal nodes; Qwen3-Coder's
`<parameter=a>10</parameter>` pairs by a regular expression. Each reader gives
`None` (or raises `ValueError`) for text that is not what it reads.

Small models also echo the tool descriptions they were given: `{"name": …, "description": …}`,
or a call whose arguments are the tool's JSON schema. Such text is not a call (`written_call`).
"""

from __future__ import annotations

import ast
import html
import json
import re
from collections.abc import Collection
from typing import Any

from engine.text_calls.requested import RequestedCall

MAX_CALL_CHARS = 20_000  # longer text is not read as a call (and never parsed)
_CALL_PREFIXES = ("functions.", "default_api.")
_JSON_WORDS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}
_PARAMETER = re.compile(r"<parameter=([\w.-]+)>(.*?)(?=</parameter>|<parameter=|</function>|</tool_call>|\Z)", re.S)
_CLOSERS = {"{": "}", "[": "]", "(": ")"}
_SCHEMA_WORDS = frozenset(
    "type properties required description additionalProperties title $schema items enum default format "
    "anyOf oneOf allOf minimum maximum".split()
)
_JSON_TYPES = frozenset("object string number integer boolean array null".split())


def tool_name(name: Any, known: Collection[str]) -> str | None:
    """`name` if it names a known tool (a `functions.` or `default_api.` prefix dropped), else None."""
    if not isinstance(name, str):
        return None
    for prefix in _CALL_PREFIXES:
        name = name.removeprefix(prefix)
    return name if name in known else None


def calls_in_value(value: Any, known: Collection[str]) -> list[RequestedCall] | None:
    """The calls in a decoded JSON value: `{"name", "arguments"|"parameters"}`, `{"function": …}`,
    `{"tool_calls": […]}` or a list of those; None unless every item is a call of a known tool."""
    if isinstance(value, dict) and isinstance(value.get("tool_calls"), list):
        value = value["tool_calls"]
    items = value if isinstance(value, list) else [value]
    calls = [_as_call(item, known) for item in items]
    if not calls or any(call is None for call in calls):
        return None
    return [call for call in calls if call is not None]


def _as_call(candidate: Any, known: Collection[str]) -> RequestedCall | None:
    if not isinstance(candidate, dict):
        return None
    if isinstance(candidate.get("function"), dict):
        candidate = candidate["function"]
    name = tool_name(candidate.get("name"), known)
    arguments = candidate.get("arguments", candidate.get("parameters", {}))
    if name is None or "description" in candidate or not isinstance(arguments, (dict, str)):
        return None  # a "description" beside the name: the tool's description echoed, not a call
    return written_call(name, arguments)


def written_call(name: str, arguments: dict[str, Any] | str) -> RequestedCall | None:
    """The call of tool `name` with `arguments`, unless those are a JSON schema echoed from its description."""
    return None if looks_like_schema(arguments) else RequestedCall(name, arguments)


def looks_like_schema(arguments: Any) -> bool:
    """Whether written arguments are a JSON schema (`{"type": "object", "properties": …}`, or a map of
    property schemas such as `{"a": {"type": "number", "description": …}}`) rather than values."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return False
    if not isinstance(arguments, dict) or not arguments:
        return False
    if set(arguments) <= _SCHEMA_WORDS:
        properties = arguments.get("properties")
        if arguments.get("type") == "object":
            return True
        if isinstance(properties, dict) and all(map(_is_property_schema, properties.values())):
            return True
    return all(map(_is_property_schema, arguments.values()))


def _is_property_schema(value: Any) -> bool:
    if not isinstance(value, dict) or not set(value) <= _SCHEMA_WORDS:
        return False
    kind = value.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return bool(kinds) and all(isinstance(k, str) and k in _JSON_TYPES for k in kinds)


def loose_json(text: str) -> Any:
    """`text` as JSON, also when HTML-escaped or written as a Python literal; `ValueError` if it is neither."""
    text = text.strip()
    if len(text) > MAX_CALL_CHARS:
        raise ValueError("too long to be a tool call")
    for candidate in dict.fromkeys((text, html.unescape(text))):
        try:
            return json.loads(candidate)
        except ValueError:
            pass
        try:
            return python_literal(candidate)
        except ValueError:
            pass
    raise ValueError("not JSON")


def json_at(text: str, start: int) -> tuple[Any, int] | None:
    """The JSON value that starts at `text[start]` (read as by `loose_json`) and the index after it."""
    try:
        return json.JSONDecoder().raw_decode(text, start)
    except ValueError:
        pass
    end = bracket_end(text, start)
    if end is None:
        return None
    try:
        return loose_json(text[start:end]), end
    except ValueError:
        return None


def bracket_end(text: str, start: int) -> int | None:
    """The index after the bracket that closes the one at `text[start]` (quotes respected), or None."""
    if start >= len(text) or text[start] not in _CLOSERS:
        return None
    stack: list[str] = []
    quote = ""
    limit = min(len(text), start + MAX_CALL_CHARS)
    index = start
    while index < limit:
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in _CLOSERS:
            stack.append(_CLOSERS[char])
        elif char in ")]}":
            if not stack or stack.pop() != char:
                return None
            if not stack:
                return index + 1
        index += 1
    return None


def python_literal(text: str) -> Any:
    """A Python literal such as `{'a': 10, 'b': True}` read from its syntax tree; `ValueError` otherwise."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ValueError("not a literal") from None
    return _literal(tree.body)


def _literal(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, bool, type(None))):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _literal(node.operand)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(item) for item in node.elts]
    if isinstance(node, ast.Dict) and all(key is not None for key in node.keys):
        pairs = zip(node.keys, node.values, strict=True)
        return {_literal(key): _literal(value) for key, value in pairs if key is not None}
    if isinstance(node, ast.Name) and node.id in _JSON_WORDS:
        return _JSON_WORDS[node.id]
    raise ValueError("not a literal")


def python_calls(text: str, known: Collection[str]) -> list[RequestedCall] | None:
    """Calls written as Python, `[divide(a=10, b=4), sqrt(x=2)]` or `print(default_api.sqrt(x=2))`:
    keyword arguments with literal values only; None for anything else."""
    text = text.strip()
    if not text or len(text) > MAX_CALL_CHARS:
        return None
    try:
        body = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    items = body.elts if isinstance(body, (ast.List, ast.Tuple)) else [body]
    calls = [_python_call(item, known) for item in items]
    if not calls or any(call is None for call in calls):
        return None
    return [call for call in calls if call is not None]


def _python_call(node: ast.AST, known: Collection[str]) -> RequestedCall | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print" and node.args:
        node = node.args[0]  # Gemma's tool_code: print(default_api.name(...))
    if not isinstance(node, ast.Call) or node.args:
        return None
    name = tool_name(_dotted(node.func), known)
    if name is None or any(keyword.arg is None for keyword in node.keywords):
        return None
    try:
        return written_call(name, {str(keyword.arg): _literal(keyword.value) for keyword in node.keywords})
    except ValueError:
        return None


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (base := _dotted(node.value)) is not None:
        return f"{base}.{node.attr}"
    return None


def xml_parameters(body: str) -> dict[str, Any]:
    """`<parameter=a>10</parameter>` pairs (closing tags optional); JSON-looking values decoded."""
    return {name: _parameter_value(value) for name, value in _PARAMETER.findall(body)}


def _parameter_value(text: str) -> Any:
    value = html.unescape(text.strip())
    try:
        decoded = json.loads(value)
    except ValueError:
        return value
    return decoded if not isinstance(decoded, str) else value
