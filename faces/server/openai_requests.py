"""A `POST /v1/chat/completions` body, read and checked: what the turn asks and where, or the 400 that says what
is wrong with it. Nothing of a refused request reaches the model or the store."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from faces.server.openai_records import ApiError
from faces.server.protocol import RequestError, parse_line

DEFAULT_WORKSPACE = "API"
LONGEST_WORKSPACE_NAME = 512  # as OpenAI's metadata values
CONVERSATION_ROLES = ("user", "assistant")
INSTRUCTION_ROLES = ("system", "developer")


@dataclass(frozen=True)
class ChatRequest:
    """What a chat completion asks: the model, the question (the last message, stored alone), the conversation
    before it as (question, answer) pairs, the caller's own instructions, and where the turn is stored."""

    model: str
    question: str
    history: tuple[tuple[str, str], ...]
    instructions: str
    stream: bool
    include_usage: bool
    workspace: str


def bad(message: str, code: str = "invalid_request") -> ApiError:
    return ApiError(400, message, "invalid_request_error", code)


def read_chat_request(body: bytes) -> ChatRequest:
    """The request in `body`; ApiError (400) says what is wrong with it."""
    try:
        request = parse_line(body)
    except RequestError as error:
        raise bad(str(error), "invalid_json") from None
    if not isinstance(request, dict):
        raise bad("The body is a JSON object with model and messages.")
    if request.get("tools") or request.get("functions"):
        raise bad("This server runs its own tools (the calculations, documents and files); leave out tools and "
                  "functions.", "tools_not_supported")  # fmt: skip
    model = request.get("model")
    if not isinstance(model, str) or not model.strip():
        raise bad("Name the model (model: a name from GET /v1/models).", "invalid_model")
    if request.get("n") not in (None, 1):
        raise bad("Only one choice is made for each question (n: 1).", "invalid_n")
    question, history, instructions = _messages(request.get("messages"))
    return ChatRequest(
        model=model,
        question=question,
        history=history,
        instructions=instructions,
        stream=_flag(request, "stream"),
        include_usage=_include_usage(request.get("stream_options")),
        workspace=_workspace(request.get("metadata")),
    )


def _messages(messages: Any) -> tuple[str, tuple[tuple[str, str], ...], str]:
    """(the question, the earlier turns as pairs, the instructions) of the messages."""
    if not isinstance(messages, list) or not messages:
        raise bad("messages is a list of {role, content}, the user's question last.", "invalid_messages")
    for number, message in enumerate(messages):
        _check_message(number, message)
    last = messages[-1]
    question = _text(last.get("content"), len(messages) - 1)
    if last["role"] != "user" or not question.strip():
        raise bad("The last message is the user's question (role user, with text).", "invalid_messages")
    earlier = messages[:-1]
    instructions = [_text(m.get("content"), n) for n, m in enumerate(earlier) if m["role"] in INSTRUCTION_ROLES]
    said = [(m["role"], _text(m.get("content"), n)) for n, m in enumerate(earlier) if m["role"] in CONVERSATION_ROLES]
    return question, _pairs(said), "\n\n".join(text for text in instructions if text.strip())


def _check_message(number: int, message: Any) -> None:
    if not isinstance(message, dict):
        raise bad(f"messages.{number} is not an object of role and content.", "invalid_messages")
    role = message.get("role")
    if role in ("tool", "function") or message.get("tool_calls") or message.get("function_call"):
        raise bad(f"messages.{number}: this server runs its own tools; send no tool calls or tool results.",
                  "tools_not_supported")  # fmt: skip
    if role not in (*CONVERSATION_ROLES, *INSTRUCTION_ROLES):
        raise bad(f"messages.{number}: role is one of user, assistant, system, developer.", "invalid_messages")


def _text(content: Any, number: int) -> str:
    """A message's text: a string, or a list of text parts (no image, audio or file)."""
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list) and all(isinstance(part, dict) for part in content):
        if all(part.get("type") == "text" and isinstance(part.get("text"), str) for part in content):
            return "\n".join(part["text"] for part in content)
    raise bad(f"messages.{number}.content is text, or a list of text parts; this server reads no images, audio or "
              "files in messages.", "invalid_content")  # fmt: skip


def _pairs(said: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The earlier messages as (question, answer) pairs: user messages in a row are one question."""
    pairs: list[tuple[str, str]] = []
    asked: list[str] = []
    for role, text in said:
        if role == "user":
            asked.append(text)
        else:
            pairs.append(("\n\n".join(asked), text))
            asked = []
    return tuple(pairs)


def _flag(request: dict[str, Any], key: str) -> bool:
    value = request.get(key, False)
    if value is None or isinstance(value, bool):
        return bool(value)
    raise bad(f"{key} is true or false.", f"invalid_{key}")


def _include_usage(options: Any) -> bool:
    if options is None:
        return False
    if not isinstance(options, dict):
        raise bad("stream_options is an object such as {include_usage: true}.", "invalid_stream_options")
    return _flag(options, "include_usage")


def _workspace(metadata: Any) -> str:
    """metadata.workspace, the name of the workspace to store the turn in (default: "API")."""
    if metadata is None:
        return DEFAULT_WORKSPACE
    if not isinstance(metadata, dict):
        raise bad("metadata is an object of strings, such as {workspace: NAME}.", "invalid_metadata")
    name = metadata.get("workspace")
    if name is None:
        return DEFAULT_WORKSPACE
    if not isinstance(name, str) or not name.strip() or len(name) > LONGEST_WORKSPACE_NAME:
        raise bad(f"metadata.workspace is a workspace's name: text of 1 to {LONGEST_WORKSPACE_NAME} characters.",
                  "invalid_metadata")  # fmt: skip
    return name
