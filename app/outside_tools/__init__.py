"""Outside programs the application runs only with consent: MCP servers' tools (`hub` over the `mcp` SDK, one set
of servers per process in `servers`, the user's consent in `consent`) and pre- and post-tool hooks (`hooks`)."""
