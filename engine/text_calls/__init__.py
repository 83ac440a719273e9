"""Tool calls small models write into their text instead of `tool_calls`.

`formats` knows the ways models write them (and which model writes which), `syntax` reads
the pieces without evaluating anything, `filter` holds back streamed text that may turn out
to be a call, and `requested` is the call they all produce, as the tool runner takes it.
"""

from __future__ import annotations

from engine.text_calls.filter import TextCallFilter
from engine.text_calls.formats import extract_text_tool_calls
from engine.text_calls.requested import RequestedCall

__all__ = ["RequestedCall", "TextCallFilter", "extract_text_tool_calls"]
