"""The terminal faces: the chat (`chat.py`: the prompt, or one question with `--once`), and the server's own commands
(`verify.py`, `database.py`, `accounts.py`); `main.py` runs each, and each imports only what it uses."""
