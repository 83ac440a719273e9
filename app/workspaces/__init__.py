"""Workspaces: the view's open one and every workspace's life (`workspaces.py`), a workspace named by id or by
name, never mistaken for another (`naming.py`), their digital twins (`summaries.py`) and the search of a user's
other workspaces (`past_work.py`)."""
