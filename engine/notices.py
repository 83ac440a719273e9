"""The sentences a turn tells the user besides the answer: warnings, the error of an empty answer, and the
answer made of the tools' results when the model wrote none after them."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence

from domain.events import AgentError, WarningEvent
from domain.records import ToolCall
from engine.context_window import ContextWindow
from engine.turn_state import MAX_ANSWER_CHARS, RoundState

CONTEXT_FULL_SHARE = 0.9
MAX_RESULT_CHARS_SHOWN = 600  # of each tool's result, in an answer made of the results
_BACKTICKS = re.compile(r"`+")


def tools_unsupported(model: str) -> WarningEvent:
    return WarningEvent(
        code="TOOLS_UNSUPPORTED",
        message=f"The model {model} cannot use tools, so it will answer without calculations "
        "or file access; choose a model with tool support (such as qwen3) for those.",
    )


def context_trimmed(dropped_turns: int, context: ContextWindow) -> WarningEvent:
    return WarningEvent(
        code="CONTEXT_TRIMMED",
        message=f"{dropped_turns} earlier turns of this workspace are left out of the model's view because "
        f"they do not fit its context ({context.limit}); it still sees the summary and the newest turns.",
    )


def context_full(prompt_tokens: int, context: ContextWindow) -> WarningEvent | None:
    if prompt_tokens < context.tokens * CONTEXT_FULL_SHARE:
        return None
    return WarningEvent(
        code="CONTEXT_FULL",
        message=f"The prompt filled the model's context ({prompt_tokens:,} of {context.tokens:,} tokens; "
        f"{context.limit}), so the server may have cut its oldest part; raise NUM_CTX or start a new workspace.",
    )


def answer_cut(tokens: int) -> WarningEvent:
    return WarningEvent(
        code="ANSWER_CUT",
        message=f"The answer was cut at {tokens:,} tokens; ask for the rest or raise NUM_PREDICT/NUM_CTX.",
    )


def cut_short(reply: RoundState) -> WarningEvent | None:
    """Why the round's answer was cut, if it was: the cap on its size, or the bound on its tokens (num_predict)."""
    if reply.oversized:
        return answer_too_long(MAX_ANSWER_CHARS)
    if reply.done_reason == "length":
        return answer_cut(reply.completion_tokens or reply.answer_limit)
    return None


def answer_too_long(max_chars: int) -> WarningEvent:
    return WarningEvent(
        code="ANSWER_CUT", message=f"The answer passed {max_chars:,} characters and was cut there; ask for the rest."
    )


def tool_calls_capped(cap: int, refused: int) -> WarningEvent:
    return WarningEvent(
        code="TOOL_CALLS_CAPPED",
        message=f"The model asked for {cap + refused:,} tool calls in one reply; the first {cap} ran "
        f"and the other {refused:,} were refused.",
    )


def tool_calls_refused(cap: int, refused: int) -> str:
    """What the model is told of the calls of its reply that were not run."""
    return (
        f"Error: {refused:,} more tool calls were refused: at most {cap} run per reply; "
        "ask for the ones still needed in the next reply."
    )


def step_limit(max_tool_rounds: int, tool_calls: Sequence[ToolCall], answered: bool) -> WarningEvent:
    """What the model did before the step limit stopped it, and how to allow more."""
    ran = Counter(call.name for call in tool_calls)
    done = ", ".join(f"{name} ×{count}" for name, count in ran.items())
    calls = f"{len(tool_calls)} tool call{'s' if len(tool_calls) != 1 else ''}"
    then = (
        "so the model answered without further tools; raise MAX_TOOL_ROUNDS to let it do more."
        if answered
        else "and the model gave no answer after them; raise MAX_TOOL_ROUNDS to let it finish, "
        "or ask a narrower question."
    )
    return WarningEvent(
        code="STEP_LIMIT",
        message=f"The step limit was reached (MAX_TOOL_ROUNDS={max_tool_rounds}) after {calls} ({done}), {then}",
    )


def images_unsupported(model: str) -> AgentError:
    """The model cannot see pictures: nothing is sent."""
    return AgentError(
        "IMAGES_UNSUPPORTED",
        f"The model {model} cannot see images, so the question and its pictures were not sent; choose a model "
        "that can (one whose `ollama show` lists vision, such as qwen2.5vl, gemma3 or llava) with the model menu, "
        "/model NAME or --model NAME, and ask again.",
        recoverable=False,
    )


def empty_answer(model: str) -> AgentError:
    return AgentError(
        "EMPTY_ANSWER",
        f"The model {model} returned nothing — try again, rephrase the question, or choose another model.",
    )


def tool_results_answer(tool_calls: Sequence[ToolCall]) -> str | None:
    """An answer saying what each distinct call returned, for a model that wrote none after its tools;
    None when no tool ran fine (then the turn has no answer)."""
    if all(call.error is not None for call in tool_calls):
        return None
    distinct: dict[str, ToolCall] = {}
    for call in tool_calls:
        distinct.setdefault(json.dumps([call.name, call.arguments], sort_keys=True, default=str), call)
    lines = [_result_line(call) for call in distinct.values()]
    return "The model wrote no answer after its tool calls; they returned:\n\n" + "\n".join(lines)


def _result_line(call: ToolCall) -> str:
    arguments = ", ".join(f"{name}={json.dumps(value, ensure_ascii=False)}" for name, value in call.arguments.items())
    calculation = call.calculation
    substituted = calculation.substituted if calculation is not None and call.error is None else None
    result = substituted or call.output
    if len(result) > MAX_RESULT_CHARS_SHOWN:
        result = result[:MAX_RESULT_CHARS_SHOWN] + " …"
    shown = _code_span(result) if "\n" not in result else "\n\n" + _code_block(result)
    return f"- {_code_span(f'{call.name}({arguments})')} → {shown}"


def _longest_backticks(text: str) -> int:
    return max(map(len, _BACKTICKS.findall(text)), default=0)


def _code_span(text: str) -> str:
    """`text` as inline code, shown as written (a span that holds backticks is set in longer ones)."""
    longest = _longest_backticks(text)
    if not longest:
        return f"`{text}`"
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}"


def _code_block(text: str) -> str:
    """`text` as a fenced code block inside a list item."""
    fence = "`" * max(3, _longest_backticks(text) + 1)
    return "\n".join(f"  {line}" for line in (fence, *text.splitlines(), fence))
