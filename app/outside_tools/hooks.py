"""Hooks: the office's own programs run before and after each tool call (HOOKS_CONFIG).

    {"pre-tool": [{"match": "steel_beam_check", "command": ["python", "calc_log.py"]}],
     "post-tool": [{"match": "*", "command": ["./log-call"]}]}

A hook gets the call as JSON on standard input (`{"tool", "arguments"}`, and for post-tool also `output` and
`error`). A pre-tool hook that exits non-zero blocks the call, and its standard error is the reason the model
and the user see. A command is an argument list run without a shell, so no text of the model's ever becomes a
command line; each run is limited to HOOK_SECONDS. A hook runs in a process group of its own, which is killed
when the hook ends or runs out of time, so nothing it started outlives it; its standard output is not read,
and of its standard error only the first MAX_STDERR_BYTES are kept.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import logging
import os
import signal
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, ConfigDict, Field

from app.configuration.config_files import read_config

logger = logging.getLogger(__name__)
HOOK_SECONDS = 10.0
MAX_REASON_CHARS = 500
MAX_STDERR_BYTES = 64 * 1024
READ_BYTES = 64 * 1024
AFTER_END_SECONDS = 2.0  # for the threads feeding and reading a hook's pipes, once its group is killed


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
            process = subprocess.Popen(  # noqa: S603 - an argument list from the user's own config, never a shell
                hook.command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                cwd=self.folder, start_new_session=os.name == "posix",
            )  # fmt: skip
        except OSError as error:
            logger.warning("hook %s could not run: %s", hook.command, error)
            return 1, f"the hook {hook.command[0]} could not run ({error.strerror or error})"
        assert process.stdin is not None and process.stderr is not None
        feeding = _in_thread(_feed, process.stdin, json.dumps(payload).encode())
        reason = bytearray()
        reading = _in_thread(_read_capped, process.stderr, reason)
        try:
            code: int | None = process.wait(timeout=HOOK_SECONDS)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            _kill_group(process)
        feeding.join(AFTER_END_SECONDS)
        reading.join(AFTER_END_SECONDS)
        if code is None:
            return 1, f"the hook {hook.command[0]} took longer than {HOOK_SECONDS:g} s"
        return code, bytes(reason).decode(errors="replace").strip()[:MAX_REASON_CHARS]


def _in_thread(work: Any, *arguments: Any) -> threading.Thread:
    thread = threading.Thread(target=work, args=arguments, name="hook-pipe", daemon=True)
    thread.start()
    return thread


def _feed(pipe: IO[bytes], data: bytes) -> None:
    """Write the call to the hook's standard input, and close it (a hook that stops reading is no error)."""
    with contextlib.suppress(OSError):
        with pipe:
            pipe.write(data)


def _read_capped(pipe: IO[bytes], kept: bytearray) -> None:
    """Read the pipe to its end in pieces, keeping only the first MAX_STDERR_BYTES."""
    with contextlib.suppress(OSError), pipe:
        while piece := pipe.read1(READ_BYTES):  # type: ignore[attr-defined]
            kept += piece[: max(0, MAX_STDERR_BYTES - len(kept))]


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End the hook and everything it started (its process group); then reap it."""
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    else:
        with contextlib.suppress(OSError):
            process.kill()
    process.wait()
