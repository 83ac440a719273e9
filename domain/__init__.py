"""The records and events every layer passes around: workspaces, turns, tool calls, file edits, turn events.

Plain pydantic models with no behaviour that needs the store, the model server or a face.
"""
