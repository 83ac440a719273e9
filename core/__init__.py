"""Shared internals of the agent, the store and the two faces (CLI and web app)."""
