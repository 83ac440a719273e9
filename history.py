"""ChatHistoryDB: the product's chat history, kept in one SQLite file or a PostgreSQL database (the `store` package).

Other programs use it from here, as the product's first version did:

    from history import ChatHistoryDB
    db = ChatHistoryDB("chat_history.sqlite")  # or ChatHistoryDB("postgresql://USER:PASSWORD@HOST:PORT/DB")
    chat_id = db.create_chat("Tower A")
    db.add_to_history(chat_id, "How tall?", "45 m.")
"""

from store import ChatHistoryDB, HistoryError

__all__ = ["ChatHistoryDB", "HistoryError"]
