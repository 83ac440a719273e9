"""The settings (`settings.py`, from the environment and `.env`), the files they name (`config_files.py`), and
where the chat history is (`store_place.py`, read without loading the rest)."""
