"""Who holds a claim or a running turn: one store object, named by its machine, process and a token of its own.

On one machine (one boot, one process namespace) the name tells whether its process has ended, so
what it held is free at once; elsewhere only its lease's expiry says so (`store.leases`).
"""

from __future__ import annotations

import os
import secrets
import socket
from pathlib import Path


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def _started(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot), or None when it is gone or a zombie."""
    fields = _read(f"/proc/{pid}/stat").rsplit(")", 1)[-1].split()
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None
    return fields[19]


def _this_machine() -> str:
    """This boot of this machine, in this process namespace: where a process id names one process."""
    boot = _read("/proc/sys/kernel/random/boot_id")
    try:
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return ""
    return f"{boot}:{namespace}" if boot else ""


_MACHINE = _this_machine()


def new_holder() -> str:
    """A name for one store object: its machine and process (to tell when it is gone), and a token of its own."""
    pid = os.getpid()
    return "|".join([socket.gethostname(), _MACHINE, str(pid), _started(pid) or "", secrets.token_hex(6)])


def holder_gone(holder: str) -> bool:
    """Whether `holder` was a process of this machine that has ended (on other machines, only its lease says).
    The tables keep it in their `owner` column, a name from before workspaces had owners of their own."""
    parts = holder.split("|")
    if len(parts) != 5 or not _MACHINE or parts[1] != _MACHINE or not parts[2].isdigit():
        return False
    return _started(int(parts[2])) != parts[3]
