"""How much fits in a model's context: its size, and tokens counted without the model's tokenizer.

The context is the smallest of NUM_CTX, the model's trained context length and a
`num_ctx` in its Modelfile (`/api/show`). Tokens are estimated from the length
of a request as JSON: three characters a token until the server has counted a
request of ours (`prompt_eval_count`), then the ratio it showed, smoothed and
kept within sane bounds, per model. A count that cannot be of the whole request
(some servers leave cached tokens out) is not learnt from, nor one of a request with
pictures. A picture counts as IMAGE_TOKENS, as a vision model sees it, not as the
length of its base64.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from json.encoder import encode_basestring as _encode_text
from typing import Any

CHARS_PER_TOKEN = 3.0  # the documented estimate before the first measurement
MIN_CHARS_PER_TOKEN = 1.0  # dense text (CJK, numbers) can come near one character a token
MAX_CHARS_PER_TOKEN = 8.0
PLAUSIBLE_CHARS_PER_TOKEN = (0.5, 12.0)  # outside this, a count is not of our whole request
SMOOTHING = 0.5  # the weight of a new measurement against the ratio so far
# What a 1,568 × 1,176 picture (the most `app.turns.images` sends) costs qwen2.5vl, which reads 28-pixel patches: 56
# × 42 =
# 2,352 tokens; gemma3 takes 256 for any picture and llava 576, so no vision model is given less room than it needs.
IMAGE_TOKENS = 2_400
FULL_SHARE = 0.95  # a count this close to the context may be of a prompt the server cut short
MIN_MEASURED_TOKENS = 16


def json_chars(value: Any) -> int:
    """Characters of `value` written as JSON, the unit every estimate here is made in. A message of a role and its
    text (nearly every one) is measured without writing it out: its text's JSON, counted by the C encoder, and
    the fixed rest; anything else is written out."""
    if type(value) is dict and len(value) == 2 and type(value.get("role")) is str and type(value.get("content")) is str:
        if next(iter(value)) == "role":  # `{"role": …, "content": …}`, in that order, as json.dumps writes it
            return _MESSAGE_CHARS + _text_chars(value["role"]) + _text_chars(value["content"])
    return len(json.dumps(value, ensure_ascii=False, default=str))


_MESSAGE_CHARS = len(json.dumps({"role": "", "content": ""})) - 4  # the braces, keys and separators


def _text_chars(text: str) -> int:
    """Characters of `text` as a JSON string (quotes and escapes), as json.dumps with ensure_ascii=False writes it;
    the texts measured again every turn (the system prompt, the history's turns) are counted once."""
    return _remembered_text_chars(text) if len(text) <= REMEMBERED_TEXT_CHARS else len(_encode_text(text))


REMEMBERED_TEXT_CHARS = 16_384  # longer texts are rare, and not worth keeping in memory


@lru_cache(maxsize=512)
def _remembered_text_chars(text: str) -> int:
    return len(_encode_text(text))


def request_chars(messages: Sequence[dict[str, Any]], tools_size: int) -> int:
    """Characters of a chat request's messages, measured as `json_chars` (their pictures left out), plus its tool
    schemas' (measured once)."""
    return sum(json_chars(_text_of(message)) for message in messages) + tools_size


def _text_of(message: dict[str, Any]) -> dict[str, Any]:
    """The message without its pictures."""
    return {key: value for key, value in message.items() if key != "images"} if "images" in message else message


def message_tokens(message: dict[str, Any], context: ContextWindow) -> int:
    """The tokens a message takes: its text as `json_chars` estimates it, and IMAGE_TOKENS a picture."""
    return context.tokens_in(json_chars(_text_of(message))) + IMAGE_TOKENS * len(message.get("images") or ())


@dataclass(frozen=True)
class ContextWindow:
    """The tokens a request may fill, what sets that limit (for messages), and characters per token."""

    tokens: int
    limit: str
    chars_per_token: float = CHARS_PER_TOKEN

    def tokens_in(self, chars: int) -> int:
        return math.ceil(chars / self.chars_per_token)

    def chars_in(self, tokens: int) -> int:
        return int(tokens * self.chars_per_token)


def context_window(
    num_ctx: int, model: str, model_context: int | None, chars_per_token: float = CHARS_PER_TOKEN
) -> ContextWindow:
    """NUM_CTX, or the model's own context when that is smaller."""
    if model_context and model_context < num_ctx:
        return ContextWindow(model_context, f"{model}'s context of {model_context:,} tokens", chars_per_token)
    return ContextWindow(num_ctx, f"NUM_CTX={num_ctx:,}", chars_per_token)


@dataclass
class CharsPerToken:
    """The characters a token holds for one model, learnt from the server's counts of our requests."""

    value: float = CHARS_PER_TOKEN
    measured: bool = False

    def learn(self, chars: int, prompt_tokens: int, context_tokens: int) -> None:
        """Take in a request of `chars` that the server counted as `prompt_tokens` in a context of `context_tokens`."""
        if chars <= 0 or prompt_tokens < MIN_MEASURED_TOKENS:
            return
        sample = chars / prompt_tokens
        if not PLAUSIBLE_CHARS_PER_TOKEN[0] <= sample <= PLAUSIBLE_CHARS_PER_TOKEN[1]:
            return
        sample = min(max(sample, MIN_CHARS_PER_TOKEN), MAX_CHARS_PER_TOKEN)
        if prompt_tokens >= context_tokens * FULL_SHARE:
            self.value = min(self.value, sample)  # the count may be of a cut prompt: it can only lower the ratio
        elif self.measured:
            self.value = SMOOTHING * sample + (1 - SMOOTHING) * self.value
        else:
            self.value = sample
        self.measured = True
