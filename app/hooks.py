"""Hooks: the office's own programs run before and after each tool call (HOOKS_CONFIG).

    {"pre-tool": [{"match": "steel_beam_check", "command": ["python", "calc_log.py"]}],
     "post-tool": [{"match": "*", "command": ["./log-call"]}]}

A hook gets the call as JSON on standard input (`{"tool", "arguments"}`, and for post-tool also `output` and
`error`). A pre-tool hook that exits non-zero blocks the call, and its standard error is the reason the model
and the user see. A command is an argument list run without a shell, so no text of the model's ever becomes a
command line; each run is limited to HOOK_SECONDS.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.config_files import read_config

logger = logging.getLogger(__name__)
HOOK_SECONDS = 10.0
MAX_REASON_CHARS = 500


class Hook(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    match: str = Field(min_length=1)
    command: list[str] = Field(min_length=1)


class HooksFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    pre_tool: list[Hook] = Field(default=[], alias="pre-tool")
    post_tool: list[Hook] = Field(default=[], alias="post-tool")


def load_hooks(path: Path | None) -> ToolHooks | None:
    """The hooks HOOKS_CONFIG names; ValueError says in one sentence what is wrong with the file."""
    if path is None:
        return None
    return ToolHooks(read_config(path, HooksFile, "HOOKS_CONFIG"), path.parent)


@dataclass(frozen=True)
class ToolHooks:
    """The tools' `hooks` in their context: `before` may refuse a call; `after` is told its result."""

    config: HooksFile
    folder: Path

    def before(self, tool: str, arguments: dict[str, Any]) -> str | None:
        """None to go on, or the reason a pre-tool hook gave for blocking the call."""
        for hook in self._matching(self.config.pre_tool, tool):
            code, reason = self._run(hook, {"tool": tool, "arguments": arguments})
            if code != 0:
                return reason or f"the pre-tool hook {hook.command[0]} refused it (exit {code})"
        return None

    def after(self, tool: str, arguments: dict[str, Any], output: str, error: str | None) -> None:
        for hook in self._matching(self.config.post_tool, tool):
            self._run(hook, {"tool": tool, "arguments": arguments, "output": output, "error": error})

    @staticmethod
    def _matching(hooks: list[Hook], tool: str) -> list[Hook]:
        return [hook for hook in hooks if fnmatch.fnmatchcase(tool, hook.match)]

    def _run(self, hook: Hook, payload: dict[str, Any]) -> tuple[int, str]:
        try:
            done = subprocess.run(  # noqa: S603 - an argument list from the user's own config, never a shell
                hook.command, input=json.dumps(payload), capture_output=True, text=True,
                timeout=HOOK_SECONDS, cwd=self.folder, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return 1, f"the hook {hook.command[0]} took longer than {HOOK_SECONDS:g} s"
        except OSError as error:
            logger.warning("hook %s could not run: %s", hook.command, error)
            return 1, f"the hook {hook.command[0]} could not run ({error.strerror or error})"
        return done.returncode, done.stderr.strip()[:MAX_REASON_CHARS]
