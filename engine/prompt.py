"""What the model is sent: the system prompt, the digital twin, and the newest turns that fit.

There is no tokenizer on hand for every local model, so sizes are estimated
from characters (`engine.context_window`: three a token until the server's
counts calibrate it); the budget leaves room for the tool schemas and the
answer, and the oldest turns are dropped first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from domain.events import AgentError
from engine.context_window import CHARS_PER_TOKEN, ContextWindow, json_chars, message_tokens

__all__ = ["CHARS_PER_TOKEN", "PromptWindow", "build_window", "strip_think_tags", "summary_prompt", "tools_chars"]

MIN_ROOM_TOKENS = 256  # at least this much for the conversation itself
CONVERSATION_ROOM_TOKENS = 1_024  # all of a bare agent's tools are described only if they leave this much
SUMMARY_SHARE = 4  # the summary may take at most a quarter of the budget
SUMMARY_MESSAGE_CHARS = 2_000
DROPPED_TOOL_OUTPUT = "[this tool result was dropped to fit the model's context; call the tool again if you need it]"
SUMMARY_INSTRUCTIONS = (
    "You keep the 'digital twin' of an engineering project: a short record that lets work resume "
    "weeks later. Merge the previous record with the new conversation turns. Keep: project facts "
    "(names, location, dimensions, materials, loads, codes), decisions, every calculated result with "
    "its value and units, files read or changed, and open questions. Drop small talk. Write plain "
    "Markdown bullet points, at most 250 words. Output only the record."
)

Message = dict[str, Any]


@cache
def tools_chars(tool_names: tuple[str, ...]) -> int:
    """Size of the tool schemas sent with every request that offers tools, in `json_chars`."""
    from tools import ollama_tools

    return json_chars(ollama_tools(list(tool_names)))


def answer_reserve(num_ctx: int) -> int:
    """Tokens kept free for the model's answer."""
    return min(2_048, num_ctx // 4)


def leaves_room(context: ContextWindow, tools_chars: int, system_prompt: str) -> bool:
    """Whether tool schemas of `tools_chars` leave the conversation CONVERSATION_ROOM_TOKENS of the context beside
    the system prompt and the answer's reserve."""
    fixed = context.tokens_in(tools_chars) + context.tokens_in(len(system_prompt))
    return context.tokens - answer_reserve(context.tokens) - fixed >= CONVERSATION_ROOM_TOKENS


@dataclass(frozen=True)
class PromptWindow:
    """The messages to send, how many earlier turns did not fit, and the tokens the request is estimated at
    (its tool schemas included)."""

    messages: list[Message]
    dropped_turns: int
    tokens: int = 0

    def answer_room(self, context: ContextWindow) -> int:
        """Tokens the context leaves for the answer after this prompt (at least the share kept for it)."""
        return max(context.tokens - self.tokens, answer_reserve(context.tokens))


def system_message(
    system_prompt: str, summary: str | None, budget: int, context: ContextWindow, memory: Sequence[str] = ()
) -> Message:
    """The system prompt, what the user asked to be remembered, and the workspace's summary (cut if it would
    crowd out the turns)."""
    content = system_prompt
    if memory:
        system_prompt = content = f"{content}\n\n[What the user asked you to remember]:\n" + "\n".join(
            f"- {note}" for note in memory
        )
    if summary and summary.strip():
        limit = context.chars_in(max(budget // SUMMARY_SHARE, 64))
        text = summary.strip()
        if len(text) > limit:
            text = f"{text[:limit]}\n[summary cut to fit the context]"
        content = f"{system_prompt}\n\n[Context Summary]: {text}"
    return {"role": "system", "content": content}


def build_window(
    system_prompt: str,
    summary: str | None,
    history: Sequence[tuple[str, str]],
    turn_messages: Sequence[Message],
    *,
    context: ContextWindow,
    tools_chars: int,
    memory: Sequence[str] = (),
) -> PromptWindow:
    """System + memory + summary + as many of the newest history turns as fit + this turn's messages."""
    budget = context.tokens - answer_reserve(context.tokens) - context.tokens_in(tools_chars)
    system = system_message(system_prompt, summary, budget, context, memory)
    system_tokens = context.tokens_in(json_chars(system))
    if budget - system_tokens < MIN_ROOM_TOKENS:
        raise AgentError(
            "CONTEXT_OVERFLOW",
            f"The model's context ({context.limit}) is too small to hold the instructions and the tools "
            f"(about {context.tokens - budget + system_tokens:,} tokens with room for the answer); raise NUM_CTX "
            "to 8192 or more, or choose a model with a larger context.",
            recoverable=False,
        )
    turn = fit_turn_messages(turn_messages, budget - system_tokens, context)
    used = system_tokens + sum(message_tokens(m, context) for m in turn)
    if used > budget:
        raise AgentError(
            "CONTEXT_OVERFLOW",
            f"This message is too long for the model's context (about {used:,} tokens; {context.limit} leaves "
            f"room for about {max(budget, 0):,} after the tools and the answer). Shorten it, or raise NUM_CTX "
            "if the model allows.",
            recoverable=False,
        )
    kept, room = newest_turns_that_fit(history, budget - used, context)
    answered = sum(1 for _, assistant in history if assistant)
    tokens = context.tokens - answer_reserve(context.tokens) - room
    return PromptWindow([system, *kept, *turn], answered - len(kept) // 2, tokens)


def newest_turns_that_fit(
    history: Sequence[tuple[str, str]], room: int, context: ContextWindow
) -> tuple[list[Message], int]:
    """The newest answered turns, as messages, that fit in `room` tokens (failed turns are left out), and the
    room they leave."""
    kept: list[Message] = []
    for user, assistant in reversed(history):
        if not assistant:
            continue  # a failed turn: its question was never answered
        pair = [{"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
        cost = sum(context.tokens_in(json_chars(m)) for m in pair)
        if cost > room:
            break
        kept[:0] = pair
        room -= cost
    return kept, room


def fit_turn_messages(turn_messages: Sequence[Message], room: int, context: ContextWindow) -> list[Message]:
    """This turn's messages, with the oldest tool results replaced by a note until they fit `room`.

    The question and the model's own messages are never cut; the newest tool
    result is kept whole if at all possible, so the model can still use it.
    """
    fitted = list(turn_messages)
    size = sum(message_tokens(m, context) for m in fitted)
    tool_positions = [i for i, m in enumerate(fitted) if m.get("role") == "tool"]
    for position in tool_positions:
        if size <= room:
            break
        original = fitted[position]
        shortened = {**original, "content": DROPPED_TOOL_OUTPUT}
        size -= message_tokens(original, context) - message_tokens(shortened, context)
        fitted[position] = shortened
    return fitted


def summary_prompt(
    previous_summary: str | None,
    history: Sequence[tuple[str, str]],
    *,
    context: ContextWindow,
) -> tuple[list[Message], int]:
    """Messages asking for an updated digital twin, bounded by the model's context; and turns left out."""
    budget = context.chars_in(context.tokens - answer_reserve(context.tokens)) - len(SUMMARY_INSTRUCTIONS)
    previous = (previous_summary or "").strip()[: budget // SUMMARY_SHARE]
    used = len(previous) + 200
    blocks: list[str] = []
    for user, assistant in reversed(history):
        block = f"User: {user[:SUMMARY_MESSAGE_CHARS]}\nAssistant: {assistant[:SUMMARY_MESSAGE_CHARS]}"
        if used + len(block) > budget:
            break
        blocks.insert(0, block)
        used += len(block) + 2
    left_out = len(history) - len(blocks)
    parts = [f"Previous record:\n{previous or '(none yet)'}"]
    if left_out:
        parts.append(f"({left_out} older turns are not shown.)")
    parts.append("New conversation turns:\n\n" + "\n\n".join(blocks))
    messages = [
        {"role": "system", "content": SUMMARY_INSTRUCTIONS},
        {"role": "user", "content": "\n\n".join(parts)},
    ]
    return messages, left_out


def strip_think_tags(text: str) -> str:
    """Remove `<think>…</think>` blocks that some models leave in their text."""
    while "<think>" in text and "</think>" in text:
        start, end = text.index("<think>"), text.index("</think>") + len("</think>")
        text = text[:start] + text[end:]
    return text
