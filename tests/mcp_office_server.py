"""An MCP server for the tests, over stdio, written with the official SDK: the office's own section table.

With OFFICE_STUBBORN=FILE it is as hard to stop as a server can be: it ignores SIGTERM, lives on after its
standard input ends, and starts a process of its own that does the same (their ids are added to FILE).
"""

import os
import signal
import subprocess
import sys
import threading
import time

from mcp.server.mcpserver import MCPServer

server = MCPServer("office-sections")
STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"


@server.tool()
def lookup(designation: str) -> str:
    """Look up a section in the office's own table of approved sections."""
    return f"{designation}: approved for office use (office table rev. 7)"


@server.tool()
def price(designation: str) -> str:
    """The supplier's price of a section, per metre."""
    return f"{designation}: 81.50 GBP/m"


@server.tool()
def crash() -> str:
    """Ends the server in the middle of the call."""
    os._exit(3)


def be_stubborn(pid_file: str) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    threading.Thread(target=time.sleep, args=(600,)).start()  # not a daemon: the process outlives its stdin
    helper = subprocess.Popen([sys.executable, "-c", STUBBORN])
    with open(pid_file, "a") as pids:
        pids.write(f"{os.getpid()}\n{helper.pid}\n")


if __name__ == "__main__":
    if os.environ.get("OFFICE_STUBBORN"):
        be_stubborn(os.environ["OFFICE_STUBBORN"])
    server.run()
