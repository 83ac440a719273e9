"""The project's documents: reading PDF, Word, Excel, Markdown, text and CSV files into passages
(`readers`, run in a bounded worker process by `reading`), and the `search_documents` tool."""

from tools.documents.search import search_documents

__all__ = ["search_documents"]
