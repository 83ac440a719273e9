"""Asking in a workspace: one turn run and stored however it ends (`turns.py`), one at a time in a workspace
whichever process asks (`workspace_line.py`), as a program's own conversation asks it (`conversation.py`), with
its pictures cleaned once for every face (`images.py`)."""
