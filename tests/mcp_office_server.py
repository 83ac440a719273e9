"""An MCP server for the tests, over stdio, written with the official SDK: the office's own section table."""

import os

from mcp.server.mcpserver import MCPServer

server = MCPServer("office-sections")


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


if __name__ == "__main__":
    server.run()
