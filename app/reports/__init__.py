"""A workspace as documents: the Markdown export and the calculation report (`exports` writes them, `reports` is the
application's part that reads the store for them), and backups."""
