"""Running the tool calls of one turn: in a worker thread, with a time limit, reusing repeats."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.events import AgentEvent, ErrorEvent, ToolCallFinished, ToolCallStarted
from core.records import ToolCallRecord
from core.text_tool_calls import TextToolCall
from tools import ToolContext, ToolOutcome, run_tool

REUSED_NOTE = "\n[same call as earlier in this turn; result reused]"


def arguments_dict(arguments: Mapping[str, Any] | str | None) -> dict[str, Any]:
    """Arguments for display and storage, whatever shape the model sent them in."""
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments)
        except ValueError:
            return {"_unparsed": arguments}
        return decoded if isinstance(decoded, dict) else {"_unparsed": arguments}
    return dict(arguments or {})


@dataclass
class TurnToolRunner:
    """Runs one turn's tool calls; the same call (name + arguments) runs once per turn."""

    context: ToolContext
    enabled: Collection[str]
    timeout: float
    records: list[ToolCallRecord] = field(default_factory=list)
    _results: dict[str, ToolOutcome] = field(default_factory=dict)

    async def run(self, call: TextToolCall) -> AsyncIterator[AgentEvent]:
        """Started, then finished (and a TOOL_ERROR event if the tool itself broke)."""
        call_id = f"call_{len(self.records) + 1}"
        arguments = arguments_dict(call.arguments)
        yield ToolCallStarted(id=call_id, name=call.name, arguments=arguments)
        key = json.dumps([call.name, arguments], sort_keys=True, default=str)
        repeated = key in self._results
        started = time.perf_counter()
        if not repeated:
            self._results[key] = await self._execute(call)
        outcome = self._results[key]
        duration_ms = 0.0 if repeated else (time.perf_counter() - started) * 1000
        output = outcome.output + (REUSED_NOTE if repeated else "")
        self.records.append(
            ToolCallRecord(
                name=call.name, arguments=arguments, output=output, error=outcome.error, duration_ms=duration_ms
            )
        )
        yield ToolCallFinished(
            id=call_id,
            name=call.name,
            arguments=arguments,
            output=output,
            error=outcome.error,
            duration_ms=duration_ms,
            repeated=repeated,
        )
        if outcome.crashed and not repeated:
            yield ErrorEvent(
                code="TOOL_ERROR", message=f"The tool {call.name} failed unexpectedly; the model was told."
            )

    async def _execute(self, call: TextToolCall) -> ToolOutcome:
        work = asyncio.to_thread(run_tool, call.name, call.arguments, self.context, self.enabled)
        try:
            return await asyncio.wait_for(work, self.timeout)
        except TimeoutError:
            message = f"Error: {call.name} took longer than {self.timeout:g} s and was abandoned."
            return ToolOutcome(message, error=message, crashed=True)
