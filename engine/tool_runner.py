"""Running the tool calls of one turn: in a worker thread, with a time limit, reusing repeats."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncGenerator, Collection
from dataclasses import dataclass, field
from typing import Any

from domain.events import AgentEvent, ErrorEvent, ToolCallFinished, ToolCallStarted
from domain.records import ToolCall
from engine.text_calls.requested import RequestedCall
from tools import ToolContext, ToolOutcome, run_tool, tool_specs
from tools.registry import arguments_for_display, validated_arguments

REUSED_NOTE = "\n[same call as earlier in this turn; result reused]"


@dataclass
class TurnToolRunner:
    """Runs one turn's tool calls; the same pure call (name + validated arguments) runs once per turn."""

    context: ToolContext
    enabled: Collection[str]
    timeout: float
    records: list[ToolCall] = field(default_factory=list)
    _results: dict[str, ToolOutcome] = field(default_factory=dict)

    async def run(self, call: RequestedCall) -> AsyncGenerator[AgentEvent, None]:
        """Started, then finished (and a TOOL_ERROR event if the tool itself broke)."""
        call_id = f"call_{len(self.records) + 1}"
        arguments = arguments_for_display(call.arguments)
        yield ToolCallStarted(id=call_id, name=call.name, arguments=arguments)
        spec = tool_specs.get(call.name)
        pure = spec is None or spec.pure
        key = self._key(call, arguments)
        repeated = pure and key in self._results
        started = time.perf_counter()
        outcome = self._results[key] if repeated else await self._execute(call)
        if pure:
            self._results[key] = outcome
        elif outcome.error is None:
            self._results.clear()  # a file changed: earlier reads may be stale
        duration_ms = 0.0 if repeated else (time.perf_counter() - started) * 1000
        output = outcome.output + (REUSED_NOTE if repeated else "")
        record = ToolCall(
            id=call_id,
            name=call.name,
            arguments=arguments,
            output=output,
            error=outcome.error,
            duration_ms=duration_ms,
            calculation=outcome.calculation,
        )
        self.records.append(record)
        yield ToolCallFinished(call=record, repeated=repeated)
        if outcome.crashed and not repeated:
            yield ErrorEvent(
                code="TOOL_ERROR", message=f"The tool {call.name} failed unexpectedly; the model was told."
            )

    @staticmethod
    def _key(call: RequestedCall, arguments: dict[str, Any]) -> str:
        spec = tool_specs.get(call.name)
        validated = validated_arguments(spec, call.arguments) if spec is not None else None
        return json.dumps([call.name, arguments if validated is None else validated], sort_keys=True, default=str)

    async def _execute(self, call: RequestedCall) -> ToolOutcome:
        work = asyncio.to_thread(run_tool, call.name, call.arguments, self.context, self.enabled)
        try:
            return await asyncio.wait_for(work, self.timeout)
        except TimeoutError:
            message = f"Error: {call.name} took longer than {self.timeout:g} s and was abandoned."
            return ToolOutcome(message, error=message, crashed=True)
