"""The agent loop: the prompt, Ollama's tool calling, and the typed events of a turn.

No SQL and no UI: `AIAgent.stream` yields events; the application service
stores turns and the faces render the events.
"""
