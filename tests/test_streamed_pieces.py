"""The quick ways a streamed piece is taken in give what the general ways give, for any piece.

A chunk of answer text alone is taken in by `RoundState.take` without the general path, a piece
with no marker's first character is shown by `TextCallFilter.feed` without searching for a
marker, and the end of a text that may begin a marker is found by looking only where a marker's
first character is. Each is checked here against the plain way on many random pieces: chunks of
text, thinking, tool calls, empty and last ones; texts made of the markers' own pieces.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from ollama import ChatResponse, Message

from engine import turn_state
from engine.text_calls import filter as text_filter
from engine.text_calls.filter import TextCallFilter
from engine.text_calls.formats import LINE_START_MARKER, MARKERS
from engine.turn_state import RoundState, TurnState

KNOWN = ("divide", "sqrt")
FRAGMENTS = [
    *"ab {}[]<>`\n\t|:.\"'=_0",
    *MARKERS,
    LINE_START_MARKER,
    *(marker[:length] for marker in (*MARKERS, LINE_START_MARKER) for length in range(1, len(marker))),
    '{"name": "divide", "arguments": {"a": 10, "b": 4}}',
    "```json\n",
    "divide",
    "The moment is wL²/8. ",
]


def random_text(rng: random.Random, most: int) -> str:
    return "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(0, most)))


def plain_partial_marker_length(text: str) -> int:
    """Every length of every marker tried, as the definition reads."""
    tail_start = max(0, len(text) - text_filter._PARTIAL_SEARCH_CHARS)
    if line_json := text_filter._PARTIAL_LINE_JSON.search(text, tail_start):
        return len(text) - line_json.start(1)
    longest = 0
    for marker in MARKERS:
        for length in range(min(len(marker) - 1, len(text)), 0, -1):
            if text.endswith(marker[:length]):
                longest = max(longest, length)
                break
    for length in range(min(len(LINE_START_MARKER), len(text)), 0, -1):
        if text.endswith(LINE_START_MARKER[:length]) and text_filter._at_line_start(text, len(text) - length):
            return max(longest, length)
    return longest


def test_the_end_that_may_begin_a_marker_is_the_definitions() -> None:
    rng = random.Random(39)
    texts = [random_text(rng, 8) for _ in range(20_000)]
    texts += ["", "<", "<tool_call", "x <tool_call", "a\n  functions", "functions.", "a functions.", "[TOOL_CALLS"]
    for text in texts:
        assert text_filter._partial_marker_length(text) == plain_partial_marker_length(text), repr(text)


def test_a_piece_may_hold_a_marker_exactly_when_it_has_a_markers_first_character() -> None:
    firsts = text_filter._MARKER_FIRST_CHARACTERS
    assert set(firsts) == {marker[0] for marker in MARKERS} | {"\n"}, "a new marker's first character is tested for"
    for code in range(0x3000):
        character = chr(code)
        assert text_filter._may_hold(character) == (character in firsts), repr(character)
    rng = random.Random(7)
    for _ in range(5_000):
        piece = random_text(rng, 4)
        assert text_filter._may_hold(piece) == any(c in piece for c in firsts), repr(piece)


def feed_all(pieces: list[str], *, quick: bool) -> tuple[list[str], str, str, Any]:
    """What a filter shows of each piece, then what it holds and finishes with; with or without the quick way."""
    text_filter_ = TextCallFilter(KNOWN)
    feed = text_filter_.feed if quick else text_filter_._feed_holding
    shown = [feed(piece) for piece in pieces]
    return shown, text_filter_.held(), text_filter_.content, text_filter_.finish()


def test_a_filter_shows_what_it_would_show_searching_every_piece() -> None:
    rng = random.Random(12)
    for _ in range(3_000):
        pieces = [random_text(rng, 3) for _ in range(rng.randint(1, 12))]
        assert feed_all(pieces, quick=True) == feed_all(pieces, quick=False), pieces


def random_chunk(rng: random.Random, last: bool) -> ChatResponse:
    kind = rng.choice(["text", "text", "text", "thinking", "call", "empty", "both"])
    fields: dict[str, Any] = {"role": "assistant", "content": ""}
    if kind in ("text", "both"):
        fields["content"] = random_text(rng, 3) or "word"
    if kind in ("thinking", "both"):
        fields["thinking"] = random_text(rng, 2) or "hmm"
    if kind == "call":
        fields["tool_calls"] = [{"function": {"name": rng.choice(KNOWN), "arguments": {"x": 1}}}]
    message = Message.model_validate(fields)
    if not last:
        return ChatResponse(model="m", created_at="now", message=message, done=False)
    return ChatResponse(
        model="m", created_at="now", message=message, done=True, done_reason="stop", prompt_eval_count=12, eval_count=34
    )


def take_all(chunks: list[ChatResponse], earlier: str, *, quick: bool) -> tuple[Any, ...]:
    """The events of each chunk, and the round and turn after them; with or without the quick way."""
    turn = TurnState(content=earlier, received_chars=len(earlier))
    round_ = RoundState(turn, TextCallFilter(KNOWN))
    take = round_.take if quick else round_._take_whole
    events = [[event.model_dump() for event in take(chunk)] for chunk in chunks]
    tail = round_.finish()
    state = (round_.thinking, round_.content, round_.tool_calls, round_.done_reason, round_.oversized)
    return events, tail, state, (round_.prompt_tokens, round_.completion_tokens), (turn.content, turn.thinking)


@pytest.mark.parametrize("cap", [turn_state.MAX_ANSWER_CHARS, 40])
def test_a_chunk_of_text_alone_is_taken_in_as_the_general_way_takes_it(
    cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turn_state, "MAX_ANSWER_CHARS", cap)  # 40: a turn reaches the cap within a few chunks
    rng = random.Random(cap)
    for _ in range(2_000):
        count = rng.randint(1, 10)
        chunks = [random_chunk(rng, last=i == count - 1) for i in range(count)]
        earlier = rng.choice(["", "An earlier round's text.", "Text ending a line\n"])
        assert take_all(chunks, earlier, quick=True) == take_all(chunks, earlier, quick=False), chunks
