"""Tool calls that small models write into their text instead of `tool_calls`.

Only calls of known tools are recognised, and nothing is evaluated (the pieces are
read by `engine.text_calls.syntax`); `engine.text_calls.filter` holds back streamed text
that may become such a call, so the raw call never reaches the answer. Each format
below with one public report of a model writing it:

- `<tool_call>{"name": "sqrt", "arguments": {"x": 144}}</tool_call>` — Hermes, Qwen 2.5/3:
  ollama/ollama#6390; also with a broken closing tag (`</tool_call}`), as SmolLM2-135M writes it.
  The tags around a call found are left out of the answer, whole or broken.
- `{"name": …, "parameters": …}` (or a list of them, or `{"tool_calls": […]}`) as the whole
  reply, on a line of its own, in a ```json fence, or at the end of the prose —
  Llama 3.2, Qwen 3, Devstral: ollama/ollama#13519, ollama/ollama#11185, ggml-org/llama.cpp#14697.
- `functions.divide:\n{"a": 10, "b": 4}` at the start of a (perhaps indented) line, also
  `functions.divide:0{…}`, with the JSON in a ```json fence, `functions.divide({…})` and
  `functions.divide(a=10, b=4)` — small models on Ollama (this
  project's issue 12); the `functions.` namespace is Kimi K2's (ikawrakow/ik_llama.cpp#628,
  examples/server/function_calls.md) and gpt-oss Harmony's (lablup/mlxcel#658).
- Any of these with HTML-escaped JSON, `{&#34;a&#34;: 10}` or `&quot;` — issue 12; templates
  that HTML-escape the calls they show the model: mistralai/mistral-common#311, ollama/ollama#457.
- `[TOOL_CALLS][{"name": …, "arguments": …}]` — Mistral 7B v0.3, Nemo, Small: vllm-project/vllm#5649,
  ml-explore/mlx-lm#1374; `[TOOL_CALLS]name[ARGS]{…}` and `[TOOL_CALLS]name{…}` — Mistral 3,
  Magistral, Devstral: ml-explore/mlx-lm#1448.
- `<|python_tag|>{"name": …, "parameters": …}` — Llama 3.1/3.2: raullenchai/Rapid-MLX#703;
  `<|python_start|>…<|python_end|>` — Llama 4: vllm-project/vllm#16214.
- `<function=divide>{"a": 10}</function>` — Llama 3.1's custom tool format: raullenchai/Rapid-MLX#703.
- `<tool_call><function=divide><parameter=a>10</parameter>…</function></tool_call>`, closing
  tags optional — Qwen3-Coder: continuedev/continue#13057, vllm-project/vllm
  (vllm/entrypoints/openai/tool_parsers/qwen3coder_tool_parser.py).
- `<|tool_call_start|>[divide(a=10, b=4)]<|tool_call_end|>` — LFM2/LFM2.5: vllm-project/vllm#39243,
  ggml-org/llama.cpp#16763.
- ```tool_code\nprint(default_api.divide(a=10, b=4))\n``` — Gemini/Gemma: googleapis/js-genai#607.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from engine.text_calls.requested import RequestedCall
from engine.text_calls.syntax import (
    bracket_end,
    calls_in_value,
    json_at,
    loose_json,
    python_calls,
    tool_name,
    written_call,
    xml_parameters,
)

# Where a written call may begin; `engine.text_calls.filter` holds text back from here.
MARKERS = (
    "<tool_call>",
    "<function=",
    "<|python_tag|>",
    "<|python_start|>",
    "[TOOL_CALLS]",
    "<|tool_call_start|>",
    "```tool_code",
)
LINE_START_MARKER = "functions."  # only at the start of a (perhaps indented) line: prose says "functions." too
MAX_INDENT = 8
# A line that starts a JSON object with a key (`{"`, `{'`, `{&#34;`, `[{"`): perhaps a bare call.
LINE_JSON = r"(?:\[\s*)?\{\s*(?:[\"']|&(?:#34|quot);)"
# What each of MARKER's alternatives begins with (after a line's indentation): a marker's first character, a line's
# JSON's (`[` or `{`), or the line marker itself.
_MARKER_BEGINNINGS = (*sorted({marker[0] for marker in MARKERS} | {"[", "{"}), LINE_START_MARKER)
MARKER = re.compile(
    f"(?P<marker>{'|'.join(map(re.escape, MARKERS))})"
    rf"|^[ \t]{{0,{MAX_INDENT}}}(?:(?P<line_marker>functions\.)(?=[A-Za-z_])|(?P<line_json>{LINE_JSON}))",
    re.MULTILINE,
)


def marker_start(match: re.Match[str]) -> int:
    """Where the marker `MARKER` found begins (after any indentation)."""
    return match.start(match.lastgroup or 0)


def _read(content: str, match: re.Match[str], known: Collection[str]) -> tuple[Calls, int]:
    """The calls written from the marker `match` on, and where they end."""
    if match.lastgroup == "line_json":
        return _read_line_json(content, marker_start(match), known)
    return _READERS[match.group(match.lastgroup or 0)](content, match.end(), known)


_TRAILING_SEARCH_CHARS = 4_000
_FENCED = re.compile(r"^```(?:json|tool_call)?\s*\n?(.*?)\n?```$", re.DOTALL)
_FUNCTION_NAME = re.compile(r"([\w.-]+)>")
_MISTRAL_NAME = re.compile(r"([\w.-]+)\s*(?:\[CALL_ID\]\w*)?\s*(?:\[ARGS\])?\s*")
_FUNCTIONS_NAME = re.compile(r"([A-Za-z_][\w-]*)(?::\d+)?[ \t]*:?\s*(?:```(?:json)?\s*)?")
_FENCE_END = re.compile(r"\s*```")
_SPECIAL_TOKEN = re.compile(r"<\|[a-z_]+\|>")
_TOOL_CALL_END = re.compile(r"</tool_call(?:\s*[>}\])])?")  # `</tool_call>`, or broken: `</tool_call}`
_TOOL_CALL_TAG = re.compile(rf"<tool_call>|{_TOOL_CALL_END.pattern}")
_EMPTY_FENCE = re.compile(r"```\w*\s*```")
_BLANK_LINES = re.compile(r"\n{3,}")
_SEPARATORS = " \t\r\n;,"

Calls = list[RequestedCall] | None
Reader = Callable[[str, int, Collection[str]], tuple[Calls, int]]


@dataclass(frozen=True)
class _Written:
    """Calls written at `text[start:end]`."""

    start: int
    end: int
    calls: list[RequestedCall]


def extract_text_tool_calls(content: str, known: Collection[str]) -> tuple[str, list[RequestedCall]]:
    """The text without the tool calls written in it, and those calls."""
    if not known:
        return content, []
    written = _marked_calls(content, known)
    if written:
        return _without(content, written), [call for found in written for call in found.calls]
    return _unmarked_calls(content, known)


def find_marker(text: str, position: int = 0) -> re.Match[str] | None:
    """The first `MARKER` in `text` from `position` on. Every marker begins with one of a few characters, or is
    `functions.`: a text with none of them there (most answers) is passed over by a few `find`s, where the
    expression tries its alternatives at every character (11 µs against 2 µs for an answer of 300 characters,
    looked at when the answer ends, and as it streams for a piece that may begin a marker)."""
    if all(text.find(beginning, position) == -1 for beginning in _MARKER_BEGINNINGS):
        return None  # a match from `position` on begins there or later, its first character with it
    return MARKER.search(text, position)


def _marked_calls(content: str, known: Collection[str]) -> list[_Written]:
    written = []
    position = 0
    while match := find_marker(content, position):
        calls, end = _read(content, match, known)
        if calls:
            written.append(_Written(marker_start(match), end, calls))
        position = end if calls else match.end()
    return written


def _without(content: str, written: list[_Written]) -> str:
    pieces, last = [], 0
    for found in written:
        pieces.append(content[last : found.start])
        last = found.end
    pieces.append(content[last:])
    text = _EMPTY_FENCE.sub("", _TOOL_CALL_TAG.sub("", _SPECIAL_TOKEN.sub("", "".join(pieces))))
    return _BLANK_LINES.sub("\n\n", text)


def _until(text: str, start: int, closers: tuple[str, ...]) -> tuple[str, int]:
    """The text from `start` to the first of `closers` (or the end), and the index after that closer."""
    ends = [(index, closer) for closer in closers if (index := text.find(closer, start)) >= 0]
    if not ends:
        return text[start:], len(text)
    index, closer = min(ends)
    return text[start:index], index + len(closer)


def _skip(text: str, index: int, characters: str = " \t\r\n") -> int:
    while index < len(text) and text[index] in characters:
        index += 1
    return index


def _json_calls(body: str, known: Collection[str]) -> Calls:
    """One or more JSON calls in `body`, separated by spaces, commas or semicolons."""
    calls: list[RequestedCall] = []
    index = _skip(body, 0, _SEPARATORS)
    while index < len(body):
        decoded = json_at(body, index)
        found = calls_in_value(decoded[0], known) if decoded else None
        if decoded is None or found is None:
            return None
        calls += found
        index = _skip(body, decoded[1], _SEPARATORS)
    return calls or None


def _read_tool_call(text: str, start: int, known: Collection[str]) -> tuple[Calls, int]:
    closing = _TOOL_CALL_END.search(text, start)
    body, end = (text[start : closing.start()], closing.end()) if closing else (text[start:], len(text))
    stripped = body.strip()
    if stripped.startswith("<function="):
        return _read_function(stripped, len("<function="), known)[0], end
    return _json_calls(body, known), end


def _read_function(text: str, start: int, known: Collection[str]) -> tuple[Calls, int]:
    named = _FUNCTION_NAME.match(text, start)
    if named is None:
        return None, start
    body, end = _until(text, named.end(), ("</function>", "</tool_call>"))
    name = tool_name(named.group(1), known)
    if name is None:
        return None, end
    if not body.lstrip().startswith("{"):
        return [RequestedCall(name, xml_parameters(body))], end
    try:
        arguments = loose_json(body)
    except ValueError:
        return None, end
    call = written_call(name, arguments) if isinstance(arguments, dict) else None
    return ([call] if call else None), end


def _read_python_tag(text: str, start: int, known: Collection[str]) -> tuple[Calls, int]:
    body, end = _until(text, start, ("<|eom_id|>", "<|eot_id|>", "<|python_end|>"))
    return _json_calls(body, known), end


def _read_mistral(text: str, start: int, known: Collection[str]) -> tuple[Calls, int]:
    index = _skip(text, start)
    if text[index : index + 1] in ("[", "{"):
        decoded = json_at(text, index)
        return (calls_in_value(decoded[0], known), decoded[1]) if decoded else (None, start)
    named = _MISTRAL_NAME.match(text, index)
    return _named_json_call(text, named.group(1), named.end(), known) if named else (None, start)


def _named_json_call(text: str, name: str, start: int, known: Collection[str]) -> tuple[Calls, int]:
    """A call of `name` whose arguments are the JSON object at `text[start]`."""
    tool = tool_name(name, known)
    decoded = json_at(text, start) if tool else None
    call = written_call(tool, decoded[0]) if tool and decoded and isinstance(decoded[0], dict) else None
    return ([call], decoded[1]) if call and decoded else (None, start)


def _read_functions(text: str, start: int, known: Collection[str]) -> tuple[Calls, int]:
    named = _FUNCTIONS_NAME.match(text, start)
    if named is None:
        return None, start
    if not text.startswith("(", named.end()):  # functions.divide:\n{"a": 10, "b": 4}, perhaps fenced
        calls, end = _named_json_call(text, named.group(1), named.end(), known)
        fence_end = _FENCE_END.match(text, end) if calls and "```" in named.group() else None
        return calls, fence_end.end() if fence_end else end
    opening = named.end()
    inside = _skip(text, opening + 1)
    if text.startswith("{", inside):  # functions.divide({"a": 10, "b": 4})
        calls, end = _named_json_call(text, named.group(1), inside, known)
        closing = _skip(text, end)
        return calls, closing + 1 if calls and text.startswith(")", closing) else end
    close = bracket_end(text, opening)  # functions.divide(a=10, b=4)
    if close is None:
        return None, opening
    return python_calls(named.group(1) + text[opening:close], known), close


def _read_line_json(text: str, start: int, known: Collection[str]) -> tuple[Calls, int]:
    decoded = json_at(text, start)
    if decoded is None:
        return None, start + 1
    return calls_in_value(decoded[0], known), decoded[1]


def _read_pythonic(text: str, start: int, known: Collection[str]) -> tuple[Calls, int]:
    body, end = _until(text, start, ("<|tool_call_end|>",))
    return python_calls(body, known) or _json_calls(body, known), end


def _read_tool_code(text: str, start: int, known: Collection[str]) -> tuple[Calls, int]:
    body, end = _until(text, start, ("```",))
    return python_calls(body, known), end


_READERS: dict[str, Reader] = {
    "<tool_call>": _read_tool_call,
    "<function=": _read_function,
    "<|python_tag|>": _read_python_tag,
    "<|python_start|>": _read_python_tag,
    "[TOOL_CALLS]": _read_mistral,
    "<|tool_call_start|>": _read_pythonic,
    "```tool_code": _read_tool_code,
    "functions.": _read_functions,
}


def _unmarked_calls(content: str, known: Collection[str]) -> tuple[str, list[RequestedCall]]:
    """A reply that is only a JSON call (bare or fenced), or prose that ends with one."""
    calls = _only_json_calls(content, known)
    return ("", calls) if calls else _trailing_call(content, known)


def _only_json_calls(content: str, known: Collection[str]) -> Calls:
    """The calls in `content` if it is nothing but JSON calls, bare or in a fence."""
    stripped = content.strip()
    fenced = _FENCED.match(stripped)
    body = fenced.group(1).strip() if fenced else stripped
    if body[:1] not in ("{", "["):
        return None
    try:
        return calls_in_value(loose_json(body), known)
    except ValueError:
        return None


def _trailing_call(content: str, known: Collection[str]) -> tuple[str, list[RequestedCall]]:
    """Prose that ends with a tool call as a bare or fenced JSON object ("Let me compute: {...}")."""
    text = content.rstrip()
    if text.endswith("```"):
        fence = text.rfind("```", 0, len(text) - 3)
        if fence >= 0:
            fenced_calls = _only_json_calls(text[fence:], known)
            return (text[:fence].rstrip(), fenced_calls) if fenced_calls else (content, [])
    if not text.endswith("}"):
        return content, []
    for candidate in dict.fromkeys((text, html.unescape(text) if "&" in text else text)):
        found = _json_object_at_the_end(candidate, known)
        if found is not None:
            return found
    return content, []


def _json_object_at_the_end(text: str, known: Collection[str]) -> tuple[str, list[RequestedCall]] | None:
    """The prose and the call when `text` ends with a JSON call (tried from each `{`, at C speed)."""
    decoder = json.JSONDecoder()
    start = text.find("{", max(0, len(text) - _TRAILING_SEARCH_CHARS))
    while start >= 0:
        try:
            decoded, end = decoder.raw_decode(text, start)
        except ValueError:
            decoded, end = None, -1
        if end == len(text) and (calls := calls_in_value(decoded, known)):
            return text[:start].rstrip(), calls
        start = text.find("{", start + 1)
    return None
